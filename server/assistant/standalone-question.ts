import type { ChatTurn } from '../../shared/assistant.ts'
import { contentTerms } from '../search/terms.ts'

/** Words that point back at an earlier turn: a question using them cannot be searched on its own. */
const REFERS_BACK =
  /\b(it|this|that|these|those|they|them|same|above|previous|instead)\b|^\s*(and|or|but|what about|how about|so|then|why|why not|also)\b/i
/** Content words of a question that stands on its own. */
const ENOUGH_TERMS = 4
const MAX_QUERY = 500

/**
 * The question to search with. A follow-up ("and for Python?", "how do I turn it off?") is made standalone by
 * putting the earlier questions' words in front of it, newest last, so the search sees the topic the reader means.
 * Returns the last question unchanged when it already stands on its own.
 */
export function standaloneQuestion(turns: ChatTurn[]): string {
  const questions = turns.filter((turn) => turn.role === 'user').map((turn) => turn.text.trim())
  const last = questions.at(-1) ?? ''
  const earlier = questions.slice(0, -1)
  if (earlier.length === 0) return last.slice(0, MAX_QUERY)
  const standsAlone = contentTerms(last).length >= ENOUGH_TERMS && !REFERS_BACK.test(last)
  if (standsAlone) return last.slice(0, MAX_QUERY)
  // Earlier questions give the topic; the last one must survive any cut, so the topic is what gets trimmed.
  const room = MAX_QUERY - last.length - 1
  const topic = room > 0 ? earlier.slice(-2).join(' ').slice(-room) : ''
  return `${topic} ${last}`.trim().slice(0, MAX_QUERY)
}
