import { OPERATION_NOTE } from '../search/chunk.ts'
import { asksForAll, asksWhereToStart, kindAskedFor, withoutWhichAreThere } from '../search/entry-points.ts'
import { asksThroughApi, isWeak, parseQuery } from '../search/query.ts'
import { namesOnlyProperties, pointsAt, subjectsOf } from '../search/question.ts'
import { editDistance } from '../search/edit-distance.ts'
import { compoundParts, contentTerms, contentWords, tokenize, wholeWordTerms, wordFamily } from '../search/terms.ts'
import { endsOnColon, render, type Scored } from './answer-layout.ts'
import { sourceLinks, visibleText, withoutLinkTargets } from './markdown-links.ts'
import { type Passage, splitPassages } from './passages.ts'
import { inPageSection, sectionsOn } from './page-sections.ts'
import { among, type Choice, choose, LONG_QUESTION, MAX_PASSAGES, type Word } from './answer-choice.ts'
import {
  codeIn,
  formulasIn,
  namesIn,
  nounPairs,
  objectOf,
  openingThing,
  readersThings,
  subjectOf,
  verbsOf,
  withoutCodeSpans,
} from './question-words.ts'
import { DECLINE, readOnPage, type SourceBlock } from '../assistant/prompt-format.ts'

/** A word matched only by the heading a passage is under, or by its page's title, counts this much. */
const HEADING_SHARE = 0.5
/** The page a question was asked on says what it is about, but less than the question's own words. */
const TOPIC_SHARE = 0.5
/** "See [Rollouts](/rollouts)." points at an answer rather than giving it. */
const POINTER = /^(see|read|learn more|for more|refer to|check out)\b/i
const POINTER_SHARE = 0.5
/** A passage whose first words name what was asked about gains this much. */
const LEAD_WORDS = 6
const LEAD_BONUS = 1.15
/**
 * A passage that holds a name the question asks about ("track traffic with Plausible") gains this much over passages
 * that match its other words. Measured on bench/search-answers: 1.5 cited the named page once more on the second
 * Mintlify tuning set, changing nothing else; 3 lost a question of the first.
 */
const NAME_BONUS = 1.5
/**
 * Asked on a page, a passage under a section of it whose heading (or label) holds one of the question's own words
 * ("Disconnect or revoke access" for "how do I cut off its access later?") gains this much, when the question is asked
 * of that section (see extractiveAnswer).
 */
const PAGE_SECTION_BONUS = 2
/** An API operation ("Get page content: `GET /v1/page/{domain}` (API endpoint)") answers a question asked through the API. */
const OPERATION_BONUS = 1.5
/** A question that asks for all of a kind is answered by the page about the kind. */
const LISTING_BONUS = 1.5
/**
 * A question whose words a page's title holds, all of them ("custom 404 page", "google analytics setup"), names that
 * page: its passages gain this much over those of pages that only share the words ("Custom title for the 404 page.").
 * Measured (2026-12-02) on bench/search-answers: Mintlify questions 1618 → 1619/1743 ("custom 404 page" quoted the
 * settings reference); every other set, in scope and off-topic (on a page too), both corpora, unchanged.
 */
const NAMED_PAGE_BONUS = 2
/** The fewest words a question names a page by (one word, "analytics", names many). */
const NAMED_PAGE_WORDS = 2
/**
 * "How long are entries kept?", "how many flags can a project hold?": a question that asks for an amount is answered by
 * a passage that gives one ("Team: 90 days"), which gains this much over one that only shares its words ("To keep
 * entries longer, export them").
 */
const ASKS_AMOUNT = /\bhow (?:long|many|much|often|big|large|soon|far)\b/i
/** A number in prose: not in code (`/v2/projects`), not inside a word ("v2", "GA4"). */
const AMOUNT = /\b\d/
const AMOUNT_BONUS = 1.5
/** The fewest own words a question asked on a page must have for the page to answer by holding them (see extractiveAnswer), */
const PAGE_HOLDS_WORDS = 2
/** and the share of them the page must hold. */
const PAGE_HOLDS_SHARE = 0.5
/** Most of the reader's words a decline repeats ("I found nothing about ..."). */
const DECLINE_TOPIC_WORDS = 6
/** Everyday words (see WEAK_WORDS) need not be in a passage that answers: they weigh this much. */
const WEAK_SHARE = 0.3
/** The search ranked the sources: a passage of the n-th source counts (1 + SOURCE_RANK / n) times. */
const SOURCE_RANK = 0.3
/** The stems of "question" and "ask" (see extractiveAnswer). */
const QUESTION = 'question'
const ASK = 'ask'
/** A word this long may be misspelt twice. */
const LONG_WORD = 8
/** A word this short is no misspelling of another (see lacksWhatAsked). */
const SHORT_WORD = 4

/** What the offline model is asked: the reader's last message, and the question the search used if it differs. */
export interface Asked {
  question: string
  /** A follow-up made standalone (earlier question in front), or a question about the page (`onPage`). */
  standalone?: string
  /** The docs' name: its words ("how do I start with Acme?") name no subject in Acme's docs. */
  docsName?: string
  /** Words of the question the docs never use (the retrieval says so): what the question is about, if it names one. */
  unknownWords?: string[]
}

/**
 * An answer made only of the sources' own words: the passage that answers best first, then the passages around it
 * and from other sources that share the most (rare) words with the question, each paragraph cited `[n]`. When the
 * best passages miss most of the question, it declines with DECLINE. The page a question was asked on (see `onPage`)
 * counts among its words, for less; a follow-up is asked as the search made it standalone.
 */
export function extractiveAnswer(asked: Asked | string, sources: SourceBlock[]): string {
  const request = typeof asked === 'string' ? { question: asked } : asked
  const { question, topic } = readAsked(request)
  // The product's name says nothing of a subject when the question names it whole ("with Lumen Flags"); one of its
  // words alone is an ordinary word of its docs ("temporary flags").
  // Asked for all of a kind, the kind is what is asked about ("available" in "which SDKs are available?" is how).
  const questionWords = wordsOf(kindAskedFor(question), 1)
  const product = new Set(request.docsName ? contentTerms(request.docsName) : [])
  const namesProduct = product.size > 0 && [...product].every((s) => questionWords.some((word) => word.stems.has(s)))
  // "Questions to ask", "ask questions": one thing said twice (a question is what one asks), and "ask" weighs as an
  // everyday word beside it ("what questions should i ask a landlord before signing a lease" is not spoken of by "Use
  // comments to ask questions… before you publish"). Measured (2026-12-02) on bench/search-answers: off-topic declined,
  // demo 850 -> 851/856 and Mintlify 847 -> 848/854 (on a page too); every in-scope set of both corpora unchanged.
  const asksQuestions = questionWords.some((word) => word.stems.has(QUESTION))
  const own = questionWords.map((word) =>
    (namesProduct && among(word, product)) || (asksQuestions && word.stems.has(ASK)) ? { ...word, weight: WEAK_SHARE } : word,
  )
  // A long title weighs no more than a short one: together its words count as one of the question's, halved.
  const about = topic ? wordsOf(topic, 1) : []
  const ownCount = own.length
  const passages = sources.flatMap((source) => splitPassages(source.id, source.content))
  if (passages.length === 0) return declined(sources, question)
  const titles = new Map(sources.map((source) => [source.id, new Set(contentTerms(source.title))]))
  const refersOf = referencesOf(passages, sourceLinks(sources))
  const readerPage = topic === undefined ? undefined : sources.find((source) => source.title === topic)?.id
  // Words a reader sees: a link's URL (`/guides/webhooks#verify`) is not what the sentence says.
  const stemsOf = passages.map((p) => new Set(contentTerms(visibleText(p.text))))
  // A compound the sources hold in no form but write apart ("autocapture" where they say "automatically capture": a
  // word with its prefix, then its base) is written as its base. Only apart: "preview" is not any "view".
  const held = (stems: Set<string>) => stemsOf.some((passage) => [...stems].some((s) => passage.has(s)))
  const writtenApart = ({ prefix, base }: NonNullable<Word['compound']>) =>
    passages.some((p) => {
      const tokens = tokenize(visibleText(p.text))
      return tokens.some((token, i) => token.startsWith(prefix) && contentTerms(tokens[i + 1] ?? '').some((s) => base.has(s)))
    })
  const words = [...own, ...about.map((word) => ({ ...word, weight: (word.weight * TOPIC_SHARE) / about.length }))].map((word) =>
    word.compound && !held(word.stems) && writtenApart(word.compound) ? { ...word, stems: word.compound.base } : word,
  )
  const sectionOf = passages.map((p) => new Set(contentTerms(p.heading ?? '')))
  const df = words.map((word) => stemsOf.filter((stems) => among(word, stems)).length)
  // The words the sources hold only in code, not in their sentences, headings or titles (see `choose`); a word the
  // question writes as code is not one. Only a passage with `code` in it says fewer words in prose than it holds.
  const proseOf = passages.map((p, i) =>
    p.kind === 'code'
      ? new Set<string>()
      : p.text.includes('`')
        ? new Set(contentTerms(visibleText(withoutCodeSpans(p.text))))
        : stemsOf[i]!,
  )
  const asCode = new Set(codeIn(request.question).flatMap(contentTerms))
  // So are the words they hold only inside a longer name: "book" in GitBook, "front" in CloudFront name a product, not
  // the reader's book ("publish a children's picture book without an agent" quoted GitBook's migration page). Read as
  // whole words only where the word was found, each text once: most passages do not hold it.
  const wholeWordsOf = new Map<string, Set<string>>()
  const saysWhole = (text: string, word: Word) => {
    let stems = wholeWordsOf.get(text)
    if (!stems) wholeWordsOf.set(text, (stems = new Set(wholeWordTerms(text))))
    return among(word, stems)
  }
  const codeOnly = words.map(
    (word, w) =>
      df[w]! > 0 &&
      !among(word, asCode) &&
      !passages.some(
        (p, i) =>
          (among(word, proseOf[i]!) && saysWhole(visibleText(withoutCodeSpans(p.text)), word)) ||
          (among(word, sectionOf[i]!) && saysWhole(p.heading ?? '', word)),
      ) &&
      !sources.some((source) => among(word, titles.get(source.id)!) && saysWhole(source.title, word)),
  )
  const weight = words.map((word, w) => word.weight * Math.log(1 + passages.length / (1 + df[w]!)))
  // Nothing asked but what the search already found (everyday words, the product's name that every passage holds: "how
  // do I get started with Acme?", "what is this?" on a page): the first source's opening is the answer.
  // A word they hold only in code says something: the sources hold it in no sentence.
  const informative = own.some((word, w) => word.weight === 1 && (df[w]! < passages.length / 2 || codeOnly[w]))
  // A name the question asks about ("from a Rust program", "is there a Ruby SDK?") that no source holds: whatever the
  // other words match ("call", "program"), the docs do not speak of it. Unless the question is long and the docs
  // speak of it (see choose) and they use the name elsewhere: then it is a detail of the reader's story ("When the AI
  // assistant can't answer, we want it to send people to our Zendesk help center"). Measured on bench/search-answers:
  // Mintlify questions 458 → 459/505; no off-topic set moved. A passage that holds a name gains (NAME_BONUS).
  // A name the docs never use declines a short question at once; in a long one it is as likely a detail of the story
  // ("most of our users are in Latin America"), and the same test applies. Measured on bench/search-answers: every set
  // unchanged; the fresh round six 25 → 26/30, its off-topic questions and those of rounds three to five unchanged.
  const unknown = new Set((request.unknownWords ?? []).flatMap(contentTerms))
  const names = namesIn(request.question)
  const nameWords = own.flatMap((word, w) => (among(word, names) ? [w] : []))
  const lackedNames = nameWords.filter((w) => df[w] === 0)
  // The question's own words at full weight (not the product's name, not everyday words).
  const strongOwn = own.filter((word) => word.weight === 1)
  const isLong = strongOwn.length >= LONG_QUESTION
  if (!isLong && lackedNames.some((w) => among(own[w]!, unknown))) return declined(sources, question)
  // A formula in a variable that no source writes ("help me solve 3x + 7 = 22", "the domain of f(x) = 1/(x - 3)") is
  // someone's algebra, however many of the question's words ("solve", "steps", "domain") the docs use.
  const formulas = formulasIn(request.question)
  const writes = (formula: string) => passages.some((p) => p.text.replace(/\s+/g, '').toLowerCase().includes(formula))
  if (formulas.some((formula) => !writes(formula))) return declined(sources, question)
  // The reader's own thing, or what they want something for, that the docs never name ("an email account on my
  // phone", "my neighbor's view", "an app for hiking"): the question is about it, however many of its other words
  // the docs use ("fix a broken link in my necklace chain").
  // Unless a passage speaks of most of the question (see choose).
  const readersThingUnknown = readersThings(request.question).some((stem) => unknown.has(stem))
  // So, a question that opens on a thing the docs never name and how it behaves ("toilet keeps running after I flush,
  // how do I fix it" quoted the SDK's `flush()`). Measured on bench/search-answers (2026-11-30): plain off-topic
  // declined +1 on the demo; every other set, in scope and off-topic, both corpora, unchanged. Of the 2,700 questions
  // it reads a thing in, only off-topic ones open on a thing the docs never use.
  const openedOn = openingThing(request.question)
  const ownThingUnknown = readersThingUnknown || (openedOn !== undefined && unknown.has(openedOn))
  const introduce = (sourceId: number) => {
    const all = passages.map((p, i) => ({ ...p, score: 0, covers: new Set<number>(), own: true, refers: refersOf[i] }))
    const first = opening(all, sourceId)
    // A source with nothing to quote (links only, or code) cannot introduce itself.
    return first.length > 0 ? render(first, all) : declined(sources, question)
  }
  const throughApi = asksThroughApi(question)
  const forAll = asksForAll(question)
  const asksAmount = ASKS_AMOUNT.test(request.question)
  const whichAreThere = withoutWhichAreThere(question) !== question
  const namesKind = (sourceId: number) => strongOwn.some((word) => among(word, titles.get(sourceId)!))
  // Asked for all of a kind in words every source holds, the page whose title names the kind introduces it.
  const introducing = (forAll && sources.find((source) => namesKind(source.id))) || sources[0]
  if (!informative && introducing) return ownThingUnknown ? declined(sources, question) : introduce(introducing.id)

  const namedPages = new Set(
    strongOwn.length < NAMED_PAGE_WORDS
      ? []
      : sources.flatMap((source) => (strongOwn.every((word) => among(word, titles.get(source.id)!)) ? [source.id] : [])),
  )
  const pageSections = readerPage === undefined ? new Set<string>() : sectionsOn(passages, readerPage, sources, own)
  const scored: Scored[] = passages.map((p, i) => {
    const covers = new Set<number>()
    let sum = 0
    let holds = false
    words.forEach((word, w) => {
      // Asked which of a kind there are, the kind is named in a sentence, not inside code (`sdk.example.com` is a host).
      const inText = among(word, whichAreThere && w < ownCount ? proseOf[i]! : stemsOf[i]!)
      // The heading a passage is under speaks for it ("Avoiding flicker" over "Choose one approach:"); so, less, does
      // the page's title.
      const inSection = !inText && among(word, sectionOf[i]!)
      const inTitle = !inText && !inSection && among(word, titles.get(p.sourceId)!)
      if (inText) sum += weight[w]!
      else if (inSection || inTitle) sum += HEADING_SHARE * weight[w]!
      if ((inText || inSection) && w < ownCount) holds = true
      if (inText || inSection || inTitle) covers.add(w)
    })
    // An FAQ entry's question is what its answer is about, not more to read: the answer's own length counts.
    const length = p.answers ? new Set(contentTerms(visibleText(p.text.slice(p.answers.length)))).size : stemsOf[i]!.size
    const lengthPenalty = 1 + Math.log(1 + length / 25)
    // A sentence that opens with what was asked about ("A **percentage rollout** serves…") is about it.
    const opening = new Set(contentTerms(visibleText(p.text).split(/\s+/).slice(0, LEAD_WORDS).join(' ')))
    const leads = strongOwn.filter((word) => among(word, opening)).length
    const lead = leads >= Math.min(2, strongOwn.length) && leads > 0 ? LEAD_BONUS : 1
    const pointer = isPointer(p.text) ? POINTER_SHARE : 1
    const named = nameWords.some((w) => among(words[w]!, stemsOf[i]!)) ? NAME_BONUS : 1
    const operation = throughApi && p.text.endsWith(OPERATION_NOTE) ? OPERATION_BONUS : 1
    // Asked for all of a kind, the page whose title names the kind ("SDK overview" for "which SDKs are available?")
    // lists them; a page that mentions some of them in passing does not.
    const listing = forAll && namesKind(p.sourceId) ? LISTING_BONUS : 1
    const amount = asksAmount && p.kind !== 'code' && AMOUNT.test(withoutCodeSpans(visibleText(p.text))) ? AMOUNT_BONUS : 1
    const namedPage = namedPages.has(p.sourceId) ? NAMED_PAGE_BONUS : 1
    const score =
      sum === 0
        ? 0
        : (sum / lengthPenalty) * (1 + SOURCE_RANK / p.sourceId) * pointer * lead * named * operation * listing * amount * namedPage
    return { ...p, score, covers, own: holds, refers: refersOf[i] }
  })
  // A passage must hold a word of the question itself, unless the question has none ("what is this?" on a page).
  const rank = (all: Scored[]) =>
    all.filter((p) => p.score > 0 && (p.own || ownCount === 0) && !p.text.endsWith('…')).sort((a, b) => b.score - a.score)
  const strong = words.map((word, w) => w < ownCount && word.weight === 1)
  const verbs = verbsOf(request.question)
  const isVerb = words.map((word, w) => w < ownCount && verbs.some((verb) => word.stems.has(verb)))
  // A thing the question names in two words ("a cover letter", "my bank account") is spoken of where a passage holds
  // both: sources that hold "covers" in one sentence and "letters" in another do not speak of cover letters, and for
  // coverage neither word counts (see choose: unless one passage holds three of the question's words). When the second
  // word, the kind of thing, is one the docs never use ("which analytics degree"), the first names which one of
  // something else and does not count either. Measured on bench/search-answers: off-topic questions that share a word
  // with the docs declined 75 → 77/80 (Mintlify) and 79 → 80/80 (demo); every in-scope set unchanged. So when the
  // first word is one they never use, unless it is a misspelling of one the sources hold ("the webhok signature"): a
  // washing machine is no machine of theirs, nor a sympathy card a card. Measured (2026-11-30): off-topic declined
  // on the demo, plain 406 → 407/411 (on a page too), sharing a word 748 → 749/753 (on a page 749 → 750); the
  // Mintlify sets and every in-scope set of both corpora unchanged.
  const apart = new Set<number>()
  for (const [first, second] of nounPairs(request.question)) {
    const a = own.findIndex((word) => word.stems.has(first))
    const b = own.findIndex((word) => word.stems.has(second))
    if (a < 0 || b < 0 || a === b) continue
    if (df[a] === 0 || df[b] === 0) {
      const neverUsed = (w: number) => df[w] === 0 && among(own[w]!, unknown)
      if (neverUsed(b) || (neverUsed(a) && !misspeltOfSources(first, stemsOf))) apart.add(a).add(b)
      continue
    }
    if (!scored.some((p) => p.covers.has(a) && p.covers.has(b))) apart.add(a).add(b)
  }
  const context = {
    sources,
    scored,
    words,
    weight,
    df,
    strong,
    codeOnly,
    isVerb,
    unknown,
    apart,
    lacksName: lackedNames.length > 0,
    lacksWhatAsked: lacksWhatAsked(request.question, unknown, stemsOf),
    halfNeverUsed:
      strongOwn.length === 2 &&
      strongOwn.filter((word) => among(word, unknown) && ![...word.stems].some((s) => misspeltOfSources(s, stemsOf))).length === 1,
    ownThingUnknown,
    onPage: topic !== undefined,
    throughApi,
    whereToStart: asksWhereToStart(question),
  }
  let [passagesScored, ranked, choice] = [scored, rank(scored), context as Choice]
  let chosen = choose(ranked, choice)
  // Declined on a page with a section on one of the question's words ("when would I want to turn the proxy off
  // here?"), the question is asked of that section: its passages lead, and the reader's other words need not be held
  // (see choose). Only then: a question answered already keeps its answer (first, the section's passages led every
  // answer, and three in-scope questions asked on the page beside their own were answered from the reader's page).
  // Measured on bench/search-answers (2026-11-30): Mintlify page-leaning 448 → 453/467 (rounds 15, 24, 25, 29, 31);
  // every other set, in scope and off-topic (on a page too), both corpora, unchanged.
  if (!chosen && pageSections.size > 0) {
    const section = (p: Scored) => (p.sourceId === readerPage && inPageSection(p, pageSections) ? PAGE_SECTION_BONUS : 1)
    // The same passages, the section's scored up: render and choose tell passages apart by identity, so all are copies.
    passagesScored = scored.map((p) => ({ ...p, score: p.score * section(p) }))
    ranked = rank(passagesScored)
    choice = { ...context, scored: passagesScored, pageSection: true }
    chosen = choose(ranked, choice)
  }
  if (!chosen) {
    // Asked on a page only for what it takes ("which two values does this need, and where do they go?", "what's the
    // default?") in words none of its sentences hold, the page's opening says it (the Hotjar page: "Add the following
    // to your docs.json file", and its two keys). Measured (2026-12-01) on bench/search-answers: Mintlify page-leaning
    // 485 → 486/500; every other set, in scope and off-topic (on a page too), both corpora, unchanged.
    if (readerPage !== undefined && namesOnlyProperties(subjectsOf(question))) return introduce(readerPage)
    // Asked on a page it points at ("this", "it", "these"), in words the docs all use, half or more of which the page
    // holds in its sentences or its code ("what statuses does it go through, and where do I find the PR once it's
    // made?" on a page whose `status` field "transitions through" and whose `prLink` field "contains the link"), the
    // page's passages with those words answer, however little of the reader's phrasing they share. Measured
    // (2026-12-02): with every word held, fresh round 50's page-leaning 10 → 11/12 (that question) and every set of
    // bench/search-answers unchanged; with half, Mintlify page-leaning 674 → 678/694 ("what statuses can this return…",
    // "should I still build a new integration on this one…"), every other set, in scope and off-topic (on a page too),
    // both corpora, unchanged. Without the pointing word, or with a word the docs never use, off-topic questions asked
    // on a page were answered ("what's a good beginner running plan for a first 10k" from the agent's plans).
    const ofPage = readerPage === undefined ? [] : ranked.filter((p) => p.sourceId === readerPage && [...p.covers].some((w) => strong[w]))
    const pageHolds = (word: Word) => passages.some((p, i) => p.sourceId === readerPage && among(word, stemsOf[i]!))
    const docsWords = !strongOwn.some((word) => among(word, unknown))
    if (
      ofPage.length > 0 &&
      pointsAt(question) &&
      docsWords &&
      strongOwn.length >= PAGE_HOLDS_WORDS &&
      strongOwn.filter(pageHolds).length >= PAGE_HOLDS_SHARE * strongOwn.length
    ) {
      return render(ofPage.slice(0, MAX_PASSAGES), passagesScored, ofPage[0])
    }
    return declined(sources, question)
  }
  if (readerPage === undefined) return render(chosen.passages, passagesScored, chosen.best)
  // Asked about the reader's page, the docs cover it (the choice above says so); the answer then quotes that page and
  // the passages of others that speak of its subject too: "how do I turn this on?" on "Custom 404 page" is not answered
  // by "Click Turn on automation". When none do in the question's words ("which ones are available?" on "Themes"), the
  // page introduces itself.
  // A word of the page's title that other sources' titles share ("SDK" in "Go SDK" beside "Python SDK") names their
  // kind, not this page's subject: "how do I install it?" on the Go SDK's page is not answered by Python's `pip install`.
  const others = sources.filter((source) => source.id !== readerPage)
  const distinctive = words.map((word) => !others.some((source) => among(word, titles.get(source.id)!)))
  const aboutPage = ranked.filter((p) => p.sourceId === readerPage || [...p.covers].some((w) => w >= ownCount && distinctive[w]))
  const onPage = choose(aboutPage, choice)
  return onPage ? render(onPage.passages, passagesScored, onPage.best) : introduce(readerPage)
}

/** The question, and the page it was asked on, if it leans on it. */
function readAsked({ question, standalone }: Asked): { question: string; topic?: string } {
  if (!standalone || standalone.trim() === question.trim()) return { question }
  const onPage = readOnPage(standalone)
  if (onPage.page) return { question: onPage.question, topic: onPage.page }
  // A follow-up made standalone is asked whole: "and its limit?" means the limit of what the earlier question named.
  return { question: standalone }
}

/** A source's first sentences and items (up to MAX_PASSAGES), the way it introduces itself. */
function opening(passages: Scored[], sourceId: number): Scored[] {
  const seen = new Set<string>()
  return passages
    .filter(
      (p) =>
        p.sourceId === sourceId &&
        p.kind !== 'code' &&
        !isPointer(p.text) &&
        !endsOnColon(p, passages, undefined) &&
        !seen.has(p.text) &&
        seen.add(p.text),
    )
    .slice(0, MAX_PASSAGES - 1)
}

/** "See [Rollouts](/rollouts).", or a bare link: it points at an answer rather than giving it. */
function isPointer(text: string): boolean {
  const visible = withoutLinkTargets(text, false)
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .trim()
  return POINTER.test(text) || visible.split(/\s+/).filter(Boolean).length < 3
}

/**
 * Whether what a question is about, the object of what it asks to do (see objectOf) or the subject of what it asks
 * something does (see subjectOf), is a word the docs never use and not a misspelling of one the sources hold ("webhok"
 * beside "webhook": one edit, two in a long word, none in a short one). Measured on bench/search-answers with the passive
 * subject (see subjectOf): "how often should running shoes be replaced" declined (it quoted an automation's schedule);
 * every in-scope set of both corpora and every other off-topic question unchanged.
 */
function lacksWhatAsked(question: string, unknown: Set<string>, sourceStems: Array<Set<string>>): boolean {
  const thing = objectOf(question) ?? subjectOf(question)
  return thing !== undefined && unknown.has(thing) && !misspeltOfSources(thing, sourceStems)
}

/** Whether a stem is a misspelling of one the sources hold ("webhok" beside "webhook"). */
function misspeltOfSources(stem: string, sourceStems: Array<Set<string>>): boolean {
  // A word of four letters or fewer is read as written: too many words are one letter from it ("shoe" from "show").
  const edits = stem.length >= LONG_WORD ? 2 : stem.length > SHORT_WORD ? 1 : 0
  return sourceStems.some((stems) => [...stems].some((s) => editDistance(stem, s, edits) <= edits))
}

/** A text's words with the stems they may be written as (synonyms, other forms), weak words weighing less. */
function wordsOf(text: string, share: number): Word[] {
  return parseQuery(text)
    .words.map((word) => {
      const stems = new Set<string>()
      const formsOf = (written: string, into: Set<string>) => {
        for (const s of contentTerms(written)) {
          into.add(s)
          for (const other of wordFamily(s)) into.add(other)
        }
      }
      // A phrase's own words ("signed", "up") mean little apart, and weigh less than its synonyms (see parseQuery):
      // "Signed assertions" does not speak of signing up. They are held together, where a passage holds each of them.
      const own = word.phrase ? word.terms.filter((term) => term.weight < 1) : []
      const phrase = own.flatMap((term) => contentTerms(term.word))
      for (const term of word.terms) if (!own.includes(term)) formsOf(term.word, stems)
      const parts = compoundParts(word.terms[0]!.word)
      const base = new Set<string>()
      if (parts) formsOf(parts[1], base)
      const compound = parts && base.size > 0 ? { compound: { prefix: parts[0], base } } : {}
      return { stems, ...(phrase.length > 0 ? { phrase } : {}), weight: share * (isWeak(word) ? WEAK_SHARE : 1), ...compound }
    })
    .filter((word) => word.stems.size > 0 || word.phrase !== undefined)
}

/** The decline names what was asked in the reader's own words ("set up", not the synonyms searched: "configure"). */
function declined(sources: SourceBlock[], question: string): string {
  const words = contentWords(question, DECLINE_TOPIC_WORDS)
  const topic = words.length > 0 ? ` I found nothing about "${words.join(' ')}".` : ''
  const closest = sources.slice(0, 3).map((s) => `[${s.title}](${s.url})`)
  const nearby = closest.length > 0 ? ` The closest pages are ${closest.join(', ')}.` : ''
  return `${DECLINE}${topic}${nearby} Try rephrasing the question, or ask the docs team.`
}

/**
 * For each passage, the other sources it links to: its own links, and those of a pointer (see isPointer) in its paragraph
 * ("A rule that sends visitors from an old URL to a new destination. … See [Redirects](/create/redirects).": the
 * definition is what is quoted, and the pointer names the page about it).
 */
function referencesOf(passages: Passage[], linked: (text: string, sourceId: number) => number[] | undefined): Array<number[] | undefined> {
  const own = passages.map((p) => linked(p.text, p.sourceId))
  const pointed = new Map<string, number[]>()
  passages.forEach((p, i) => {
    if (p.paragraph === undefined || !own[i] || !isPointer(p.text)) return
    const key = `${p.sourceId}:${p.paragraph}`
    pointed.set(key, [...new Set([...(pointed.get(key) ?? []), ...own[i]!])])
  })
  if (pointed.size === 0) return own
  return passages.map((p, i) => {
    const extra = p.paragraph === undefined ? undefined : pointed.get(`${p.sourceId}:${p.paragraph}`)
    return extra ? [...new Set([...(own[i] ?? []), ...extra])] : own[i]
  })
}
