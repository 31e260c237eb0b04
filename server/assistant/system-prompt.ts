import type { ContextItem } from '../../shared/assistant.ts'
import { DECLINE, formatSourceBlocks, type SourceBlock, sourcesHeading, STANDALONE_PREFIX, UNKNOWN_WORDS_PREFIX } from './prompt-format.ts'

export interface PromptInput {
  docsName: string
  sources: SourceBlock[]
  /** The search question, when it differs from the reader's last message (a follow-up made standalone). */
  standalone?: string
  currentPath?: string
  context?: ContextItem[]
  /** Words of the question the docs never use. */
  unknownWords?: string[]
}

/**
 * Sources first (models attend best to what they read before the rules), then what the reader is looking at,
 * then the rules: answer only from the sources, cite them, and say so when they do not cover the question.
 */
export function systemPrompt({ docsName, sources, standalone, currentPath, context, unknownWords }: PromptInput): string {
  const parts: string[] = []
  parts.push(
    sources.length > 0
      ? `${sourcesHeading(docsName)}, best match first:\n\n${formatSourceBlocks(sources)}`
      : `${sourcesHeading(docsName)}: none matched this question.`,
  )
  if (currentPath) parts.push(`The reader is on the page ${currentPath}.`)
  for (const item of context ?? []) {
    const where = item.path ? ` from ${item.path}` : ''
    const label = item.type === 'code' ? `Code the reader shared${where}` : `Text the reader selected${where}`
    parts.push(`${label}:\n<context>\n${item.value}\n</context>`)
  }
  if (standalone) parts.push(`${STANDALONE_PREFIX}${standalone}`)
  if (unknownWords && unknownWords.length > 0) parts.push(`${UNKNOWN_WORDS_PREFIX}${unknownWords.join(', ')}`)
  parts.push(
    [
      `You are the documentation assistant for ${docsName}.`,
      'Answer the reader using only the sources above. Do not use outside knowledge and do not invent features, options or code.',
      'Cite the sources you use by their number in square brackets, like [1], right after the sentence they support.',
      `If the sources do not cover the question, start your answer with exactly "${DECLINE}", then point to the closest source if one helps.`,
      'Keep answers short and practical; use markdown, and code blocks for code.',
    ].join('\n'),
  )
  return parts.join('\n\n')
}
