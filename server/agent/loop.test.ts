import type { LanguageModelV4CallOptions } from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { describe, expect, test } from 'vitest'
import { MemoryWorkspace } from '../../tests/agent/support/memory-workspace.ts'
import { toolStep as step } from '../../tests/agent/support/model-steps.ts'
import type { JobEvents } from './events.ts'
import { runAgentLoop } from './loop.ts'

/** What the model saw of its tools' answers in each call: tool name → output, or the refusal. */
function toolResults(call: LanguageModelV4CallOptions): string[] {
  return call.prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result'
            ? [`${part.toolName} → ${part.output.type === 'error-text' ? `refused: ${part.output.value}` : JSON.stringify(part.output)}`]
            : [],
        )
      : [],
  )
}

async function run(model: MockLanguageModelV4, options: { maxSteps?: number } = {}) {
  const workspace = new MemoryWorkspace({
    'docs.json': '{ "navigation": [] }',
    'index.mdx': '---\ntitle: Home\n---\n\nWelcome to Lumen Flags.\n',
  })
  const events: string[] = []
  const jobEvents: JobEvents = { add: async (type, message) => void events.push(`${type}: ${message}`) }
  const result = await runAgentLoop({
    model,
    workspace,
    conversation: [],
    prompt: 'Rename Lumen Flags to Lumen Toggles',
    instructions: 'Edit the docs.',
    limits: { maxSteps: options.maxSteps ?? 10, maxChangedBytes: 10_000, maxFilesTouched: 10 },
    events: jobEvents,
    signal: new AbortController().signal,
  })
  return { result, events, changes: workspace.changes(), files: workspace.snapshot() }
}

describe('the agent loop, with the AI SDK mock model', () => {
  test('read, edit, finish: each tool answers the model, and the loop stops at finish', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [
        step(['list_files', {}], ['read_file', { path: 'index.mdx' }]),
        step(['edit_file', { path: 'index.mdx', old_text: 'Lumen Flags', new_text: 'Lumen Toggles' }]),
        step(['finish', { summary: 'Rename Lumen Flags to Lumen Toggles\n\nOne page.' }]),
        step(['write_file', { path: 'never.mdx', content: 'the loop stopped before this step' }]),
      ],
    })
    const { result, events, files } = await run(model)
    expect(model.doGenerateCalls).toHaveLength(3)
    expect(model.doGenerateCalls.map((call) => call.tools?.map((tool) => tool.name))[0]).toMatchInlineSnapshot(`
      [
        "list_files",
        "read_file",
        "search_docs",
        "write_file",
        "edit_file",
        "delete_file",
        "finish",
      ]
    `)
    expect(toolResults(model.doGenerateCalls[2]!)).toMatchInlineSnapshot(`
      [
        "list_files → {"type":"json","value":{"files":["docs.json","index.mdx"],"truncated":false}}",
        "read_file → {"type":"json","value":{"path":"index.mdx","content":"---\\ntitle: Home\\n---\\n\\nWelcome to Lumen Flags.\\n","truncated":false}}",
        "edit_file → {"type":"json","value":{"path":"index.mdx","replacements":1}}",
      ]
    `)
    expect(events).toMatchInlineSnapshot(`
      [
        "file.read: read index.mdx",
        "file.changed: modified index.mdx",
      ]
    `)
    expect(files['index.mdx']).toBe('---\ntitle: Home\n---\n\nWelcome to Lumen Toggles.\n')
    expect(result).toMatchObject({ summary: 'Rename Lumen Flags to Lumen Toggles\n\nOne page.', steps: 3, hitStepLimit: false })
  })

  test('a refused call is an error result the model reads, and the run goes on', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [
        step(['edit_file', { path: 'index.mdx', old_text: 'Nope', new_text: 'x' }], ['read_file', { path: '../outside' }]),
        step(['finish', { summary: 'Nothing to change' }]),
      ],
    })
    const { events, changes } = await run(model)
    expect(toolResults(model.doGenerateCalls[1]!)).toMatchInlineSnapshot(`
      [
        "edit_file → refused: ToolError: old_text was not found in index.mdx; read the file and copy the text exactly",
        "read_file → refused: WorkspacePathError: path "../outside" refused: ".." would leave the repository",
      ]
    `)
    expect(events).toMatchInlineSnapshot(`
      [
        "error: edit_file refused: old_text was not found in index.mdx; read the file and copy the text exactly",
        "error: read_file refused: path "../outside" refused: ".." would leave the repository",
      ]
    `)
    expect(changes).toEqual([])
  })

  test('a model that never calls finish stops at the step limit, and says so', async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => step(['list_files', {}]) })
    const { result } = await run(model, { maxSteps: 3 })
    expect(model.doGenerateCalls).toHaveLength(3)
    expect(result).toMatchObject({ summary: null, steps: 3, hitStepLimit: true, gaveUp: false })
  })

  test('finish with done=false: the model could not carry out the request, and the loop reports it', async () => {
    const model = new MockLanguageModelV4({ doGenerate: [step(['finish', { summary: 'No page is about billing.', done: false }])] })
    const { result } = await run(model)
    expect(result).toMatchObject({ summary: 'No page is about billing.', steps: 1, hitStepLimit: false, gaveUp: true })
  })
})
