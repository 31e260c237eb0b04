import { describe, expect, test } from 'vitest'
import { compactConversation } from './conversation.ts'

describe('stored conversation', () => {
  test('large tool outputs are replaced by a note; small ones and other messages are kept', () => {
    const big = 'x'.repeat(10_000)
    const messages = compactConversation([
      { role: 'user', content: 'Fix it' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'read_file', input: { path: 'a.mdx' } }] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 'read_file', output: { type: 'json', value: { content: big } } },
          { type: 'tool-result', toolCallId: 'b', toolName: 'finish', output: { type: 'json', value: { ok: true } } },
        ],
      },
    ])
    expect(messages[0]).toEqual({ role: 'user', content: 'Fix it' })
    const results = (messages[2] as { content: Array<{ output: { type: string; value: unknown } }> }).content
    expect(results[0]!.output).toEqual({
      type: 'text',
      value: expect.stringMatching(/left out of the stored conversation; call read_file again/),
    })
    expect(results[1]!.output).toEqual({ type: 'json', value: { ok: true } })
  })
})
