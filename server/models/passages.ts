/** Splits a source's markdown into the smallest units an extractive answer can quote: sentences, list items, code. */
import { closesFence, openingFence } from '../search/code-fences.ts'

export interface Passage {
  sourceId: number
  /** Position within its source, to keep quoted passages in reading order. */
  index: number
  kind: 'text' | 'item' | 'code'
  text: string
  /** The heading of the part of the source it is under, if any. */
  heading?: string
  /** For a sentence, which paragraph of its source it belongs to (a number shared by the paragraph's sentences). */
  paragraph?: number
  /** The question it answers, which it opens with (an FAQ entry's: "Can I use my own domain? Yes, …"). */
  answers?: string
  /** The label it opens with (a step's or a card's title, a field's name and type: "proxy boolean"), which names it. */
  label?: string
}

const MAX_CODE_LINES = 12
/** A paragraph this short with no end punctuation is a label (a step's or a card's title), not a sentence. */
const MAX_LABEL_WORDS = 8
/** A question this short, alone in its paragraph, is an FAQ entry's question: what follows answers it. */
const MAX_QUESTION_WORDS = 20

export function splitPassages(sourceId: number, markdown: string): Passage[] {
  const passages: Passage[] = []
  let heading: string | undefined
  // A label waits for the passage it names: "Create a flag" + "Click New flag." reads "Create a flag: Click New flag."
  // A question does too ("Can I use my own domain? Yes, …"): quoted alone, it would repeat the reader's question.
  // `entry`: an FAQ entry's question or a problem's title, which what follows answers (kept when nothing follows).
  let label: { text: string; entry: boolean } | undefined
  let paragraphs = 0
  // A label nothing follows is dropped, an entry is not: it is still what the docs ask or say there.
  const settle = () => {
    const entry = label?.entry ? label.text : undefined
    label = undefined
    if (entry) push('text', entry, paragraphs++)
  }
  const push = (kind: Passage['kind'], text: string, paragraph?: number): void => {
    let trimmed = text.trim()
    if (!trimmed) return
    const answers = kind !== 'code' && label?.entry ? label.text : undefined
    const named = kind !== 'code' && label && !label.entry ? label.text : undefined
    if (kind === 'code') settle()
    else if (label) trimmed = `${label.text}${label.text.endsWith('?') ? ' ' : ': '}${trimmed}`
    label = undefined
    passages.push({
      sourceId,
      index: passages.length,
      kind,
      text: trimmed,
      ...(heading ? { heading } : {}),
      ...(paragraph === undefined ? {} : { paragraph }),
      ...(answers ? { answers } : {}),
      ...(named ? { label: named } : {}),
    })
  }
  const lines = markdown.split('\n')
  let paragraph: string[] = []
  let header: string[] = []
  const flush = () => {
    const text = paragraph.join(' ').trim()
    const oneLine = paragraph.length === 1
    paragraph = []
    if (!text) return
    if (isLabel(text)) {
      label = { text: withoutEmphasis(text), entry: false }
      return
    }
    if (isQuestion(text) || (oneLine && isTitle(text))) {
      label = { text, entry: true }
      return
    }
    const paragraphId = paragraphs++
    for (const sentence of withTheirExamples(splitSentences(text))) push('text', sentence, paragraphId)
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const fence = openingFence(line)
    if (fence) {
      flush()
      const body: string[] = [line]
      while (++i < lines.length && !closesFence(lines[i]!, fence)) body.push(lines[i]!)
      body.push(fence.marker)
      if (body.length - 2 <= MAX_CODE_LINES) push('code', body.join('\n'))
      continue
    }
    const title = /^\s*#{1,6}[ \t]+(\S.*)$/.exec(line)
    if (title) {
      flush()
      settle()
      heading = withoutEmphasis(title[1]!)
      continue
    }
    if (/^\s*$/.test(line) || /^\s*<\/?[A-Za-z][^>]*>\s*$/.test(line)) {
      flush()
      continue
    }
    if (/^\s*\|/.test(line)) {
      flush()
      // The header row (the one above the `|---|` line) says nothing alone; each row is quoted with its column names.
      if (/^\s*\|[\s|:-]+\|\s*$/.test(lines[i + 1] ?? '')) header = cellsOf(line)
      else if (!/^\s*\|[\s|:-]+\|\s*$/.test(line)) push('item', tableRow(cellsOf(line), header))
      continue
    }
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      flush()
      // A list item is quoted whole: its sentences lean on each other.
      push('item', line.replace(/^\s*([-*+]|\d+[.)])\s+/, ''))
      continue
    }
    paragraph.push(line.trim())
  }
  flush()
  settle()
  return passages
}

/**
 * A label or heading as plain text: its emphasis and code marks go, an identifier's underscores stay (`context_kind`,
 * `per_page`): an underscore marks emphasis only at a word's edge.
 */
function withoutEmphasis(text: string): string {
  return text.replace(/[*`]/g, '').split(/(\s+)/).map(withoutEdgeUnderscores).join('').trim()
}

/**
 * "_Beta_:" → "Beta:", "(_note_)" → "(note)"; "per_page" as it is. Read character by character: a regex that strips a
 * run of underscores before a mark backtracks over the run from each of its characters.
 */
function withoutEdgeUnderscores(word: string): string {
  let start = 0
  while (word[start] === '(') start++
  let from = start
  while (word[from] === '_') from++
  let end = word.length
  while (end > from && ').,:;!?'.includes(word[end - 1]!)) end--
  let to = end
  while (to > from && word[to - 1] === '_') to--
  return word.slice(0, start) + word.slice(from, to) + word.slice(end)
}

/** A row's cells: split at each `|` that is not escaped (`a\|b` in a cell is the text `a|b`, as GFM reads it). */
const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||(?<!\\)\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.replaceAll('\\|', '|').trim())

/** `Action: Delete flags; Owner: ✓; Editor: —`: a row of a permission matrix means nothing without its columns. */
function tableRow(cells: string[], header: string[]): string {
  return cells
    .map((cell, i) => (header[i] ? `${header[i]}: ${cell}` : cell))
    .filter((cell) => cell.trim())
    .join('; ')
}

/** A paragraph that ends like a sentence (or a clause, or a parenthesis): not a label, not a title. */
const SENTENCE_END = /[.!?:;,)\]…]$/

function isLabel(text: string): boolean {
  return text.split(/\s+/).length <= MAX_LABEL_WORDS && !SENTENCE_END.test(text) && !/^[`[(]/.test(text)
}

/**
 * A longer line with no end punctuation, alone in its paragraph (one line, not a field's `**Type:** … **Default:** …`
 * lines): an accordion's or a card's title that states a problem ("Error: Could not load the "sharp" module using the
 * darwin-arm64 runtime", "The local preview doesn't look the same as my docs do on the web"). What follows answers it,
 * as an FAQ entry's text answers its question: quoted alone, the title only repeats what the reader asked.
 */
function isTitle(text: string): boolean {
  const words = text.split(/\s+/).length
  return words > MAX_LABEL_WORDS && words <= MAX_QUESTION_WORDS && !SENTENCE_END.test(text) && !/^[`[(*_-]/.test(text)
}

/** One question alone ("How many top-level sections should I have?"), not a paragraph that ends on one. */
function isQuestion(text: string): boolean {
  return text.endsWith('?') && text.split(/\s+/).length <= MAX_QUESTION_WORDS && !/[.!?]\s/.test(text) && !/^[`[(-]/.test(text)
}

/**
 * "Example: `/logo/light.svg`.", "Defaults to `true`." or a field's values ("One of `p`, `h2`, `h3`.", "Options: `compact`
 * or `table`.") says nothing alone: it stays with the sentence it illustrates. Values are code, so "One of the core
 * principles…" stands alone.
 */
// `(?:$|\W)` where `\b` would do: with `\b` recheck can only fuzz the pattern, and its fuzzer's verdict varies.
const LEANS_ON_PREVIOUS =
  /^(examples?:|default:|defaults to(?:$|\W)|(one of|options|(possible|allowed|valid|supported|accepted) values( are| for `[^`]*`)?|(must|can) be one of):?\s*`)/i

/**
 * Sentences that say nothing alone stay with their neighbour: an example with the sentence it illustrates, and a
 * question ("Working on your docs with an AI tool? Install the skill.") with the sentence that answers it.
 */
function withTheirExamples(sentences: string[]): string[] {
  const out: string[] = []
  for (const sentence of sentences) {
    const previous = out.at(-1)
    if (previous !== undefined && (LEANS_ON_PREVIOUS.test(sentence) || previous.endsWith('?'))) out[out.length - 1] += ` ${sentence}`
    else out.push(sentence)
  }
  return out
}

/**
 * Sentence ends: `.`, `!` or `?` followed by space and a capital, a backtick, a link or emphasis; not after a common
 * abbreviation ("e.g. Node", "vs. Go").
 */
function splitSentences(text: string): string[] {
  return text.split(/(?<!\b(?:e\.g|i\.e|etc|vs|approx|incl|cf|Dr|Mr|Mrs|Ms|No|Fig))(?<=[.!?])\s+(?=[A-Z`[*_"(])/)
}
