import type { LanguageModelV4CallOptions } from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { describe, expect, test } from 'vitest'
import { MemoryWorkspace } from '../../tests/agent/support/memory-workspace.ts'
import { toolStep as step } from '../../tests/agent/support/model-steps.ts'
import type { JobEvents } from './events.ts'
import { runAgentLoop } from './loop.ts'
import { MAX_CALLS_PER_STEP } from './reply-limits.ts'

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

async function run(model: MockLanguageModelV4, options: { maxSteps?: number; signal?: AbortSignal; events?: string[] } = {}) {
  const workspace = new MemoryWorkspace({
    'docs.json': '{ "navigation": [] }',
    'index.mdx': '---\ntitle: Home\n---\n\nWelcome to Lumen Flags.\n',
  })
  const events: string[] = options.events ?? []
  const jobEvents: JobEvents = { add: async (type, message) => void events.push(`${type}: ${message}`) }
  const result = await runAgentLoop({
    model,
    workspace,
    conversation: [],
    prompt: 'Rename Lumen Flags to Lumen Toggles',
    instructions: 'Edit the docs.',
    limits: { maxSteps: options.maxSteps ?? 10, maxChangedBytes: 10_000, maxFilesTouched: 10 },
    events: jobEvents,
    signal: options.signal ?? new AbortController().signal,
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

  test('a model that sends its tool calls with finish reason "stop" still stops at the step limit, and says so', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({ ...step(['list_files', {}]), finishReason: { unified: 'stop', raw: 'stop' } }),
    })
    const { result } = await run(model, { maxSteps: 3 })
    expect(model.doGenerateCalls).toHaveLength(3)
    expect(result).toMatchObject({ summary: null, steps: 3, hitStepLimit: true })
  })

  test('a finish call its schema refuses is an error the model reads; the run goes on and ends only at a valid one', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [
        step(['write_file', { path: 'half-done.mdx', content: 'half' }]),
        step(['finish', { summary: 'I could not do this', done: 'false' }]),
        step(['finish', { summary: 'I could not do this', done: false }]),
      ],
    })
    const { result } = await run(model)
    expect(toolResults(model.doGenerateCalls[2]!).at(-1)).toMatch(/^finish → refused: .*Invalid input/)
    expect(result).toMatchObject({ summary: 'I could not do this', steps: 3, gaveUp: true, hitStepLimit: false })
    // Refused every time, the run ends at the step limit: not a success.
    const stubborn = new MockLanguageModelV4({ doGenerate: async () => step(['finish', { summary: '' }]) })
    expect((await run(stubborn, { maxSteps: 2 })).result).toMatchObject({ summary: null, hitStepLimit: true })
  })

  test('a reply of more tool calls than a step may make: the calls past the budget are refused, each saying why', async () => {
    const calls = Array.from({ length: MAX_CALLS_PER_STEP + 5 }, (): [string, Record<string, unknown>] => [
      'read_file',
      { path: 'index.mdx' },
    ])
    const model = new MockLanguageModelV4({ doGenerate: [step(...calls), step(['list_files', {}]), step(['finish', { summary: 'Read' }])] })
    await run(model)
    const results = toolResults(model.doGenerateCalls[1]!)
    expect(results.filter((result) => result.startsWith('read_file → {'))).toHaveLength(MAX_CALLS_PER_STEP)
    expect(results.filter((result) => result.includes(`at most ${MAX_CALLS_PER_STEP} tool calls in one reply`))).toHaveLength(5)
    // The next reply has a budget of its own.
    expect(toolResults(model.doGenerateCalls[2]!).at(-1)).toMatch(/^list_files → \{/)
  })

  test("the run's deadline fires between the calls of one reply, and the calls left are not made", async () => {
    const controller = new AbortController()
    const calls = Array.from({ length: 40 }, (): [string, Record<string, unknown>] => ['read_file', { path: 'index.mdx' }])
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        // The deadline comes due while the reply's calls run: a timer, as the worker's is.
        setTimeout(() => controller.abort(new Error('the run outlived its time limit')), 0)
        return step(...calls)
      },
    })
    const events: string[] = []
    await expect(run(model, { signal: controller.signal, events })).rejects.toThrow()
    expect(events.filter((event) => event.startsWith('file.read')).length).toBeLessThan(5)
  })

  test('finish with done=false: the model could not carry out the request, and the loop reports it', async () => {
    const model = new MockLanguageModelV4({ doGenerate: [step(['finish', { summary: 'No page is about billing.', done: false }])] })
    const { result } = await run(model)
    expect(result).toMatchObject({ summary: 'No page is about billing.', steps: 1, hitStepLimit: false, gaveUp: true })
  })
})
