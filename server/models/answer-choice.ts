/**
 * Which passages an offline answer quotes, and whether together they cover the question: the declines that decide when
 * the docs do not speak of what was asked. extractive-answer.ts scores the passages; this reads the scores.
 */
import { synonymsOf } from '../search/synonyms.ts'
import { contentTerms } from '../search/terms.ts'
import type { SourceBlock } from '../assistant/prompt-format.ts'
import { endsOnColon, introducedCode, introOf, type Scored } from './answer-layout.ts'

export const MAX_PASSAGES = 4
/** Share of the question's (weighted) words the quoted passages must contain for the docs to count as covering it. */
const MIN_COVERAGE = 0.5
/**
 * A long question (this many words of its own) tells its story ("The Warning box won't let me change its icon. I want a
 * key icon with a yellow border for API key notes."): when a passage holds three of its words, the docs speak of it,
 * and the quoted passages need cover only LONG_COVERAGE of it. Measured on bench/search-answers: Mintlify questions
 * answered and citing an expected page 434 → 436/476 at eight words (0.25 the same); 455 → 457/505 at five, both on
 * the fresh tuning 15 ("what's the difference between a deployment and a project? the dashboard says deployment
 * everywhere"); every off-topic set, and 60 fresh off-topic questions, unchanged. 0.35 → 0.3 once stories the docs are
 * not part of were declined on their own (NEVER_USED_STORY, LACKED_SHARE): the fresh round six 23 → 25/30 ("we'll all
 * be locked out if Okta has an outage"); every other set, in-scope and off-topic, unchanged, and at 0.25 the same.
 */
export const LONG_QUESTION = 5
const LONG_COVERAGE = 0.3
/**
 * The best passage of each of the first LEADING_SOURCES sources is quoted when it scores at least this share of the
 * best passage's score.
 */
const TOP_SOURCE_SHARE = 0.25
/**
 * The sources the search ranked first, each quoted when it answers at all well: an answer that quotes only one of them
 * hides the other. Measured on bench/search-answers (answered and cites an expected page, every set, Mintlify and
 * demo, off-topic declines included): 865/935 with the first source alone, 874/935 with two; every set gained or
 * held. Quoting the second's best sentence whatever it holds made 880, with sentences that answer nothing asked.
 * Three, the third's sentence holding three of the question's words (2026-11-29, 1,002 questions): 915 → 918, six sets
 * gained and three lost one; page-leaning, follow-ups, the demo and every off-topic set (1,888 questions) unchanged.
 * With two words, as the second's, 920, but with sentences such as "Rotate its logs daily" for rotating a key.
 */
const LEADING_SOURCES = 3
/**
 * A question of this many words of its own is covered only by passages that hold two of them (see choose). Measured
 * (2026-12-01) on bench/search-answers: off-topic declined +2 plain and +1 sharing a word on Mintlify, +1 and +4 on
 * the demo (asked on a page +1, +3 and +1), the fresh round 39's "Is it rude to leave a bar without closing out my
 * tab?" too; in-scope, one Mintlify question lost ("reuse the same paragraph on several pages", answered by "This is
 * the first paragraph." and a snippet's "Add the content you want to reuse."), every other set and the fresh rounds
 * 37–39 unchanged.
 */
const ALONE_WORDS = 4
/** A question with at least 3 (strong) words must have 2 of them in one quoted passage. */
const TOGETHER = 2
/**
 * The verb of what a question asks to do says how, its objects what about: the docs may say "build" where the reader
 * says "draw" ("draw a sequence diagram"). A verb the quoted passages do not hold weighs this share for coverage.
 * Measured on bench/search-answers: at this share whether held or not, the demo lost 3 of its questions. A verb the
 * docs never use at all, unless a passage speaks of the question, keeps its weight: "should I stretch before or after
 * a run?" asks to do what they never speak of. Measured (2026-12-01): fresh round 40's plain off-topic 19 → 20/20 on
 * both corpora (that question); every set of both benches unchanged.
 */
const VERB_SHARE = 0.3
/** A passage holding this many of the question's (strong) words speaks of what it asks, whatever else it names. */
const SPOKEN_OF = 3
/**
 * A passage holding this many of the question's (strong) words answers it whatever its coverage. Measured on
 * bench/search-answers: the fresh tuning 17 24 → 26/30 (two long stories, with 6 and 7 of their words in one passage);
 * every other set unchanged. No off-topic question of the benches has more than 4 in one passage; 5 did the same.
 */
const WELL_SPOKEN_OF = 6
/** This many words of its own that the docs never use make a question not spoken of one they do not cover. */
const NEVER_USED_WORDS = 2
/** This many make a question one the docs do not cover, however many of its words a passage holds (see choose). */
const NEVER_USED_STORY = 3
/** A question of this many words of its own tells a story (see choose), */
const STORY_WORDS = 6
/** and when the sources lack this share of them, the story is not one the docs are part of, */
const LACKED_SHARE = 0.4
/**
 * unless a passage holds this many different words of it. Measured (2026-11-29) over 1,650 off-topic questions (every bench and
 * fresh round, both corpora): of those this decline reaches, none has more than 4 of its words in one passage; the
 * fresh round eight's "someone hits a dead link… silently bounced to the homepage… a proper not-found page with my own
 * message" has 5 in the custom 404 page's.
 */
const STORY_SPOKEN_OF = 5

/**
 * A question of SCATTERED_WORDS or more words of its own, no passage of which holds more than TOGETHER, has its words
 * scattered over the docs unless the first source (the page the search ranked first) speaks of them: holds more than
 * SCATTERED_SHARE of them, and more than one passage must to speak of a question (SPOKEN_OF). Scattered, the quoted
 * passages must cover SCATTERED_COVERAGE of the question (see choose).
 */
const SCATTERED_WORDS = 5
const SCATTERED_SHARE = 0.5
const SCATTERED_COVERAGE = 0.7
const firstSourceSpeaksOf = (held: number, strongCount: number) => held > SCATTERED_SHARE * strongCount && held > SPOKEN_OF

export interface Word {
  stems: Set<string>
  /** The stems of the reader's phrase ("signed up", "turn off"): held only where a passage holds each of them. */
  phrase?: string[]
  weight: number
  /** For a compound with a combining prefix ("autocapture"): the prefix and the stems of its base ("capture"). */
  compound?: { prefix: string; base: Set<string> }
}

export interface Choice {
  sources: SourceBlock[]
  /** Every passage, scored (what surrounds a chosen one: the list or code it introduces). */
  scored: Scored[]
  words: Word[]
  weight: number[]
  /** In how many passages each word occurs. */
  df: number[]
  /** Which words are the question's own, not everyday ones. */
  strong: boolean[]
  /** Which words the sources hold only in code. */
  codeOnly: boolean[]
  /** Which word is the verb of what the question asks to do ("draw" in "how do I draw a diagram?"). */
  isVerb: boolean[]
  /** Stems of the words the docs never use (see `Asked.unknownWords`). */
  unknown: Set<string>
  /** The words of two-word things the question names that no passage holds together: not covered. */
  apart: Set<number>
  /** Whether the question names something the docs use but no source holds (see extractiveAnswer). */
  lacksName: boolean
  /** Whether the question was asked on a page, which counts among its words. */
  onPage: boolean
  /** Whether the question is asked of a section of the reader's page that names one of its words (see page-sections.ts). */
  pageSection?: boolean
  /** Whether it asks to do something through the API ("from a script"), which a terse operation page answers. */
  throughApi: boolean
  /** Whether it asks where to start, which the site's getting-started page answers (see asksWhereToStart). */
  whereToStart: boolean
  /** Whether what the question is about (what it asks to do something to, or what does something) is a word the docs never use (see lacksWhatAsked). */
  lacksWhatAsked: boolean
  /** Whether the question has two words of its own and the docs never use one of them (see choose). */
  halfNeverUsed: boolean
  /** Whether a thing of the reader's, or the thing the question opens on, is named in a word the docs never use (see extractiveAnswer). */
  ownThingUnknown: boolean
}

/**
 * The passages to quote from `ranked` (best first), or undefined when they miss too much of the question: the best
 * passage, those that answer as much of it, the first source's best; then whether together they cover the question.
 */
export function choose(ranked: Scored[], choice: Choice): { passages: Scored[]; best: Scored } | undefined {
  const { sources, scored, words, weight, df, strong, unknown } = choice
  // The answer opens with words, not code: code shows how, after a sentence has said what. When only code answers,
  // the sentence before it says what it is.
  const code = ranked.find((p) => p.kind === 'code')
  const intro = code && introOf(code, scored)
  // A sentence whose list or code cannot come ("Try the following:" before a block too long to quote) opens no answer.
  const best =
    ranked.find((p) => p.kind !== 'code' && !endsOnColon(p, scored, undefined)) ??
    ranked.find((p) => p.kind !== 'code') ??
    (intro && { ...intro, score: code.score, covers: code.covers, own: true })
  if (!best) return undefined
  // At most one code block: an answer made of code alone explains nothing. When the best passage introduces one
  // ("Embed YouTube videos using iframe elements:"), that is the one: without it the sentence is cut off.
  const firstCode = introducedCode(best, scored) ?? ranked.find((p) => p.kind === 'code')
  // Beside the best passage, a passage must answer as much of the question (one word less when it has three or more),
  // and say something new.
  const enough = Math.max(1, best.covers.size - 1)
  const texts = new Set<string>()
  const chosen = ranked
    .filter(
      (p) =>
        p.score >= best.score * 0.5 &&
        (p.kind !== 'code' || p === firstCode) &&
        (p === best || p.covers.size >= enough) &&
        (p === best || !endsOnColon(p, scored, firstCode)) &&
        !texts.has(p.text) &&
        texts.add(p.text),
    )
    .slice(0, MAX_PASSAGES)
  if (!chosen.includes(best)) chosen.unshift(best)
  const strongCount = strong.filter(Boolean).length
  /** How many of the question's own words a passage holds. */
  const strongHeld = (p: Scored) => [...p.covers].filter((w) => strong[w]).length
  // The search put the first sources first: the best sentence of each is quoted too, when it answers at all well (the
  // first's even beside another of its passages), in place of the last passage chosen for its words alone.
  const leading = new Set<Scored>()
  sources.slice(0, LEADING_SOURCES).forEach((source, rank) => {
    const top = ranked.find((p) => p.sourceId === source.id && p.kind !== 'code' && !endsOnColon(p, scored, firstCode))
    if (!top) return
    const quoted = rank === 0 ? chosen.includes(top) : chosen.some((p) => p.sourceId === source.id)
    if (quoted || top.score < best.score * TOP_SOURCE_SHARE) return
    // Below the first, a source's sentence must hold two of the question's own words (its one, if it has one), the
    // third's three: "A percentage rollout serves variations to a share of your contexts" does not answer how many
    // attributes a context can have.
    if (rank > 0 && strongHeld(top) < Math.min(rank + 1, strongCount)) return
    if (chosen.length < MAX_PASSAGES) chosen.push(top)
    else
      chosen.splice(
        chosen.findLastIndex((p) => p !== best && !leading.has(p)),
        1,
        top,
      )
    leading.add(top)
  })

  // A question of several words is answered by a passage that holds two of them, not by words scattered over pages.
  const together = Math.max(...chosen.map(strongHeld))
  // A word the docs use, but no source holds, gets the largest weight rarity gives, yet often says the least ("add a
  // tooltip to a word", "tips for writing prompts"): for coverage it counts as much as the most telling word the sources
  // hold. A word the docs never use keeps its weight: the question is about something else ("renew my passport"),
  // unless one passage holds three of the question's other words: then the docs speak of what was asked, and the word
  // they lack is a detail of it ("rotate an sdk key without downtime"). Who does it (see PEOPLE) is not one of the
  // three: "Tabs create a navigation bar that lets users switch" does not speak of splitting a bar tab when some people
  // only had water. Measured on bench/search-answers: every set, Mintlify and demo, unchanged; 30 fresh off-topic
  // questions that share a word with the docs (round five) declined 28 → 29/30 on Mintlify.
  const togetherOfThings = Math.max(...chosen.map((p) => [...p.covers].filter((w) => strong[w] && !among(words[w]!, PEOPLE)).length))
  const spokenOf = togetherOfThings >= SPOKEN_OF
  // A word the sources hold only in code (`cat` among `ls`, `cat`, `grep`; `"dog"` in a type) names a command or a
  // value there, whatever the reader meant by it ("a good name for a cat"): it counts as a word they never use, with
  // the same exception ("what regex flavor do targeting rules use" beside `matches regex` in the targeting rules).
  const inWords = (w: number) => spokenOf || !choice.codeOnly[w]
  // Of a question of ALONE_WORDS or more words of its own, a passage that holds only one of them is about something
  // else ("Leave unset to use the default", "To close the panel, click X" for leaving a bar without closing a tab): it
  // is quoted, but covers none of them. Asked on a page, the page is their other word.
  const alone = (p: Scored) => !choice.onPage && strongCount >= ALONE_WORDS && strongHeld(p) < 2
  const covered = new Set(
    chosen.flatMap((p) => {
      const coversOwnWords = !alone(p)
      return [...p.covers].filter((w) => inWords(w) && (spokenOf || !choice.apart.has(w)) && (!strong[w] || coversOwnWords))
    }),
  )
  // Spoken of, a word no source holds is more often a word of the reader's story ("the dashboard says deployment
  // everywhere") than what is asked: it counts as much as the middle one of the words they hold. Measured on
  // bench/search-answers: Mintlify questions 457 → 458/505; the median over every question lost a plain off-topic
  // one ("how many hours of sleep does a 15 year old need?").
  const heldWeights = weight.filter((_, w) => df[w]! > 0).sort((a, b) => a - b)
  const lackedCap = (spokenOf ? heldWeights[Math.floor(heldWeights.length / 2)] : heldWeights.at(-1)) ?? 0
  const neverUsed = (w: number) => words[w]!.weight * Math.log(1 + scored.length)
  const coverWeight = weight.map((weight, w) => {
    if (!inWords(w)) return neverUsed(w)
    const lacked = df[w] === 0 && lackedCap > 0 && (spokenOf || !among(words[w]!, unknown))
    const held = lacked ? Math.min(weight, lackedCap) : weight
    const verbNeverUsed = df[w] === 0 && !spokenOf && among(words[w]!, unknown)
    return choice.isVerb[w] && !covered.has(w) && !verbNeverUsed ? held * VERB_SHARE : held
  })
  const total = coverWeight.reduce((sum, w) => sum + w, 0)
  const found = coverWeight.reduce((sum, w, i) => sum + (covered.has(i) ? w : 0), 0)
  const long = strongCount >= LONG_QUESTION && spokenOf
  if (choice.lacksName && !long) return undefined
  // Asked to do something to a thing the docs never name ("redirect a downspout away from the foundation"), the docs do
  // not cover it, whatever the verb matches, unless a passage speaks of the question (as above). Measured on
  // bench/search-answers: off-topic questions that share a word with the docs declined 163 → 164/170 (Mintlify); every
  // in-scope set, Mintlify and demo, unchanged once a misspelt object ("verify the webhok signature") is told apart.
  // So when asked what such a thing does ("when do airbags deploy in a low-speed crash?"): 194 → 195/200, in-scope
  // unchanged.
  if (choice.lacksWhatAsked && !spokenOf) return undefined
  // Two words the docs never use, and no passage that holds three of the question's words: it is about something else,
  // whatever its everyday words match ("help my 9 year old with long division without us both ending up in tears"
  // quoted a year of audit log retention, an old key and a trial that ends). Measured on bench/search-answers: every
  // in-scope set, Mintlify and demo, unchanged; 30 fresh off-topic questions declined 59 → 60/60 over both corpora.
  const neverUsedWords = words.filter((word, w) => strong[w] && among(word, unknown)).length
  if (!spokenOf && neverUsedWords >= NEVER_USED_WORDS) return undefined
  // Two words of its own, one the docs never use: the other alone ("renew") does not make the question theirs ("how long
  // does it take to renew a US passport" quoted certificates that renew). Asked on a page, the page is a third word.
  // Measured (2026-12-02) on bench/search-answers: Mintlify off-topic declined 846 -> 847/854 (that question); every
  // in-scope set of both corpora unchanged. A misspelling of a word the sources hold is that word.
  if (choice.halfNeverUsed && !choice.onPage) return undefined
  // Three such words tell a story the docs are not part of ("Our dog slipped her collar at the park… how do we organize
  // a search team?", "car key fob stopped working after battery change"), though a passage holds three of its words,
  // unless one holds WELL_SPOKEN_OF. Measured on bench/search-answers and 50 fresh off-topic questions (2026-11-29):
  // off-topic declined +5 (of 6 answered); every in-scope set, Mintlify and demo, unchanged (the one answered question
  // with three, a long story about an automation's run history, has eight of its words in one passage).
  if (neverUsedWords >= NEVER_USED_STORY && together < WELL_SPOKEN_OF) return undefined
  // A story of STORY_WORDS or more whose words the sources mostly lack ("I've written a children's picture book and my
  // kids love it. How do I publish it without an agent?") is not one the docs are part of, whatever four of its words
  // match. Measured on bench/search-answers: off-topic questions that share a word with the docs declined 193 → 194/200
  // (Mintlify), fresh round five 29 → 30/30; every in-scope set, Mintlify and demo, unchanged. Of the in-scope questions
  // answered with fewer than WELL_SPOKEN_OF words in one passage, none lacks more than a third of its words.
  // A thing of the reader's the docs never name ("my neighbor's tree branch", "toilet keeps running") makes the question
  // theirs, not the docs', unless one passage speaks of STORY_SPOKEN_OF of its words: then the word the docs lack is a
  // detail ("if we delete our deployment partway through the billing cycle, do we get anything back for the unused
  // time?" read "partway" as a thing of the reader's; a list of such adverbs missed the next one). Measured on
  // bench/search-answers (2026-11-30): Mintlify questions 1165 → 1166/1267, every other set (off-topic, on a page too)
  // unchanged; the 1,200 off-topic questions of fresh rounds 18–29 over both corpora unchanged.
  if (choice.ownThingUnknown && togetherDistinct(chosen, choice) < STORY_SPOKEN_OF) return undefined
  const lacked = strong.filter((isStrong, w) => isStrong && df[w] === 0).length
  if (strongCount >= STORY_WORDS && lacked >= LACKED_SHARE * strongCount && togetherDistinct(chosen, choice) < STORY_SPOKEN_OF) {
    return undefined
  }
  // A question of two words of its own asks about what they say together, which one page must hold: "clean a keyboard"
  // is not answered by keyboard navigation on one page and "clean them up" on another (a word no source holds is
  // weighed as above). Who does it ("can readers zoom in?") does not count: docs seldom name their readers. Asked on
  // a page, the page is the other word. Measured on bench/search-answers: off-topic questions that share a word with
  // the docs declined 114 → 116/120 (Mintlify) and 119 → 120/120 (demo); every in-scope set unchanged. Within one
  // passage instead of one page lost 15 in-scope answers.
  const asked = strong.flatMap((isStrong, w) => (isStrong && !among(words[w]!, PEOPLE) ? [w] : []))
  if (
    !choice.onPage &&
    strongCount === 2 &&
    asked.length === 2 &&
    asked.every((w) => scored.some((p) => p.covers.has(w))) &&
    !sources.some((source) => asked.every((w) => coveredBySource(scored, source.id, w)))
  ) {
    return undefined
  }
  // A passage that holds WELL_SPOKEN_OF of the question's own words speaks of it, however many words of the reader's
  // story ("Our data team wants docs analytics flowing into our warehouse… the bucket is still empty a day later") the
  // docs lack.
  // Asked on a page with a section on one of its words ("when would I want to turn the proxy off here?"), the
  // question is about that section, however few of the reader's other words ("turn", "want") it holds.
  if (!choice.pageSection && found / total < (long ? LONG_COVERAGE : MIN_COVERAGE) && together < WELL_SPOKEN_OF) return undefined
  if (!choice.pageSection && strongCount >= 3 && together < TOGETHER) return undefined
  // Five or more words of the question's own, scattered over the docs (no passage holds more than two of them, nor
  // the first source more than half or three), are not spoken of together ("what table size fits six people comfortably" found a list
  // table, users' properties and "navigation fits properly"): the quoted passages must cover more of the question.
  // Asked on a page, the page is what they have in common; asked through the API, an operation page, which says little
  // more than its title and endpoint ("retrieve the raw content of a page from a script"). Measured (2026-11-29) on bench/search-answers: off-topic
  // sharing a word declined 282 → 286/290 (Mintlify), 288 → 290/290 (demo); over 1,650 off-topic questions (every
  // bench and fresh round) 805 → 814/824 (Mintlify), 818 → 822/826 (demo); every in-scope set, Mintlify and demo,
  // page-leaning and fresh rounds 3-8, unchanged.
  if (
    !choice.onPage &&
    !choice.throughApi &&
    !choice.whereToStart &&
    strongCount >= SCATTERED_WORDS &&
    together <= TOGETHER &&
    found / total < SCATTERED_COVERAGE &&
    !firstSourceSpeaksOf(
      strong.filter((isStrong, w) => isStrong && sources[0] && coveredBySource(scored, sources[0].id, w)).length,
      strongCount,
    )
  ) {
    return undefined
  }
  return { passages: chosen, best }
}

/**
 * The most different words of the question's own one chosen passage holds: a word said twice ("a picture book… picture
 * books") is one. (Elsewhere it counts twice, as measured: once, two in-scope questions of the fresh rounds were lost.)
 */
function togetherDistinct(chosen: Scored[], { words, strong }: Choice): number {
  const counts = chosen.map((p) => new Set([...p.covers].filter((w) => strong[w]).map((w) => [...words[w]!.stems].sort().join(' '))).size)
  return Math.max(0, ...counts)
}

/** Whether a passage of source `sourceId` covers word `w` (in its text, heading or title). */
const coveredBySource = (scored: Scored[], sourceId: number, w: number) => scored.some((p) => p.sourceId === sourceId && p.covers.has(w))

/** Who does something (people and its synonyms: readers, users, visitors): docs are written for them, and seldom say it. */
const PEOPLE = new Set(['people', ...synonymsOf('people')].flatMap(contentTerms))

/** Whether any of the forms a word may be written as is among `stems`. */
export const among = (word: Word, stems: Set<string>) =>
  [...word.stems].some((s) => stems.has(s)) || (word.phrase?.every((s) => stems.has(s)) ?? false)
