/** Words that carry no meaning for docs search ("how do I ..."); dropped from queries and the index alike. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can could do does did for from how i if in into is it its me my of on or our so than that the their ' +
    'them then there these they this those to us was we were what when where which who why will with would you your ' +
    "should shall may might i'm im get got want need use using used"
  ).split(' '),
)

const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u

/**
 * Splits text into words: runs of letters, digits and `_` (so `new-checkout` is two words and `LUMEN_SDK_KEY` one).
 * Chinese, Japanese and Korean are written without spaces: each of their characters is a word.
 */
export function tokenize(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []
  if (!words.some((word) => CJK.test(word))) return words
  return words.flatMap((word) =>
    CJK.test(word)
      ? (word.match(
          /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]|[^\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]+/gu,
        ) ?? [])
      : [word],
  )
}

/** A term as stored in the index: lower case, not a stop word, plural and verb endings cut. */
export function processTerm(term: string): string | null {
  const word = term.toLowerCase()
  if (STOP_WORDS.has(word)) return null
  return stem(word)
}

/**
 * A light English stemmer (the first steps of Porter's): enough to match "rollouts" with "rollout" and
 * "evaluating" with "evaluate", without the over-stemming that hurts identifiers such as `getBool`.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word
  let w = word
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y'
  else if (w.endsWith('sses')) w = w.slice(0, -2)
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1)
  if (w.length > 5 && w.endsWith('ing')) w = undouble(w.slice(0, -3))
  else if (w.length > 4 && w.endsWith('ed') && !w.endsWith('eed')) w = undouble(w.slice(0, -2))
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1)
  return w
}

function undouble(w: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w
}

/** Most words a query is searched by: a pasted page of text is cut to its first distinct words. */
export const MAX_QUERY_TERMS = 48

/** A query as distinct words, stop words out, at most MAX_QUERY_TERMS of them (still unstemmed: the index stems). */
export function queryTerms(query: string): string {
  const words = new Set<string>()
  for (const word of tokenize(query)) {
    if (processTerm(word) === null) continue
    words.add(word)
    if (words.size === MAX_QUERY_TERMS) break
  }
  return [...words].join(' ')
}
