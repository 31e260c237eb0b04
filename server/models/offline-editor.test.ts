import { jsonSchema, streamText, tool } from 'ai'
import { expect, test } from 'vitest'
import { OfflineEditor } from './offline-editor.ts'

// The offline editor is a real AI SDK language model: streamed, its first step for "replace everywhere" is one
// search_docs tool call, chunk for chunk what an LLM's would be.
test('streamed through streamText: the chunk sequence of its first step', async () => {
  const result = streamText({
    model: new OfflineEditor(),
    prompt: 'Replace "Lumen Flags" with "Lumen Toggles" everywhere',
    tools: { search_docs: tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }) }) },
  })
  const chunks: string[] = []
  for await (const chunk of result.fullStream) {
    chunks.push(chunk.type === 'tool-call' ? `tool-call ${chunk.toolName} ${JSON.stringify(chunk.input)}` : chunk.type)
  }
  expect(chunks).toMatchInlineSnapshot(`
    [
      "start",
      "start-step",
      "tool-call search_docs {"query":"Lumen Flags","exact":true,"limit":500}",
      "finish-step",
      "finish",
    ]
  `)
})
