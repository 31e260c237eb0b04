import { describe, expect, test } from 'vitest'
import { checkBranchName } from './git/branch-name.ts'
import { branchName, slugOfPrompt } from './branch.ts'
import { compactConversation } from './conversation.ts'

describe('branch names', () => {
  test('docent/<slug>-<short id>, stable per job and valid for git', () => {
    expect(branchName('Replace "Lumen Flags" with "Lumen Toggles" everywhere', 'AbCdEfGh1234567890xyzQ')).toBe(
      'docent/replace-lumen-flags-with-lumen-toggles-abcdefgh',
    )
    for (const prompt of ['', '!!!', 'Ünïcödé façade', '../../etc/passwd', 'x'.repeat(500), '日本語のページを追加', 'a.lock', '-x-']) {
      const branch = branchName(prompt, 'Zz09_-abcdefghijkl')
      expect(checkBranchName(branch)).toBe(branch)
      expect(branch.length).toBeLessThanOrEqual(7 + 40 + 1 + 8)
    }
    expect(slugOfPrompt('Ünïcödé façade')).toBe('unicode-facade')
    expect(slugOfPrompt('日本語')).toBe('edit')
  })
})

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
