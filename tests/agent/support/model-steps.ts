import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

/** One step of a scripted model (`MockLanguageModelV4`'s `doGenerate`): the tool calls it makes. */
export function toolStep(...calls: Array<[string, Record<string, unknown>]>): LanguageModelV4GenerateResult {
  return {
    content: calls.map(([toolName, input], i) => ({
      type: 'tool-call',
      toolCallId: `${toolName}_${i}`,
      toolName,
      input: JSON.stringify(input),
    })),
    finishReason: { unified: 'tool-calls', raw: undefined },
    usage,
    warnings: [],
  }
}
