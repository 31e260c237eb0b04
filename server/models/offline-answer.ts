import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider'
import { extractiveAnswer } from './extractive-answer.ts'
import { parseSourceBlocks, readDocsName, readPromptLine, readUnknownWords, STANDALONE_PREFIX } from '../assistant/prompt-format.ts'

export const OFFLINE_ANSWER_ID = 'offline-answer'

/** Words per streamed delta: small enough to look like token streaming, large enough to keep the stream cheap. */
const WORDS_PER_DELTA = 4

/**
 * The built-in answer model: an AI SDK language model that needs no LLM. It reads the sources the system prompt
 * carries and answers with their most relevant sentences, cited; when they miss the question, it says the docs do
 * not cover it. Limits: it quotes, it does not reason, combine facts or translate.
 */
export function offlineAnswerModel(): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'docent',
    modelId: OFFLINE_ANSWER_ID,
    supportedUrls: {},
    async doGenerate(options) {
      const text = answerFor(options)
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usageOf(options.prompt, text),
        warnings: [],
      }
    },
    async doStream(options) {
      const text = answerFor(options)
      const deltas = text.match(new RegExp(`(?:\\S+\\s*){1,${WORDS_PER_DELTA}}|\\s+`, 'g')) ?? []
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', modelId: OFFLINE_ANSWER_ID },
        { type: 'text-start', id: 'answer' },
        ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 'answer', delta })),
        { type: 'text-end', id: 'answer' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usageOf(options.prompt, text) },
      ]
      let next = 0
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        // Pull-based: one part per read, so a slow or gone reader stops the model as an LLM stream would.
        pull(controller) {
          if (options.abortSignal?.aborted) return controller.error(options.abortSignal.reason)
          const part = parts[next++]
          if (part) controller.enqueue(part)
          else controller.close()
        },
      })
      return { stream }
    },
  }
}

function answerFor(options: LanguageModelV4CallOptions): string {
  const system = options.prompt
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n\n')
  return extractiveAnswer(
    {
      question: lastUserText(options.prompt),
      standalone: readPromptLine(system, STANDALONE_PREFIX),
      docsName: readDocsName(system),
      unknownWords: readUnknownWords(system),
    },
    parseSourceBlocks(system),
  )
}

function lastUserText(prompt: LanguageModelV4Prompt): string {
  const last = prompt.findLast((message) => message.role === 'user')
  if (last?.role !== 'user') return ''
  return last.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ')
}

/** Rough token counts (about four characters a token), so usage figures are plausible rather than zero. */
function usageOf(prompt: LanguageModelV4Prompt, output: string): LanguageModelV4Usage {
  const input = Math.ceil(JSON.stringify(prompt).length / 4)
  const out = Math.ceil(output.length / 4)
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: out, text: out, reasoning: undefined },
  }
}
