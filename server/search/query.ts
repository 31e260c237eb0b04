import { findPhrases, synonymsOf } from './synonyms.ts'
import { contentWords, MAX_QUERY_TERMS, singularAcronyms, WEAK_WORDS } from './terms.ts'

/** How much a synonym's match counts against a match of the reader's own word. */
export const SYNONYM_WEIGHT = 0.6

/** One word (or phrase) of a query and the words it may be written as in the docs. */
export interface QueryWord {
  /** Unstemmed words, each with its weight: the reader's own word 1, its synonyms less. */
  terms: Array<{ word: string; weight: number }>
  /** Multiplies the word's score: 1 for the question's words, less for words that only give context. */
  weight: number
  /** Counts toward how many of the query's words a section matched (context words do not). */
  counts: boolean
  /** A phrase of the reader's ("turn off", "signed up"): its own words, the terms weighing less, mean little apart. */
  phrase?: boolean
}

/** A query as the index reads it. */
export interface SearchQuery {
  words: QueryWord[]
}

export interface QueryContext {
  /** Text that says what the question is about without being the question (the reader's page title, a selection). */
  text: string
  /** Weight of its words against the question's (which weigh 1). */
  weight: number
  /** Whether its words count as matched query words (the question leans on this context). */
  counts?: boolean
}

/**
 * An age ("a 7-year-old", "my 15 year old", "two months old") names a person, a kid or an adult, not a year or
 * something old: read as words, "year" and "old" matched "1 year" of audit-log retention and "the old key expires".
 */
const AGE = /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[- ](year|month|week|day)s?[- ]olds?\b/gi
const ADULT = 18
const personOfAge = (_: string, count: string, unit: string) =>
  unit.toLowerCase() === 'year' && Number(count) >= ADULT ? ' adult ' : ' kid '

/**
 * Reads a question into words: stop words out, phrases with synonyms kept together ("turn off" also searches
 * "disable"), every word with its synonyms, at most MAX_QUERY_TERMS words. Context (the reader's page) adds words
 * the question does not already have, at their own weight.
 */
export function parseQuery(text: string, contexts: QueryContext[] = []): SearchQuery {
  const words: QueryWord[] = []
  const seen = new Set<string>()
  // A phrase of stop words only ("my own") is searched by its synonyms alone ("custom", "local").
  // A phrase's words mean little apart ("turn", "off"): its one-word synonym ("disable") is what docs say, and weighs
  // as much as a reader's own word; the phrase's words weigh as synonyms do.
  const add = (key: string, own: string[], alternatives: string[], weight: number, counts: boolean) => {
    if (seen.has(key) || words.length >= MAX_QUERY_TERMS) return
    const phrase = /[\s-]/.test(key)
    const terms = own.filter((word) => !seen.has(word)).map((word) => ({ word, weight: phrase ? SYNONYM_WEIGHT : 1 }))
    seen.add(key)
    for (const word of own) seen.add(word)
    for (const alternative of alternatives) {
      // Multi-word synonyms are for reading queries; the index is searched by single words.
      if (/[\s-]/.test(alternative) || terms.some((t) => t.word === alternative)) continue
      terms.push({ word: alternative, weight: phrase ? 1 : SYNONYM_WEIGHT })
    }
    if (terms.length > 0) words.push({ terms, weight, counts, ...(phrase ? { phrase } : {}) })
  }
  const read = (source: string, weight: number, counts: boolean) => {
    const { phrases, rest } = findPhrases(singularAcronyms(source.replace(AGE, personOfAge)))
    for (const phrase of phrases) add(phrase.found, contentWords(phrase.found), phrase.alternatives, weight, counts)
    for (const word of contentWords(rest)) add(word, [word], synonymsOf(word), weight, counts)
  }
  read(text, 1, true)
  for (const context of contexts) read(context.text, context.weight, context.counts ?? false)
  return { words }
}

/** The query's own words (not synonyms, not context), as one string: for the comparison engines and for embeddings. */
export function queryText(query: SearchQuery): string {
  return query.words
    .filter((word) => word.counts)
    .flatMap((word) => word.terms.filter((t) => t.weight === 1).map((t) => t.word))
    .join(' ')
}

/** An amount ("2", "100k", "500mb"): what is asked about is what it counts, not the number itself. */
const QUANTITY = /^\d+(?:[.,]\d+)*(?:k|m|mb|gb|kb|ms|s|x|%)?$/
/** An HTTP status ("404", "429") is a name, not an amount: "what does 429 mean?" asks about it. */
const STATUS_CODE = /^[1-5]\d\d$/

/** Amounts written as words ("merge two branches", "a few hundred pages"); "one" is a stop word already. */
const NUMBER_WORDS = new Set(
  `two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred hundreds thousand
  thousands million millions billion billions dozen dozens couple`.split(/\s+/),
)

const isAmount = (word: string) => NUMBER_WORDS.has(word) || (QUANTITY.test(word) && !STATUS_CODE.test(word))

/** A word that names no subject of its own: an everyday word (see WEAK_WORDS), or only synonyms of one. */
export function isWeak(word: QueryWord): boolean {
  return word.terms.every((term) => term.weight < 1 || WEAK_WORDS.has(term.word) || isAmount(term.word))
}

/** "in a page", "to every page", "on the docs page": where on a docs site, which every component and setting is. */
const ON_A_PAGE =
  /\b(?:in|on|into|onto|to|across|throughout)\s+(?:(?:a|an|the|my|our|your|each|every|any|all|one)\s+)?(?:(?:docs?|documentation|single|specific|given)\s+)?pages?\b/gi
/**
 * Weight of "page" when a question only says where. Measured on bench/search-quality: tuning 8 recall@5 / MRR@10 0.833 /
 * 0.739 → 0.867 / 0.772 ("put a warning box in a page" found every section that says "page" beside "warning", not the
 * callouts page, which never says "page"); every other set, Mintlify and demo, unchanged.
 */
const PLACE_WEIGHT = 0.3

/**
 * A question without the place it names on a docs site ("put a warning box in a page" → "put a warning box"), and
 * that place as light context: every page is a page, and sections that say "page" are not more about warning boxes.
 * "A markdown version of a page" keeps its word: there the page is what is asked about.
 */
export function withoutPlaceOnPage(question: string): { question: string; place: QueryContext[] } {
  const without = question.replace(ON_A_PAGE, ' ')
  if (without === question || !/\w/.test(without)) return { question, place: [] }
  return { question: without, place: [{ text: 'page', weight: PLACE_WEIGHT, counts: false }] }
}

/**
 * "Through the API", "with our own API": the API named after a word that says how. Two patterns, with a determiner and
 * without: one with both optional was too large for recheck to prove linear.
 */
const THROUGH_API = [
  /\b(?:via|through|over|with|from|using|by|in) (?:[a-z][\w-]* )?api\b/i,
  /\b(?:via|through|over|with|from|using|by|in) (?:the |an |our |your |their |its )(?:[a-z][\w-]* )?api\b/i,
]
/**
 * "with an API key", "in the API token settings" speak of credentials, not of doing something through the API: their
 * `api` is made `ap_` before THROUGH_API reads the question, so that it is still a word there but not the API. (It was
 * a lookahead, `api(?! (?:keys?|tokens?|secrets?|credentials?)\b)`, which recheck cannot prove linear.)
 */
const API_CREDENTIAL = /\b(ap)i( (?:keys?|tokens?|secrets?|credentials?)\b)/gi
const ASKS_FOR_API = [
  /\b(?:api (?:calls?|requests?|endpoints?|route)|apis? (?:to|for|that|which)|endpoints? (?:to|for|that|which)|programmatically)\b/i,
  /\b(?:from|in|with|using|via) (?:a |my |our |your )?(?:own )?(?:scripts?|backend)\b/i,
]

/**
 * Whether a question asks to do something through the API ("export feedback through the API", "an API call to
 * trigger a preview", "from a script"): the API reference's operation pages answer it (see corpus.ts).
 */
export function asksThroughApi(question: string): boolean {
  const withoutCredentials = question.replace(API_CREDENTIAL, '$1_$2')
  return THROUGH_API.some((pattern) => pattern.test(withoutCredentials)) || ASKS_FOR_API.some((pattern) => pattern.test(question))
}

/**
 * "How many people visited the docs", "what are people asking the assistant", "see what people type into the search":
 * what readers do on the docs, which a site's analytics pages report. People, readers or visitors, then a reader's
 * action. Typing into the search (and the like) was added for "see what people type into the docs search that returns
 * zero results": search analytics 2nd → 1st. Measured on bench/search-quality (Mintlify, all 853 and fresh rounds 1-14)
 * and bench/search-answers: nothing else moved, every off-topic question of both corpora unchanged.
 */
const ABOUT_READERS = [
  /\b(?:what|which|how many|how often|where|who) (?:are |do |did )?(?:people|readers|visitors) (?:\w+ )?(?:visit|read|ask|search|click|view|go|land|leave|come|look|open|download|rate|find|type|enter|query|scroll|copy|share|spend|stay|bounce|skip|submit)/i,
  /\bhow many (?:views|visits|page views|pageviews)\b/i,
]

/** Whether a question asks what readers do on the docs (see ABOUT_READERS): the analytics pages answer it. */
export function asksAboutReaders(question: string): boolean {
  return ABOUT_READERS.some((pattern) => pattern.test(question))
}

const HOST_LABEL = /^[\p{L}\p{N}-]+$/u
const TOP_LEVEL = /^[a-z]{2,}$/i
const LETTER = /^\p{L}$/u
const URL_SCHEME = /^[a-z]+:\/\//i
/** A file's extension is no top-level domain: `docs.json/navigation` names a key of a file. */
const FILE_EXTENSIONS = new Set('json md mdx yaml yml js jsx ts tsx txt html htm css png svg jpg jpeg gif ini toml lock sh py'.split(' '))

/**
 * Whether a question names a path on a host ("the docs at example.com/docs", "acme.co.uk/help"): it asks about serving
 * them at a subpath. Read word by word, not by one pattern over the question: a pattern's run of host characters before
 * a dot is retried at every start, quadratic on a long one.
 */
export function namesPathOnHost(question: string): boolean {
  return question.split(/\s+/).some((written) => {
    const word = written.replace(URL_SCHEME, '')
    const slash = word.indexOf('/')
    if (slash < 0 || !LETTER.test(word[slash + 1] ?? '')) return false
    const labels = word.slice(0, slash).split('.')
    const last = labels.at(-1)!
    return (
      labels.length >= 2 &&
      labels.every((label) => HOST_LABEL.test(label)) &&
      TOP_LEVEL.test(last) &&
      !FILE_EXTENSIONS.has(last.toLowerCase())
    )
  })
}
