import type { ChatTurn, ContextItem } from '../../shared/assistant.ts'
import type { SearchFilter } from '../../shared/search.ts'
import { searchSections } from './hybrid.ts'
import { isWeak, parseQuery, type QueryContext, type QueryWord } from './query.ts'
import { stem } from './terms.ts'
import type { Corpus, ReaderPage, SearchHit, SearchOptions } from './types.ts'

/** A reader's question where it was asked: the conversation so far, the page they are on, what they selected. */
export interface ReaderQuestion {
  turns: ChatTurn[]
  pageSize: number
  filter?: SearchFilter | null
  currentPath?: string
  context?: ContextItem[]
}

export interface QuestionHits {
  /** What was searched: the question, made standalone with the earlier questions in front when it is a follow-up. */
  query: string
  /** What the question leans on for what it does not say. */
  leansOn?: 'page' | 'thread' | 'selection'
  /** The page the reader is on, if known. */
  page?: ReaderPage
  hits: SearchHit[]
}

/** Content words of a question that stands on its own. */
const ENOUGH_WORDS = 4
const MAX_QUERY = 500
/** How much of a shared selection joins the query: enough to name the topic, not enough to drown the question. */
const SELECTION_CHARS = 300
/** The page's sections that lead the answer to a question about the page. */
const PAGE_SECTIONS = 5
/** A question this short, whose words the page holds, is taken as a question about the page. */
const SHORT_QUESTION = 3
const PAGE_COVERAGE = 2 / 3
/** Weight of the page title's words: part of a question about the page; mere context for any other. */
const PAGE_TITLE_LEANING = 0.6
const PAGE_TITLE_CONTEXT = 0.3
/** A word pointing at something (see pointsOutside) after this many words of the question's own refers back to them. */
const REFERS_BACK = 3
/** Weight of the earlier questions' words in a follow-up. */
const THREAD_TOPIC = 0.6
/** Weight of a selection's words when the question is not about it ("what does this do?" is). */
const SELECTION_CONTEXT = 0.4

/**
 * Words that point at something the question does not name: "it", "this", "they", "here", "one" standing for a noun
 * ("can one be open by default?", "can each one link somewhere?"), "my own" with nothing after it. "It" in "is it
 * possible" points at nothing.
 *
 * Several patterns, any of which may match, where there was one with lookaheads: recheck cannot prove a lookahead
 * linear, nor a pattern this long (it falls back to fuzzing, which reported it on some runs, though V8 ran the attack
 * in linear time). Only whether one matches counts, so what a lookahead required is matched instead.
 */
const POINTS_AT = [
  /\b(this|these|those|they|them|their|its|here|above|below|instead)\b|\bit\b/i,
  // "Is it the same?", "like the previous one": what it is the same as, the page says. Before a noun ("on the same
  // variation", "the previous version"), the question names what it speaks of.
  /\b(?:same|previous)\b\s*(?:[?.!,;]|$|ones?\b)/i,
  /\bthat\b\s*(?:page|one|section|[?.!,;]|$)/i,
  /\bones?\b\s*(?:[?.!,;]|$)/i,
  /\bones?\b\s+(?:be|is|are|was|can|could|should|will|would|has|have)\b/i,
  /\bones?\b\s+(?:as|at|by|in|into|inside|on|for|to|from|with|under|per|right|now|again|too|instead|first|later|automatically)\b/i,
  /\b(?:my|your|our|their)\s+own\b(?:\s*(?:[?.!,;]|$)|\s+(?:for|in|on|with|to|instead)\b)/i,
  /\b(?:each|every|which|either|neither)\s+one\b/i,
  // "Do the ones we don't use carry over?", "the one that opens first": which ones, the page says.
  /\bthe\s+ones\b/i,
  /\bthe\s+one\s+(?:that|which|who|where|we|i|you|they)\b/i,
  // "Which of the two keeps the page out of the sidebar?", "the latter": the two are what the reader is looking at.
  /\b(?:of|between)\s+the\s+(?:two|three|four|both)\b/i,
  /\b(?:former|latter)\b/i,
]
const EMPTY_IT =
  /\b(?:is|was|isn't|wasn't)\s+it\s+(?:possible|ok|okay|necessary|true|safe|required|recommended|better|worth|normal|expected)\b/gi
/**
 * Nouns that name a property of something, not a subject ("is there a size limit?", "what is the default?"), and what
 * is said of properties ("which formats are supported?", "what properties are available?"): a question made of them
 * alone asks about what the reader is looking at. Stems, as the index writes them. An ID is one too ("do I need both
 * of these ids or just one?" on the Hotjar page, whose two keys are IDs); "ids" is its own word, as the stemmer leaves
 * it. Measured (2026-12-02): fresh round 44's page-leaning 11 → 12/12 (that question, declined); every set of both benches unchanged.
 */
const PROPERTY_WORDS: ReadonlySet<string> = new Set(
  `limit size maximum max minimum min default format type option setting property prop parameter param field value
  requirement prerequisite version example length supported available allowed id ids`
    .split(/\s+/)
    .map(stem),
)

/** A follow-up that continues the last question ("and for Python?", "what about v1?"). */
const CONTINUES = /^\s*(?:and|or|but|what about|how about|so|then|why|why not|also)\b/i

/** Whether a question leans on something it does not name (the page, a selection, an earlier question). */
export function pointsAt(question: string): boolean {
  const text = question.replace(EMPTY_IT, ' ')
  return POINTS_AT.some((pattern) => pattern.test(text))
}

/**
 * Whether a question points outside itself, at the page it was asked on: a pointing word (see pointsAt) that comes
 * before the question has named REFERS_BACK words of its own. After them it refers back to them: "We connected Claude
 * to our project so it could open PRs. How do we revoke its access?" is about Claude's access, wherever it is asked;
 * "does it work with the app router?" is about the page. Measured (2026-11-30) on bench/search-quality's questions that
 * do not lean on a page, each asked on the page beside its expected one (see askedBeside): expected page in the first 3
 * sources 728 → 864/999 on Mintlify (905 asked on no page), 111 → 115/130 on the demo (126); on bench/search-answers,
 * page-leaning questions lost one of 340 ("can't I just run the mintlify scraper on it instead?"). Read at the end of
 * a question ("…while you're doing this?"), the word won back two page-leaning questions and lost 20 of the others.
 */
export function pointsOutside(question: string): boolean {
  const text = question.replace(EMPTY_IT, ' ')
  if (HERE.test(text)) return true
  const first = Math.min(...POINTS_AT.map((pattern) => pattern.exec(text)?.index ?? Number.POSITIVE_INFINITY))
  return first !== Number.POSITIVE_INFINITY && subjectsOf(text.slice(0, first)).length < REFERS_BACK
}

/**
 * "Here" points at the page wherever it stands ("which chat tools can I hook up here?", "can I upload an SVG logo from
 * here?"): unlike "it", it refers back to no word of the question. Not "here is my config" (it presents something).
 * Measured (2026-11-30): every "here" of bench/search-quality's questions is in a page-leaning one; fresh round
 * twenty-seven's "which chat tools can I hook up here?" finds its page 1st (not in the first 5); every set of both
 * benches unchanged in its counts.
 */
const HERE = /\bhere\b(?!\s*['’]s\b|\s+(?:is|are)\b)/i

/** The words of a question that say what it is about (stop words and everyday words out, a phrase counts once). */
export function subjectsOf(question: string): QueryWord[] {
  return parseQuery(question).words.filter((word) => !isWeak(word))
}

/** Whether a question's subject words (see `subjectsOf`) are only properties (see PROPERTY_WORDS), of nothing it names. */
export function namesOnlyProperties(subjects: QueryWord[]): boolean {
  return subjects.length > 0 && subjects.every(isProperty)
}

const isProperty = (word: QueryWord) => word.terms.some((term) => PROPERTY_WORDS.has(stem(term.word)))

/**
 * Whether a short question asks for a property of things the page holds: "which field does the key go under?" on the
 * page whose key it is, "what format is the api key?" on the page that sets one. Measured (2026-11-30): fresh round
 * twenty-six's page-leaning questions 11 → 12/12 (the Amplitude page 5th → 1st); bench/search-quality's questions
 * asked on the page beside their expected one kept 1019/1167 (one more read as leaning), every page-leaning and
 * in-scope set of bench/search-answers unchanged.
 */
function asksPropertyOfPage(subjects: QueryWord[], page: ReaderPage): boolean {
  const named = subjects.filter((word) => !isProperty(word))
  return (
    subjects.length <= SHORT_QUESTION &&
    named.length < subjects.length &&
    named.every((word) => page.covers(word.terms.map((term) => term.word).join(' ')) > 0)
  )
}

/**
 * The question to search with. A follow-up ("and for Python?", "how do I turn it off?") is made standalone by putting
 * the earlier questions' words in front of it, newest last, so the search sees the topic the reader means. Returns the
 * last question unchanged when it already stands on its own.
 */
export function standaloneQuestion(turns: ChatTurn[]): string {
  const questions = turns.filter((turn) => turn.role === 'user').map((turn) => turn.text.trim())
  const last = questions.at(-1) ?? ''
  const earlier = questions.slice(0, -1)
  if (earlier.length === 0 || standsAlone(last)) return last.slice(0, MAX_QUERY)
  // Earlier questions give the topic; the last one must survive any cut, so the topic is what gets trimmed.
  const room = MAX_QUERY - last.length - 1
  const topic = room > 0 ? earlier.slice(-2).join(' ').slice(-room) : ''
  return `${topic} ${last}`.trim().slice(0, MAX_QUERY)
}

/** Enough words of its own, nothing pointing back ("its" and "their" point within: "how do webhooks sign their payloads?"). */
const standsAlone = (question: string) =>
  subjectsOf(question).length >= ENOUGH_WORDS && !pointsAt(question.replace(/\b(its|their)\b/gi, ' ')) && !CONTINUES.test(question)

/**
 * Searches the docs for a reader's question, as the reader means it:
 * - after an earlier question, a follow-up that does not stand alone is searched with the earlier question in front,
 *   and the pages that answered it rank higher;
 * - on a page, a question that leans on it ("what properties does this take?", or a short one whose words the page
 *   holds: "can I use wildcards?") gets the page's best sections first, then pages elsewhere about the page's topic;
 *   any other question is searched as asked, the page's title adding a little context and its sections a little weight;
 * - a question about a selection ("what does this do?") is searched with the selection; otherwise the selection is context.
 */
export async function searchQuestion(corpus: Corpus, request: ReaderQuestion): Promise<QuestionHits> {
  const { turns, pageSize, filter } = request
  const question = (turns.findLast((turn) => turn.role === 'user')?.text ?? '').trim().slice(0, MAX_QUERY)
  const earlier = turns.filter((turn) => turn.role === 'user').length > 1
  const selection = (request.context ?? [])
    .map((item) => item.value)
    .join(' ')
    .slice(0, SELECTION_CHARS)
    .trim()
  // A context item's page counts as where the reader is when the widget did not say.
  const currentPath = request.currentPath ?? request.context?.find((item) => item.path)?.path
  const page = currentPath ? corpus.readerPage?.(currentPath) : undefined
  const base: SearchOptions = { pageSize, filter, currentPath }
  const points = pointsAt(question)

  if (earlier && !standsAlone(question)) {
    const query = standaloneQuestion(turns)
    // "How do I turn it off?" is about what the last answer was about: its pages gain. "And in Python?" names a new
    // subject in the same frame: they do not.
    const previous = standaloneQuestion(
      turns.slice(
        0,
        turns.findLastIndex((turn) => turn.role === 'user'),
      ),
    )
    const answered = points ? await searchSections(corpus, previous, { ...base, pageSize: 3 }) : []
    // The earlier question gives the topic; the follow-up's own words ("and in Python?") weigh most.
    const topic = query.slice(0, query.length - question.length)
    const context: QueryContext[] = [{ text: topic, weight: THREAD_TOPIC, counts: points || subjectsOf(question).length === 0 }]
    if (page) context.push({ text: page.title, weight: PAGE_TITLE_CONTEXT })
    if (selection) context.push({ text: selection, weight: SELECTION_CONTEXT })
    const related = [...new Set(answered.map((hit) => hit.section.path))]
    return { query, leansOn: 'thread', page, hits: await searchSections(corpus, question, { ...base, related, context }) }
  }
  if (selection && points) {
    const context: QueryContext[] = [{ text: selection, weight: 1, counts: true }]
    if (page) context.push({ text: page.title, weight: PAGE_TITLE_CONTEXT })
    return {
      query: `${question} ${selection}`,
      leansOn: 'selection',
      page,
      hits: await searchSections(corpus, question, { ...base, context }),
    }
  }
  const context: QueryContext[] = selection ? [{ text: selection, weight: SELECTION_CONTEXT }] : []
  if (!page) return { query: question, hits: await searchSections(corpus, question, { ...base, context }) }
  // Named nothing ("what do I need before I start?"), only properties ("is there a size limit?") or only what the page
  // holds: the page is the subject.
  const subjects = subjectsOf(question)
  const leans =
    pointsOutside(question) ||
    subjects.length === 0 ||
    namesOnlyProperties(subjects) ||
    asksPropertyOfPage(subjects, page) ||
    (subjects.length <= SHORT_QUESTION && page.covers(question) >= PAGE_COVERAGE)
  if (!leans) {
    context.push({ text: page.title, weight: PAGE_TITLE_CONTEXT })
    return { query: question, page, hits: await searchSections(corpus, question, { ...base, context }) }
  }
  // About the page: its best sections lead (its first ones when the question names nothing on it), then other pages
  // on the page's topic.
  const [local, elsewhere] = await Promise.all([
    searchSections(corpus, question, { pageSize: PAGE_SECTIONS, withinPage: page.path, context }),
    searchSections(corpus, question, {
      ...base,
      context: [...context, { text: page.title, weight: PAGE_TITLE_LEANING, counts: true }],
    }),
  ])
  const lead = local.length > 0 ? local : page.sections.slice(0, 2).map((section) => ({ section, score: 1 }))
  const hits = [...lead, ...elsewhere.filter((hit) => hit.section.path !== page.path)].slice(0, Math.max(pageSize, lead.length))
  return { query: question, leansOn: 'page', page, hits }
}
