import type { Resolution } from '../../shared/analytics.ts'
import type { Source } from '../../shared/assistant.ts'
import { DECLINE } from '../assistant/prompt-format.ts'

/**
 * The phrase an answer starts with when the docs do not cover the question: the offline model writes it, and the
 * LLM's system prompt tells the model to start such an answer with it. One phrase, so one test reads both.
 */
export const DECLINE_PHRASE = DECLINE

const simplify = (text: string) =>
  text
    .toLowerCase()
    .replace(/[*_`>#]/g, '')
    .replace(/[’']/g, '')
    .replace(/\s+/g, ' ')
    .trim()
const PHRASE = simplify(DECLINE_PHRASE).replace(/[.!]$/, '')
/**
 * A model that paraphrases the instruction ("The Acme documentation does not cover ...") still declined: up to
 * PARAPHRASE_NAME_WORDS words name the docs. The words are counted in code, not with `{0,4}`: with the bounded repeat
 * recheck could only fuzz the pattern, and its fuzzer's verdict varies. Lazy, the group holds the fewest words that let
 * the rest match, so the count decides exactly what `{0,4}` did.
 */
const PARAPHRASE =
  /^(?:sorry,? |unfortunately,? )?the ((?:[\w.-]+ )*?)(?:docs|documentation) (?:does not|do not|doesnt|dont) (?:cover|mention|include|describe)/
const PARAPHRASE_NAME_WORDS = 4

/** True when the answer says the docs do not cover the question (the fixed phrase, or its close paraphrase, first). */
export function isDecline(answer: string): boolean {
  const start = simplify(answer.slice(0, 300))
  if (start.startsWith(PHRASE)) return true
  const name = PARAPHRASE.exec(start)?.[1]
  return name !== undefined && name.split(' ').length - 1 <= PARAPHRASE_NAME_WORDS
}

/** The sources an answer cites as `[n]` (1-based, as the system prompt numbers them), in source order. */
export function citedSources(answer: string, sources: readonly Source[]): Source[] {
  const cited = new Set<number>()
  for (const match of answer.matchAll(/\[(\d{1,2})\]/g)) cited.add(Number(match[1]))
  return sources.filter((_, index) => cited.has(index + 1))
}

/**
 * Whether the docs answered: not when the answer declines, is empty, or (once complete) cites no source. A partial
 * answer (the reader left, the model failed) counts as unanswered only when it declined or said nothing.
 */
export function resolutionOf(answer: string, sources: readonly Source[], complete: boolean): Resolution {
  if (!answer.trim() || isDecline(answer)) return 'unanswered'
  if (complete && citedSources(answer, sources).length === 0) return 'unanswered'
  return 'answered'
}
