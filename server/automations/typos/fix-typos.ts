import { parseMarkdown } from '../../search/markdown.ts'
import { type DocsTree, isEnglish } from '../docs-tree.ts'
import { type FileEdit, groupEdits, lineColumn, type TextEdit } from '../edits.ts'
import { oneEditAway, slipCost } from './corrections.ts'
import { codeWords, type ProseWord, proseWords } from './prose-words.ts'
import type { Speller } from './speller.ts'

export interface TyposOptions {
  speller: Speller
  /** The project's own words (product names, jargon), never flagged, beside those learned from the docs. */
  terms?: Iterable<string>
  /**
   * Most words to ask Hunspell's own suggester about (for misspellings one edit does not explain, such as
   * `publically`): it takes up to a second a word. The rest are listed with no suggestion.
   */
  maxSlowSuggestions?: number
}

/** A word the dictionary does not know, at one place in the docs. */
export interface Misspelling {
  word: string
  file: string
  line: number
  column: number
  /** The word it was corrected to. */
  correction?: string
  /** For a word left alone: the closest words, best first. */
  suggestions: string[]
}

export interface TyposReport {
  /** English pages and snippets read; pages in other languages are skipped (the dictionary is English). */
  files: number
  skippedFiles: number
  /** Prose words read. */
  words: number
  /** Distinct words neither the dictionary nor the docs' own vocabulary knows. */
  unknown: number
  misspellings: Misspelling[]
  fixed: number
  listed: number
}

export interface TyposResult {
  edits: FileEdit[]
  report: TyposReport
  summary: string
}

/** A correction's verdict for one distinct (lower-case) word. */
interface Verdict {
  correction?: string
  suggestions: string[]
}

interface FileWords {
  file: string
  text: string
  words: ProseWord[]
}

const DEFAULT_SLOW_SUGGESTIONS = 20
/** Words seen this often in the docs' prose are the project's words, unless a close word is far more common there. */
const PROJECT_WORD_COUNT = 3
/** A correction's word must be this common in spoken English (SUBTLEX count), or used in the docs. */
const COMMON_WORD = 20
/** A use in the docs counts as this many in SUBTLEX: the docs' own words are what their writers meant. */
const DOCS_WEIGHT = 200
/** How far ahead of the next candidate the best must be (log likelihood: 20 times likelier). */
const CLEARLY_BEST = Math.log(20)

/**
 * Corrects the misspellings a dictionary is sure of, with no model: prose only (never code, URLs, paths, tags,
 * attributes or identifiers), the docs' own vocabulary learned first (words used in code, in `docs.json`, in
 * frontmatter keywords, names written with a capital mid-sentence, words the docs use often), and a correction
 * made only when one dictionary word is clearly best: a likely slip away (`slipCost` ≤ 1.5, ≤ 1 for short words),
 * common in English or in the docs, and far ahead of any other candidate. Everything else is listed.
 */
export function fixTypos(tree: DocsTree, options: TyposOptions): TyposResult {
  const { speller } = options
  const vocabulary = new Set<string>([...(options.terms ?? [])].map((term) => term.toLowerCase()))
  for (const word of tree.config ? (JSON.stringify(tree.config.value).match(/\p{L}{3,}/gu) ?? []) : []) vocabulary.add(word.toLowerCase())
  const files: FileWords[] = []
  let skippedFiles = 0
  const read = (file: string, text: string, frontmatter?: Parameters<typeof proseWords>[2]) => {
    const { tree: root } = parseMarkdown(text)
    codeWords(root, vocabulary)
    files.push({ file, text, words: proseWords(root, text, frontmatter) })
  }
  for (const page of tree.pages.values()) {
    if (!isEnglish(page)) {
      skippedFiles++
      continue
    }
    for (const word of [...page.meta.keywords, ...page.meta.tags]) {
      for (const part of word.match(/\p{L}{3,}/gu) ?? []) vocabulary.add(part.toLowerCase())
    }
    read(page.file, page.text, page.frontmatter)
  }
  for (const [file, text] of tree.snippets) {
    const language = file.split('/')[1]
    if (language && tree.navigation.languages.includes(language) && !/^en\b/.test(language)) skippedFiles++
    else read(file, text)
  }

  // How often the docs use each word, and which words they write with a capital mid-sentence (names).
  const counts = new Map<string, number>()
  const names = new Set<string>()
  let total = 0
  for (const { words } of files) {
    for (const { word, sentenceStart, title } of words) {
      total++
      const lower = word.toLowerCase()
      counts.set(lower, (counts.get(lower) ?? 0) + 1)
      if (!sentenceStart && !title && /^\p{Lu}/u.test(word)) names.add(lower)
    }
  }

  // null: a word that stands (known, or built from known words).
  const verdicts = new Map<string, Verdict | null>()
  let slowLeft = options.maxSlowSuggestions ?? DEFAULT_SLOW_SUGGESTIONS
  const judge = (word: string): Verdict | null => {
    const lower = word.toLowerCase()
    if (verdicts.has(lower)) return verdicts.get(lower)!
    let verdict: Verdict | null = null
    if (!isKnown(word, lower)) {
      const candidates = [...oneEditAway(lower, speller)]
      const derived = derivation(lower, speller)
      // Hunspell's own suggester only for a long lower-case word that one edit does not explain: a derived word
      // yields only to a one-edit slip, and a capitalized one with nothing close is a name.
      if (candidates.length === 0 && !derived && word === lower && lower.length >= 8 && slowLeft > 0) {
        slowLeft--
        candidates.push(...speller.suggest(lower).filter((candidate) => /^\p{Ll}+$/u.test(candidate)))
      }
      verdict = decide(lower, candidates, derived)
    }
    verdicts.set(lower, verdict)
    return verdict
  }
  const isKnown = (word: string, lower: string): boolean =>
    lower.length < 3 ||
    /\p{Ll}\p{Lu}|^\p{Lu}{2,}$|^\p{Lu}.*\p{Lu}/u.test(word) || // camelCase, ALLCAPS, GitHub: identifiers and names
    !/^[a-z']+$/.test(lower) || // other scripts and accents: not this dictionary's words
    vocabulary.has(lower) ||
    names.has(lower) ||
    speller.correct(word) ||
    speller.correct(lower)
  /**
   * How likely a candidate is what was meant, as a noisy channel reads it: how common the word is (in spoken English,
   * and far more, in these docs) against how unlikely the slip is. A slip of 0.25 more weighs as e (2.7) times rarer.
   */
  const likelihood = (candidate: string, cost: number) =>
    Math.log1p(speller.frequency(candidate) + DOCS_WEIGHT * (counts.get(candidate) ?? 0)) - 4 * cost
  /** The verdict on an unknown word, given its candidates and, if it reads as built from real words, how. */
  const decide = (lower: string, candidates: string[], derived: Derivation | undefined): Verdict | null => {
    const ranked = candidates
      .map((candidate) => {
        const cost = slipCost(lower, candidate)
        return { candidate, cost, likelihood: likelihood(candidate, cost) }
      })
      .filter((entry) => entry.cost <= 2 && !(derived && undoesDerivation(lower, entry.candidate, derived)))
      .sort((a, b) => b.likelihood - a.likelihood)
    const suggestions = ranked.slice(0, 3).map((entry) => entry.candidate)
    const [best, second] = ranked
    // A word built from real words (`unclosed`, `expirations`, `webhook`) stands unless a slip explains it better.
    if (derived && !(best && best.cost <= derived.override)) return null
    if (!best) return { suggestions }
    const often = (counts.get(lower) ?? 0) >= PROJECT_WORD_COUNT
    const sure =
      lower.length >= 4 &&
      best.cost <= maxSlip(lower.length) &&
      (speller.frequency(best.candidate) >= COMMON_WORD || (counts.get(best.candidate) ?? 0) > 0) &&
      (!second || best.likelihood - second.likelihood >= CLEARLY_BEST) &&
      (!often || (counts.get(best.candidate) ?? 0) >= 5 * (counts.get(lower) ?? 0))
    // British spellings (`colour`, `initialise`, `acknowledgement`) are a style the docs chose, not slips.
    return sure && !isSpellingVariant(lower, best.candidate)
      ? { correction: best.candidate, suggestions }
      : often
        ? { suggestions: [] }
        : { suggestions }
  }

  const report: TyposReport = { files: files.length, skippedFiles, words: total, unknown: 0, misspellings: [], fixed: 0, listed: 0 }
  const edits: Array<{ path: string; edit: TextEdit }> = []
  for (const { file, text, words } of files) {
    for (const occurrence of words) {
      const verdict = judge(occurrence.word)
      if (!verdict) continue
      // With nothing close, a word used often is the project's own, and a capitalized one a name: neither is listed.
      const lone = !verdict.correction && verdict.suggestions.length === 0
      if (lone && ((counts.get(occurrence.word.toLowerCase()) ?? 0) >= PROJECT_WORD_COUNT || /^\p{Lu}/u.test(occurrence.word))) continue
      const where = { word: occurrence.word, file, ...lineColumn(text, occurrence.start) }
      const correction = verdict.correction && matchCase(occurrence.word, verdict.correction)
      if (correction) {
        edits.push({ path: file, edit: { start: occurrence.start, end: occurrence.end, text: correction } })
        report.misspellings.push({ ...where, correction, suggestions: verdict.suggestions })
        report.fixed++
      } else {
        report.misspellings.push({ ...where, suggestions: verdict.suggestions })
        report.listed++
      }
    }
  }
  report.unknown = [...verdicts.values()].filter(Boolean).length
  return { edits: groupEdits(edits), report, summary: summarize(report) }
}

/**
 * The most a correction may cost (see slipCost): the classic slips (`recieve`, `occured`, `seperate`) in any word; a
 * letter left out or added (`enviroment`) only in words of 8 letters or more, where few dictionary words are near;
 * two such slips only from 10. Shorter jargon (`memoize`) sits one letter from a common word far too often.
 */
function maxSlip(length: number): number {
  return length >= 10 ? 1.5 : length >= 8 ? 1 : 0.75
}

const PREFIXES = ['un', 're', 'de', 'pre', 'mis', 'non', 'sub', 'over', 'under', 'co', 'multi', 'auto', 'inter', 'dis', 'post']
const SUFFIXES = ['s', 'es', 'ed', 'ing', 'er', 'ers', 'or', 'ors', 'ly', 'able', 'ability', 'ation', 'ations', 'ity']

/** How an unknown word reads as built from dictionary words: `un` + `closed`, `expiration` + `s`, `web` + `hook`. */
interface Derivation {
  prefix?: string
  /** The dictionary word an inflected word starts with (`expiration` in `expirations`). */
  stem?: string
  /** The slip cost below which a correction still wins: misspellings read as derived words too (`untill`, `happend`). */
  override: number
}

/** Two dictionary words, the shorter at least `shortest` letters: `dropdown`, `frontmatter`, `webhook`. */
function isCompound(lower: string, speller: Speller, shortest: number): boolean {
  for (let i = shortest; i <= lower.length - shortest; i++) {
    if (speller.correct(lower.slice(0, i)) && speller.correct(lower.slice(i))) return true
  }
  return false
}

/**
 * Technical prose coins words the dictionary lacks from words it has: prefixed (`unclosed`, `resync`), inflected
 * (`expirations`), compounds with a short part (`webhook`, `changelog`). Such a word stands unless a slip explains it
 * better, and the usual misspellings read as derived too: `untill` is `un` + `till`, `happend` is `hap` + `pend`. A
 * prefix, an inflection or a compound yields to a classic slip (≤ 0.5: `untill`, `occured`, `threshhold`), a compound
 * with a three-letter part to any likely one (≤ 0.75: `happend`).
 * Stems are taken as written: `completly` is not `complete` + `ly`, and `writting` is not `writ` + `ing`, since
 * dropping an `e` or doubling a consonant is the very slip to catch.
 */
function derivation(lower: string, speller: Speller): Derivation | undefined {
  for (const prefix of PREFIXES) {
    const rest = lower.slice(prefix.length)
    if (lower.startsWith(prefix) && rest.length >= 4 && (speller.correct(rest) || inflectionStem(rest, speller))) {
      return { prefix, override: 0.5 }
    }
  }
  const stem = inflectionStem(lower, speller)
  if (stem) return { stem, override: 0.5 }
  if (isCompound(lower, speller, 4)) return { override: 0.5 }
  return isCompound(lower, speller, 3) ? { override: 0.75 } : undefined
}

/**
 * The dictionary word an inflected word is built on: `expirations` on `expiration`, and, before a suffix that starts
 * with a vowel, the word whose silent `e` it dropped (`balancers` on `balance`, `templated` on `template`).
 */
function inflectionStem(lower: string, speller: Speller): string | undefined {
  for (const suffix of SUFFIXES) {
    const stem = lower.slice(0, -suffix.length)
    if (!lower.endsWith(suffix) || stem.length < 4) continue
    if (speller.correct(stem)) return stem
    if (/^[aeiou]/.test(suffix) && speller.correct(`${stem}e`)) return `${stem}e`
  }
  return undefined
}

/** Whether a candidate only takes the derivation apart: drops the inflection (`expirations` → `expiration`) or changes the prefix (`unclosed` → `enclosed`). */
function undoesDerivation(lower: string, candidate: string, derived: Derivation): boolean {
  if (derived.stem && (candidate === derived.stem || lower.startsWith(candidate))) return true
  if (derived.prefix) {
    return (
      candidate.slice(-(lower.length - derived.prefix.length)) === lower.slice(derived.prefix.length) ||
      !candidate.startsWith(derived.prefix)
    )
  }
  return false
}

/** British and American spellings of one word, which the American dictionary knows only one of. */
const VARIANTS: Array<[RegExp, string]> = [
  [/our/g, 'or'],
  [/is(e|es|ed|ing|ation|ations)$/, 'iz$1'],
  [/ement/g, 'ment'],
  [/tre(s?)$/, 'ter$1'],
  [/ogue(s?)$/, 'og$1'],
  [/ll(ed|ing|er|ers)$/, 'l$1'],
  [/ence$/, 'ense'],
]

function isSpellingVariant(written: string, correction: string): boolean {
  return VARIANTS.some(([pattern, replacement]) => written.replace(pattern, replacement) === correction)
}

/** The correction written the way the word was: `Recieve` → `Receive`; undefined for a case it cannot carry. */
function matchCase(written: string, correction: string): string | undefined {
  if (written === written.toLowerCase()) return correction
  if (written[0] === written[0]!.toUpperCase() && written.slice(1) === written.slice(1).toLowerCase()) {
    return correction[0]!.toUpperCase() + correction.slice(1)
  }
  return undefined
}

const MAX_SUMMARY_ROWS = 100

function summarize(report: TyposReport): string {
  const fixed = report.misspellings.filter((misspelling) => misspelling.correction)
  const left = report.misspellings.filter((misspelling) => !misspelling.correction)
  const lines = [
    `Spell-checked ${report.words} words in ${report.files} English files: ${fixed.length} corrected, ${left.length} left for a person.`,
  ]
  if (fixed.length) {
    lines.push('', '| File | Was | Now |', '| --- | --- | --- |')
    for (const item of fixed.slice(0, MAX_SUMMARY_ROWS)) lines.push(`| \`${item.file}:${item.line}\` | ${item.word} | ${item.correction} |`)
    if (fixed.length > MAX_SUMMARY_ROWS) lines.push('', `…and ${fixed.length - MAX_SUMMARY_ROWS} more.`)
  }
  if (left.length) {
    lines.push('', `**Not in the dictionary, left alone (${left.length}):**`, '')
    for (const item of left.slice(0, MAX_SUMMARY_ROWS)) {
      const hint = item.suggestions.length ? ` (maybe ${item.suggestions.join(', ')})` : ''
      lines.push(`- \`${item.file}:${item.line}\` ${item.word}${hint}`)
    }
    if (left.length > MAX_SUMMARY_ROWS) lines.push('', `…and ${left.length - MAX_SUMMARY_ROWS} more.`)
  }
  return lines.join('\n')
}
