/**
 * Words, stop words and stems: the one tokenizer of Docent, shared by the search index, the queries, the offline
 * answer model (to match a question against sentences) and the agent's search over a repository.
 */

/**
 * Words that carry no meaning for docs search ("how do I ...", "what does X mean"); dropped from queries and the index
 * alike. Question framing ("explain", "happen", "possible", "doable") is here too: it says how the reader asks, not
 * what about; so is "ones" ("which ones?"), as "one" is; what is left of a negation split at its apostrophe ("don" of
 * "don't", "won" of "won't"); and the plural particle of a hyphenated noun ("sign-ins", "add-ons", "log-outs"), whose
 * first word says what it is. "Against" says how ("building against this endpoint"), as "through" and "via" do.
 * Contractions typed without their apostrophe ("whats", "dont") are the same words.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again all also am an and any are as at be because been being below both but by can could did do
  does doing done during each either else even ever every few for from further get gets getting got had has have having he her
  here hers him his how i if i'm im in into is it its itself just like ll many may me might more most much must my need needs no nor
  now of on once one only or other our ours ourselves out over please re same shall she should so some such than that the
  their theirs them then there these they this those through to too under until upon us use used uses using ve very via want
  wants was way we were what when where whether which while who whom whose why will with within would yes yet you your
  yours another anymore consider considered explain happen happens happened know mean means meant possible tell work works
  don won isn aren wasn weren doesn didn hasn haven hadn couldn wouldn shouldn mustn needn shan ain
  ins ons outs offs against ones
  whats thats hows wheres theres whos dont cant doesnt isnt arent wasnt werent didnt hasnt havent hadnt couldnt wouldnt
  shouldnt ive youre theyre weve doable feasible`.split(/\s+/),
)

/**
 * Everyday words that rarely say what a question is about ("what if it goes down", "a different kind", "before I
 * start"): a question made of them alone names no subject, and a passage need not hold them to answer it. How often
 * ("usually", "always") is one of them: "A failed build usually means the deployment started before the spec finished"
 * spoke of "when do soldiers usually deploy after finishing basic training?" by it. Measured on bench/search-answers
 * (2026-11-29): off-topic sharing a word declined +1 on each corpus, a page-leaning set +1, every other set, search
 * included, unchanged. So how exactly ("which ones exactly?") and "follow" ("what version does my file need to
 * follow?", "follow these steps"), which left two page-leaning questions of the fresh round twenty naming subjects of
 * their own (2026-11-30): a page-leaning set +1, every other set, search included, unchanged. So are how much and how
 * the reader feels ("a bit scared of locking myself out", "a bunch of docs"), which counted as words the docs never
 * use and made two questions of the fresh round 38 stories the docs are not part of (2026-12-01): both answered
 * (round 38 24 → 25/30, page-leaning 11 → 12/12); every set of both benches, search and answers, unchanged. ("Myself"
 * stays a word of the reader's own: an off-topic question asking to "take the image myself" is declined by it.)
 */
export const WEAK_WORDS: ReadonlySet<string> = new Set(
  `different kind kinds sort thing things stuff something someone somebody anyone anybody anything everything everyone
  go goes going went gone take takes took taken long lay put keep keeps let lets give gives see look looks find good
  best better well sure right really actually still lot lots fine okay ok try tried able whole today now currently
  make makes made live lives before after first start starts started starting begin between difference differences
  versus vs compare compared comparison without new usually typically normally generally commonly often always
  sometimes rarely seldom frequently occasionally basically probably maybe exactly precisely specifically follow follows
  followed following bit bunch handful tons scared worried afraid nervous anxious`.split(/\s+/),
)

const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u
const CJK_RUNS = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]|[^\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]+/gu
/**
 * A run of letters and digits; one with a lower-case letter before a capital (LOWER_THEN_UPPER) is an identifier
 * written in camelCase or PascalCase (`defaultOpen`). Runs first, then the test on each: linear, where the pattern
 * `[\p{L}\p{N}]*\p{Ll}\p{Lu}[\p{L}\p{N}]*` read the rest of a run from each of its letters (16,000 `A`s took 0.58 s).
 */
const LETTERS_AND_DIGITS = /[\p{L}\p{N}]+/gu
const LOWER_THEN_UPPER = /\p{Ll}\p{Lu}/u
/** Runs of capitals, of lower-case letters and of digits: what an identifier's parts are made of (identifierParts). */
const CASE_RUNS = /(\p{Lu}+)|(\p{Ll}+)|\p{N}+/gu

/**
 * An acronym's plural written with a lower-case `s` (`IDs`, `APIs`, `PRs`) as its singular: lower-cased, "ids" and
 * "apis" are too short or end too like "basis" for the stemmer to cut, and "user IDs" would miss "user ID". Read
 * before lower-casing, so that `UPS` stays a word and "ups" is not cut to "up".
 */
export function singularAcronyms(text: string): string {
  let out = ''
  let copied = 0
  for (const { 0: capitals, index } of text.matchAll(CAPITALS)) {
    const end = index + capitals.length
    if (text[end] !== 's' || ASCII_WORD_CHARACTER.test(text[end + 1] ?? '')) continue
    if (!ACRONYM_START.test(text.slice(Math.max(0, index - 1), end))) continue
    out += text.slice(copied, end)
    copied = end + 1
  }
  return out + text.slice(copied)
}
/**
 * What `/\b(\p{Lu}{2,})s\b/gu` read, found without it: that was tried at every `\b` in a run of capitals and read the
 * rest of the run from each (`\b` is ASCII's: there is one between `À` and `A`), so `ÀAÀA…` took quadratic time. Each
 * run of capitals is now read once: an `s` after it that ends a word (ASCII_WORD_CHARACTER) goes if the run, read with
 * the character before it, holds a `\b` followed by two capitals (ACRONYM_START), as the old pattern required.
 */
const CAPITALS = /\p{Lu}+/gu
const ASCII_WORD_CHARACTER = /\w/
const ACRONYM_START = /\b\p{Lu}{2}/u
/** A word as tokenize finds it, before identifier parts and CJK characters are split off. */
export const WORD = /[\p{L}\p{N}_]+/gu

/**
 * Splits text into words: runs of letters, digits and `_` (so `new-checkout` is two words and `LUMEN_SDK_KEY` one),
 * lower-cased. An identifier also yields its parts (`defaultOpen` → `defaultopen`, `default`, `open`;
 * `LUMEN_SDK_KEY` → `lumen_sdk_key`, `lumen`, `sdk`, `key`), so "open by default" finds the `defaultOpen` property.
 * Chinese, Japanese and Korean are written without spaces: each of their characters is a word.
 */
export function tokenize(text: string): string[] {
  return splitWords(text, true)
}

function splitWords(text: string, withParts: boolean): string[] {
  const words = singularAcronyms(text).toLowerCase().match(WORD) ?? []
  const out: string[] = []
  for (const word of words) {
    if (CJK.test(word)) {
      out.push(...(word.match(CJK_RUNS) ?? []))
      continue
    }
    out.push(word)
    if (withParts && word.includes('_')) {
      for (const part of word.split('_')) if (part) out.push(part)
    }
  }
  if (!withParts) return out
  for (const { 0: run } of text.matchAll(LETTERS_AND_DIGITS)) {
    if (LOWER_THEN_UPPER.test(run)) for (const part of identifierParts(run)) out.push(part.toLowerCase())
  }
  return out
}

/**
 * An identifier's parts (`defaultOpen` → `default`, `Open`; `getHTTPClient` → `get`, `HTTP`, `Client`; `v2` → `v`,
 * `2`): runs of lower-case letters, each with the capital before it, runs of capitals and runs of digits. Found as
 * runs, then the capital moved: `/\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\p{N}+/gu` did the same with a lookahead, which
 * recheck cannot prove linear.
 */
function identifierParts(identifier: string): string[] {
  const parts: string[] = []
  let capitals: { text: string; end: number } | undefined
  for (const run of identifier.matchAll(CASE_RUNS)) {
    const [text, upper, lower] = run
    if (capitals && lower && run.index === capitals.end) {
      const letters = Array.from(capitals.text)
      const capital = letters.pop()!
      if (letters.length > 0) parts.push(letters.join(''))
      parts.push(capital + text)
      capitals = undefined
      continue
    }
    if (capitals) parts.push(capitals.text)
    capitals = upper ? { text, end: run.index + text.length } : undefined
    if (!upper) parts.push(text)
  }
  if (capitals) parts.push(capitals.text)
  return parts
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

/** Derivational endings, as they look after stemming (`configure` → `configur` + `ation`). */
const SUFFIXES = [
  'al',
  'er',
  'or',
  'ion',
  'ation',
  'ment',
  'able',
  'ity',
  'ive',
  'ly',
  'ness',
  'ur',
  'ance',
  'ence',
  'iz',
  'ization',
  'ator',
]

/** Prefixes that make a word of another ("auto" + "capture"); a prefix comes before a shorter one it begins with. */
const COMBINING_PREFIX = /^(?:auto|multi|cross|inter|micro|super|self|over|under|post|sub|pre|non|out|dis|mis|un|re|co|no|de|up)/

/**
 * A compound's combining prefix and the word it is made of ("autocapture" → "auto", "capture"; "noindex" → "no",
 * "index"), when what is left may be a word (four letters or more): the docs may say "automatically capture" where a
 * reader writes one word.
 */
export function compoundParts(word: string): [prefix: string, base: string] | undefined {
  const prefix = COMBINING_PREFIX.exec(word)?.[0]
  return prefix !== undefined && word.length - prefix.length >= 4 ? [prefix, word.slice(prefix.length)] : undefined
}

/** Other stems of a stem's word family: `approv` → `approval`, `approver`; `configuration` → `configur`. */
export function wordFamily(stem: string): string[] {
  const bases = new Set([stem])
  for (const suffix of SUFFIXES) {
    if (!stem.endsWith(suffix) || stem.length - suffix.length < 4) continue
    const base = stem.slice(0, -suffix.length)
    bases.add(base)
    bases.add(undouble(base)) // flatter → flat
  }
  const out = new Set<string>()
  for (const base of bases) {
    out.add(base)
    for (const suffix of SUFFIXES) out.add(base + suffix)
  }
  out.delete(stem)
  return [...out]
}

function undouble(w: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w
}

/** Most words a query is searched by: a pasted page of text is cut to its first distinct words. */
export const MAX_QUERY_TERMS = 48

/** A query as distinct words, stop words out, at most MAX_QUERY_TERMS of them (still unstemmed: the index stems). */
export function queryTerms(query: string): string {
  return contentWords(query, MAX_QUERY_TERMS).join(' ')
}

/** A word that says something: not a stop word, and not a lone letter (the `s` of "what's"); a lone digit is ("exit code 6"). */
const isContent = (word: string) =>
  !STOP_WORDS.has(word) && (word.length > 1 || /[\p{N}\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u.test(word))

/** The distinct words of a text that are not stop words, as written (lower-cased), in order; at most `max`. */
export function contentWords(text: string, max = Number.POSITIVE_INFINITY): string[] {
  const words = new Set<string>()
  for (const word of tokenize(text)) {
    if (!isContent(word)) continue
    words.add(word)
    if (words.size >= max) break
  }
  return [...words]
}

/** The stems of a text's content words, in order (repeats kept), for matching a question against sentences. */
export function contentTerms(text: string): string[] {
  return tokenize(text).flatMap((word) => (isContent(word) ? [stem(word)] : []))
}

/** contentTerms without the parts of identifiers (`GitBook` is `gitbook`, not `git` and `book`): the words a text says. */
export function wholeWordTerms(text: string): string[] {
  return splitWords(text, false).flatMap((word) => (isContent(word) ? [stem(word)] : []))
}
