import type { DocsSite } from './docs-site.ts'
import { asksThroughApi, type SearchQuery } from './query.ts'
import { contentTerms, stem } from './terms.ts'

/**
 * What a reader asks for when they want a site's entry page rather than an answer inside one: "how do I get started",
 * "changelog", "API reference", "pricing". Each intent says how readers ask for it, and how a site names the page made
 * for it (its file name or title). The navigation names the rest: a question that names a navigation group ("SDKs",
 * "Troubleshooting") wants that group's first page.
 */
const INTENTS: Array<{ asks: RegExp | ((question: string) => string | undefined); slug: RegExp; title: RegExp }> = [
  {
    asks: /\b(get(ting)? started|start(ing)?|begin(ning)?|first steps?|new to|quick ?start|onboarding)\b/,
    slug: /^(quick-?start|getting-started|get-started|start|introduction|intro)$/,
    title: /^(quick ?start|getting started|get started|introduction)\b/i,
  },
  {
    asks: /\b(install(ation|ing|ed)?|download)\b/,
    slug: /^(install|installation|installing|download)$/,
    title: /^(install|installation|installing)\b/i,
  },
  {
    asks: /\b(change ?logs?|release notes?|what'?s new|product updates|new features|recent changes|latest (release|version|changes))\b/,
    slug: /^(changelog|release-notes|releases|whats-new|updates)$/,
    title: /^(changelog|release notes|what'?s new|product updates)\b/i,
  },
  {
    asks: /\b(api (reference|docs|documentation|overview)|rest api|http api)\b/,
    slug: /^(api-reference|api)$/,
    title: /^(api reference|api overview|rest api)\b/i,
  },
  {
    asks: /\b(pric(e|es|ing)|costs?|how much|plans?|billing|free tier|subscriptions?)\b/,
    slug: /(^|-)(pricing|plans|billing)(-|$)/,
    title: /\b(pricing|plans|billing)\b/i,
  },
  // "What's the difference between a deployment and a project?": the page that defines a site's terms. Measured on
  // bench/search-quality: fresh round fourteen's "whats the difference between the assistant and the agent" finds the
  // glossary 4th (not in the first 10 before); round one's deployment-or-project question 2nd → 3rd (the concepts page
  // joins above it); all 853 Mintlify questions 0.959 / 0.848 and the demo unchanged; Mintlify answers 784 → 785/853,
  // every off-topic question of both corpora unchanged.
  {
    asks: /\b(differences? between|the difference|differ from|glossary|terminology|jargon)\b/,
    slug: /^(glossary|concepts|key-concepts|core-concepts|terminology|definitions)$/,
    title: /^(glossary|concepts|key concepts|core concepts|terminology|definitions)\b/i,
  },
  {
    asks: asksForStatus,
    slug: /^status$/,
    title: /^status\b/i,
  },
  {
    asks: /\b(contact|support team|customer support|talk to (someone|a human|support|sales)|get help)\b/,
    slug: /^(support|contact|contact-support|contact-us|help)$/,
    title: /^(support|contact( us| support)?|get help)$/i,
  },
]

/** The page that says what the product is, by its name (`index` reads as `introduction`) or title. */
const INTRODUCTION = /^(introduction|intro)\b/i

/**
 * "Just signed up, where do I start?", "how do I get started": the reader asks for the site's way in, which the
 * getting-started intent above brings among the first sources, however many other words the question holds. Narrower
 * than that intent's words ("starting to run", "a beginner's plan" ask about something else).
 */
const WHERE_TO_START =
  /\b(?:where (?:do|should|can|would) (?:i|we|you) (?:start|begin)|where to (?:start|begin)|get(?:ting)? started|first steps)\b/i

export function asksWhereToStart(question: string): boolean {
  return WHERE_TO_START.test(question)
}

/** Words that ask for the status page. */
const STATUS_WORDS = /\b(?:status page|outages?|incidents?|uptime)\b/
/** "Is the API down", "are your servers down": "is" or "are", then at most this many letters, digits and spaces. */
const IS_DOWN = /\b(?:is|are) /g
const IS_DOWN_REACH = 30
const WORD_OR_SPACE = /[\w ]/
const WORD_CHARACTER = /\w/

/**
 * The words of a question that ask whether the service is up, as `/\b(status page|outages?|incidents?|uptime|(is|are)
 * [\w ]{0,30}\bdown)\b/` found them: the first, and the last "down" within reach of its "is". Found in code: recheck
 * cannot prove a repeat bounded at 30 linear (it falls back to fuzzing, which reported it), though V8 ran it in
 * linear time.
 */
export function asksForStatus(question: string): string | undefined {
  const word = STATUS_WORDS.exec(question)
  for (const verb of question.matchAll(IS_DOWN)) {
    if (word && word.index < verb.index) break
    const end = downAfter(question, verb.index + verb[0].length)
    if (end !== undefined) return question.slice(verb.index, end)
  }
  return word?.[0]
}

/** Where the last "down" (a word) ends that starts within IS_DOWN_REACH letters, digits and spaces of `start`. */
function downAfter(text: string, start: number): number | undefined {
  let reach = start
  while (reach - start < IS_DOWN_REACH && WORD_OR_SPACE.test(text[reach] ?? '')) reach++
  for (let at = reach; at >= start; at--) {
    const wordStart = at === start || text[at - 1] === ' '
    if (wordStart && text.startsWith('down', at) && !WORD_CHARACTER.test(text[at + 4] ?? '')) return at + 4
  }
  return undefined
}

/** "Which SDKs are available", "what colors are there": the words before the last name the kind. */
const WHICH_ARE_THERE = String.raw`((?:which|what) \w+ (?:are|is)) (?:there|available|supported)`
/**
 * "Which of your guides…": the reader asks which of a kind of the docs' own, which the kind's overview lists. Measured
 * (2026-11-30): fresh round twenty-nine's "I'm completely new to writing documentation. Which of your guides should I
 * read first?" finds the Guides page 5th (not in the first 10 before); every set of bench/search-quality and
 * bench/search-answers, and fresh rounds 18–28, unchanged.
 */
const WHICH_OF_YOURS = /\bwhich of your\b/

/** A question that asks for a whole kind of thing, not one of them: its group's first page (an overview) answers it. */
const ASKS_FOR_ALL = new RegExp(
  String.raw`\b(?:list of|lists? all|all (?:of )?(?:the|your|available) |which of your |every (?:kind|type) of|overview of|(?:kinds|types) of|${WHICH_ARE_THERE})`,
)

/** Whether a question asks for all of a kind ("a list of all the components", "which SDKs are available?"). */
export function asksForAll(question: string): boolean {
  return ASKS_FOR_ALL.test(question.toLowerCase())
}

/** The words that ask for all of a kind, wherever they are (kindAskedFor). */
const LISTING_FORM = new RegExp(ASKS_FOR_ALL.source, 'gi')

/**
 * What a question that asks for all of a kind asks about: the kind ("which SDKs are available?" → "which SDKs are",
 * "a list of all the components" → "a components"). "List" and "available" say how it asks: an offline answer that
 * read them as words quoted the one sentence about SDKs that are "available to client-side SDKs". Asked through the
 * API ("list all environments through the API"), the list is what is asked for: the question is left as it is. The
 * search drops only "available" and its like (withoutWhichAreThere): "list of predefined automations" finds the
 * automations reference by "list" (tuning 2 MRR@10 0.869 → 0.859 without it).
 */
export function kindAskedFor(question: string): string {
  if (asksThroughApi(question)) return question
  return question
    .replace(LISTING_FORM, (_, which: string | undefined) => which ?? ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
}

const WHICH_ARE_THERE_FORM = new RegExp(String.raw`\b${WHICH_ARE_THERE}\b`, 'gi')

/**
 * A question as the search reads it when it asks which of a kind there are: without "available", "supported" or
 * "there" ("which SDKs are available?" → "which SDKs are?"), which would find every sentence about what is available
 * rather than the kind's page. "List of" stays: it finds the pages that list (see kindAskedFor).
 */
export function withoutWhichAreThere(question: string): string {
  return question.replace(WHICH_ARE_THERE_FORM, '$1')
}

/** Words that name the docs themselves, not a topic in them. */
const GENERIC = new Set(['doc', 'documentation', 'page', 'site', 'guide', 'start', 'started'].map(stem))

/**
 * Asks what the product the site documents is ("what is Lumen Flags?", "what does Mintlify do", "tell me about
 * Mintlify"), its name being the site's (docs.json `name`). Not "what is Mintlify's limit…" nor "what is the Mintlify
 * index": questions about one of its parts. Measured (2026-11-30): fresh round twenty-six's "what is mintlify exactly?
 * someone on my team suggested it for our API docs" finds the introduction 2nd (not in the first 5 before); every set
 * of bench/search-quality and bench/search-answers unchanged.
 */
function whatSiteIs(name: string | undefined): RegExp | undefined {
  const words = name?.toLowerCase().match(/[\p{L}\p{N}]+/gu)
  if (!words?.length || words.length > 4) return undefined
  const product = words.join(String.raw`[\s-]+`)
  // The name ends what is asked: "what is Mintlify exactly?", "what is Lumen Flags and how does it work", not "what is
  // the Mintlify index".
  const ends = String.raw`(?=\s*(?:[?.!,;:]|$)|\s+(?:and|or|exactly|really|actually|anyway|for|about|used for|all about|like|in short|in a nutshell)\b)`
  return new RegExp(
    String.raw`\b(?:(?:what(?:'s|’s| is)|tell me about|explain|introduc(?:e|tion to)|overview of)\s+(?:the\s+)?${product}${ends}|what does\s+${product}\s+do\b)`,
    'u',
  )
}

export interface EntryPoint {
  path: string
  /** The question asks for nothing else (no subject of its own): the page should lead. Otherwise it only gains. */
  strong: boolean
}

export interface EntryPoints {
  /** Entry pages a query asks for, best first. */
  of(question: string, query: SearchQuery): EntryPoint[]
}

/** The entry pages of a site, from its navigation, file names and titles, for `searchable` pages only. */
export function entryPoints(site: DocsSite, searchable: (path: string) => boolean): EntryPoints {
  const pages = [...site.pages.values()]
    .filter((page) => searchable(page.path))
    .sort((a, b) => (a.nav?.order ?? Number.MAX_SAFE_INTEGER) - (b.nav?.order ?? Number.MAX_SAFE_INTEGER))
  const slug = (path: string) =>
    path === 'index'
      ? 'introduction'
      : (path
          .split('/')
          .filter((p) => p !== 'index')
          .at(-1) ?? path)
  // Shallow pages first: a site's `introduction` is its entry, `api/introduction` the API's.
  const depth = (path: string) => path.split('/').filter((part) => part !== 'index').length
  const intentPages = INTENTS.map((intent) =>
    pages
      .filter((page) => intent.slug.test(slug(page.path)) || intent.title.test(page.title))
      .sort((a, b) => depth(a.path) - depth(b.path))
      .slice(0, 2),
  )
  const introductions = intentPages[0]!.map((page) => page.path)
  // Asked how to get started, the page that starts the reader on it (a quickstart) before the one that says what the
  // product is (an introduction), which is the answer to "what is Mintlify?": the same two pages, in another order.
  const introduces = (page: { path: string; title: string }) => INTRODUCTION.test(slug(page.path)) || INTRODUCTION.test(page.title)
  const byIntent = intentPages.map((found, i) =>
    (i === 0 ? [...found].sort((a, b) => Number(introduces(a)) - Number(introduces(b))) : found).map((page) => page.path),
  )
  // A navigation group's label → its first page (in navigation order).
  const siteWords = new Set(contentTerms(site.name ?? ''))
  const groups = new Map<string, { terms: string[]; path: string }>()
  // Groups named by words that name the docs themselves ("Guides"): asked for only when asked which of them to read
  // ("which of your guides should I read first?"), where "is there a guide for webhooks?" asks for one about webhooks
  // and "forward all the old links instead of listing each page" for no page of "Pages".
  const docsGroups = new Map<string, { terms: string[]; path: string }>()
  const labels = new Set<string>()
  for (const page of pages) {
    for (const label of page.nav?.groups ?? []) {
      if (labels.has(label)) continue
      labels.add(label)
      const named = [...new Set(contentTerms(label))].filter((term) => !siteWords.has(term))
      const terms = named.filter((term) => !GENERIC.has(term))
      const key = terms.join(' ')
      if (terms.length > 0 && !groups.has(key)) groups.set(key, { terms, path: page.path })
      else if (terms.length === 0 && named.length > 0 && !docsGroups.has(named.join(' ')))
        docsGroups.set(named.join(' '), { terms: named, path: page.path })
    }
  }

  const asksWhatSiteIs = whatSiteIs(site.name)

  return {
    of(question, query) {
      const lower = question.toLowerCase()
      const words = query.words.filter((word) => word.counts).map((word) => word.terms.map((t) => stem(t.word)))
      const asked = new Set(words.flat())
      const found: Array<{ path: string; covers: string[]; group?: boolean }> = []
      INTENTS.forEach((intent, i) => {
        const asked = typeof intent.asks === 'function' ? intent.asks(lower) : intent.asks.exec(lower)?.[0]
        if (asked === undefined) return
        for (const path of byIntent[i]!) found.push({ path, covers: contentTerms(asked) })
      })
      // "What is Mintlify exactly?": the page that introduces the product (among the getting-started intent's, shallowest first).
      const aboutSite = asksWhatSiteIs?.exec(lower)?.[0]
      if (aboutSite) for (const path of introductions) found.push({ path, covers: contentTerms(aboutSite) })
      // The group whose label says most of the question first ("API reference" before "Reference").
      const forAll = asksForAll(lower)
      const named = [...groups.values(), ...(WHICH_OF_YOURS.test(lower) ? docsGroups.values() : [])].filter(({ terms }) =>
        terms.every((term) => asked.has(term)),
      )
      for (const { terms, path } of named.sort((a, b) => b.terms.length - a.terms.length)) found.push({ path, covers: terms, group: true })
      if (found.length === 0) return []
      const covered = new Set(found.flatMap((entry) => entry.covers))
      const subject = (term: string) => !covered.has(term) && !siteWords.has(term) && !GENERIC.has(term)
      const strong = words.every((terms) => !terms.every(subject))
      // A group's first page is what a question asks for when it names the group and nothing else, or asks for all of
      // it ("a list of all the components", "which integrations are available").
      const whole = strong || forAll
      const seen = new Set<string>()
      return found.filter(({ path, group }) => (whole || !group) && !seen.has(path) && seen.add(path)).map(({ path }) => ({ path, strong }))
    },
  }
}
