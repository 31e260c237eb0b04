import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider'
import { MAX_CALLS_PER_STEP } from '../agent/reply-limits.ts'
import type { PastCall, PlannedCall } from './offline-plan.ts'

const usage: LanguageModelV4Usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
}

/**
 * `offline-editor`: the agent model used when no model is configured. An AI SDK language model that understands a
 * documented set of plain edit instructions (see `UNDERSTOOD_INSTRUCTIONS`) and carries them out through the same
 * tool calls an LLM would make; anything else ends the run with no change and a list of what it understands.
 */
export class OfflineEditor implements LanguageModelV4 {
  readonly specificationVersion = 'v4'
  readonly provider = 'docent'
  readonly modelId = 'offline-editor'
  readonly supportedUrls = {}
  private calls = 0

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    // The planner (instruction parser, docs.json editing) loads with the first call, not with the server.
    const { planNextStep } = await import('./offline-plan.ts')
    const content = this.respond(options, planNextStep)
    const toolCalls = content.some((part) => part.type === 'tool-call')
    return {
      content,
      finishReason: { unified: toolCalls ? 'tool-calls' : 'stop', raw: undefined },
      usage,
      warnings: [],
      response: { id: `offline-${++this.calls}`, modelId: this.modelId, timestamp: new Date() },
    }
  }

  async doStream(options: LanguageModelV4CallOptions) {
    const result = await this.doGenerate(options)
    const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }]
    for (const part of result.content) {
      if (part.type === 'text') {
        parts.push({ type: 'text-start', id: 't0' }, { type: 'text-delta', id: 't0', delta: part.text }, { type: 'text-end', id: 't0' })
      } else {
        parts.push(part as LanguageModelV4StreamPart)
      }
    }
    parts.push({ type: 'finish', usage, finishReason: result.finishReason })
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part)
          controller.close()
        },
      }),
    }
  }

  private respond(
    options: LanguageModelV4CallOptions,
    planNextStep: typeof import('./offline-plan.ts').planNextStep,
  ): LanguageModelV4Content[] {
    const { instruction, steps } = readPrompt(options.prompt)
    const available = new Set((options.tools ?? []).map((tool) => tool.name))
    const usable = (calls: PlannedCall[]) => calls.filter((planned) => available.has(planned.toolName))
    // A step of more calls than a reply may make (one edit per file of a large repository) goes out over several
    // replies; the plan is a function of the steps before, so the step's calls are planned again and the rest sent.
    const last = steps.at(-1)
    if (last) {
      const planned = planNextStep(instruction, steps.slice(0, -1))
      if ('calls' in planned && last.length < usable(planned.calls).length) {
        return toolCalls(usable(planned.calls), steps.length - 1, last.length)
      }
    }
    const next = planNextStep(instruction, steps)
    if ('text' in next) return [{ type: 'text', text: next.text }]
    const calls = usable(next.calls)
    if (calls.length === 0) return [{ type: 'text', text: 'The offline editor edits docs through file tools, and none were given.' }]
    return toolCalls(calls, steps.length, 0)
  }
}

/**
 * One reply's tool calls: at most MAX_CALLS_PER_STEP of a step's, from `from` on. Each call's id names its step, so
 * the replies of one step are read back as one (see readPrompt).
 */
function toolCalls(calls: PlannedCall[], step: number, from: number): LanguageModelV4Content[] {
  return calls.slice(from, from + MAX_CALLS_PER_STEP).map((planned, index) => ({
    type: 'tool-call',
    toolCallId: `offline_${step}_${from + index}_${crypto.randomUUID().slice(0, 8)}`,
    toolName: planned.toolName,
    input: JSON.stringify(planned.input),
  }))
}

/** The last user message (the instruction of this run) and the tool calls made since, grouped by step. */
function readPrompt(prompt: LanguageModelV4Prompt): { instruction: string; steps: PastCall[][] } {
  let last = -1
  prompt.forEach((message, index) => {
    if (message.role === 'user') last = index
  })
  const user = prompt[last]
  const instruction =
    user?.role === 'user'
      ? user.content
          .map((part) => (part.type === 'text' ? part.text : ''))
          .join('\n')
          .trim()
      : ''
  const results = new Map<string, { output: unknown; error: string | null }>()
  for (const message of prompt.slice(last + 1)) {
    if (message.role !== 'tool' && message.role !== 'assistant') continue
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue
      const output = part.output
      if (output.type === 'json') results.set(part.toolCallId, { output: output.value, error: null })
      else if (output.type === 'text') results.set(part.toolCallId, { output: output.value, error: null })
      else if (output.type === 'error-text') results.set(part.toolCallId, { output: null, error: output.value })
      else if (output.type === 'error-json') results.set(part.toolCallId, { output: null, error: JSON.stringify(output.value) })
      else results.set(part.toolCallId, { output: null, error: output.type })
    }
  }
  // Calls grouped by the step their id names (a step may span replies, see toolCalls); a reply without such ids is a step.
  const steps: PastCall[][] = []
  const byStep = new Map<string, PastCall[]>()
  prompt.slice(last + 1).forEach((message, index) => {
    if (message.role !== 'assistant') return
    for (const part of message.content) {
      if (part.type !== 'tool-call') continue
      const result = results.get(part.toolCallId) ?? { output: null, error: 'no result' }
      const input = (typeof part.input === 'string' ? safeParse(part.input) : part.input) as Record<string, unknown>
      const key = /^offline_(\d+)_/.exec(part.toolCallId)?.[1] ?? `reply ${index}`
      let step = byStep.get(key)
      if (!step) {
        byStep.set(key, (step = []))
        steps.push(step)
      }
      step.push({ toolName: part.toolName, input: input ?? {}, ...result })
    }
  })
  return { instruction, steps }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return {}
  }
}
