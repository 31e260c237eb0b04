import type { LanguageModel, ModelMessage } from 'ai'
import { aiSdk } from '../models/ai-sdk.ts'
import { DEFAULT_WRITABLE_PATHS } from '../config.ts'
import type { JobEvents } from './events.ts'
import { agentTools, type StepBudget, type ToolLimits, type ToolState } from './tools.ts'
import type { Workspace } from '../git/types.ts'
import { writablePaths } from './writable-paths.ts'

export interface AgentLoopInput {
  model: LanguageModel
  workspace: Workspace
  /** The job's conversation so far (earlier prompts, tool calls and results): a follow-up continues it. */
  conversation: ModelMessage[]
  prompt: string
  instructions: string
  /** Globs of the files the agent may write (the project's `agent.writablePaths`); the default is documentation only. */
  writablePaths?: readonly string[]
  limits: ToolLimits & { maxSteps: number }
  events: JobEvents
  signal: AbortSignal
}

export interface AgentLoopResult {
  /** The finish summary, else the model's last text, else null. */
  summary: string | null
  /** The whole conversation including this run's prompt and every step. */
  conversation: ModelMessage[]
  steps: number
  /** True when the step limit ended the loop before the model called finish. */
  hitStepLimit: boolean
  /** True when the model called finish with done=false: it could not carry out the request. */
  gaveUp: boolean
}

/** One run of the agent: the model calls file tools until it calls `finish` or reaches the step limit. */
export async function runAgentLoop(input: AgentLoopInput): Promise<AgentLoopResult> {
  const state: ToolState = { summary: null }
  const step: StepBudget = { calls: 0, resultChars: 0 }
  const writable = writablePaths(input.writablePaths ?? DEFAULT_WRITABLE_PATHS)
  const { generateText, stepCountIs } = await aiSdk()
  const tools = await agentTools({
    workspace: input.workspace,
    writable,
    limits: input.limits,
    events: input.events,
    state,
    step,
    signal: input.signal,
  })
  const messages: ModelMessage[] = [...input.conversation, { role: 'user', content: input.prompt }]
  const result = await generateText({
    model: input.model,
    instructions: input.instructions,
    messages,
    tools,
    // Finished when `finish` ran, not when it was called: a call its schema refused ({done: "false"}, no summary) is
    // an error the model sees and may correct; stopping on it ended a run that meant to give up as a success.
    stopWhen: [stepCountIs(input.limits.maxSteps), () => state.summary !== null],
    prepareStep: () => {
      step.calls = 0
      step.resultChars = 0
      return undefined
    },
    // File edits depend on each other's results: run a step's tool calls one after another.
    toolCallConcurrency: 1,
    abortSignal: input.signal,
    maxRetries: 1,
    onStepFinish: async (step) => {
      for (const part of step.content) {
        if (part.type === 'tool-error') {
          await input.events.add('error', `${part.toolName} refused: ${errorText(part.error)}`, { tool: part.toolName })
        }
      }
    },
  })
  const summary = state.summary ?? (result.text.trim() || null)
  return {
    summary,
    conversation: [...messages, ...result.responseMessages],
    steps: result.steps.length,
    // Whatever finish reason the server gave: some OpenAI-compatible servers send tool calls with "stop".
    hitStepLimit:
      state.summary === null && result.steps.length >= input.limits.maxSteps && (result.steps.at(-1)?.toolCalls.length ?? 0) > 0,
    gaveUp: state.done === false,
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
