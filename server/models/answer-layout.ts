// How the passages an extractive answer chose are laid out: the best first with what it introduces (the list after
// "Enter one of these:", the code after "Run:"), then the rest by source in reading order, each run cited `[n]`.
import type { Passage } from './passages.ts'
import { visibleText } from './markdown-links.ts'
import { withoutCodeSpans } from './question-words.ts'

/** List items a sentence ending in ":" brings along ("Enter one of these:" then the list). */
const MAX_INTRODUCED_ITEMS = 5

export interface Scored extends Passage {
  score: number
  /** Indexes of the question's words the passage (or its heading) holds. */
  covers: Set<number>
  /** Whether the passage's text or its section's heading holds a word of the question (not only the page title). */
  own: boolean
  /** Other sources the passage links to: it points the reader there ("Embed the assistant with the [API](/api/…)"). */
  refers?: number[]
}

/**
 * The best passage first, with the list or code it introduces; then the other chosen passages, those of the best
 * one's source first, each source's in reading order. One paragraph per run of neighbouring passages, cited `[n]`.
 */
export function render(chosen: Scored[], all: Scored[] = chosen, best: Scored = chosen[0]!): string {
  const rest = chosen
    .filter((p) => p !== best)
    .sort(
      (a, b) => Number(b.sourceId === best.sourceId) - Number(a.sourceId === best.sourceId) || a.sourceId - b.sourceId || a.index - b.index,
    )
  const quoted = new Set<Scored>()
  const paragraphs: string[] = []
  // The sources the last paragraph cites: its passages' own, then those they link to.
  let cited: number[] = []
  const citations = (ids: number[]) => ids.map((id) => `[${id}]`).join('')
  let previous: Scored | undefined
  const quote = (p: Scored) => {
    if (quoted.has(p)) return
    // Code quoted without the sentence that introduces it would be nobody's: that sentence comes along, and cites it.
    // So do the sentences a sentence refers back to (see antecedentsOf).
    const before = p.kind === 'code' ? [introOf(p, all)].filter((q) => q !== undefined) : antecedentsOf(p, all)
    // A field's sentences are one item: its name and type, then what it says.
    const fields = (p === best ? fieldsAfter(p, all) : []).filter((field) => !field.some((q) => quoted.has(q)))
    for (const q of fields.flat()) quoted.add(q)
    const items = fields.map((field): Scored => ({ ...field[0]!, kind: 'item', text: field.map((q) => q.text).join(' ') }))
    const goesOn = p === best ? sentencesAfter(p, all) : []
    const run = [...before, p, ...goesOn, ...introduced(goesOn.at(-1) ?? p, all, chosen), ...items].filter((q) => !quoted.has(q))
    for (const q of run) quoted.add(q)
    const code = run.filter((q) => q.kind === 'code').map((q) => q.text)
    const said = run.filter((q) => q.kind !== 'code')
    if (said.length > 0) {
      // Sentences of one paragraph (one and those it refers back to) read on; a list's items each start a line.
      const text = said
        .map(
          (q, i) =>
            (i === 0 ? '' : q.kind === 'text' && said[i - 1]!.kind === 'text' ? ' ' : '\n') + (q.kind === 'item' ? `- ${q.text}` : q.text),
        )
        .join('')
      const last = paragraphs.at(-1)
      const runCites = [p.sourceId, ...run.flatMap((q) => q.refers ?? [])]
      // A sentence right after the one before (same source, next passage) continues its paragraph.
      const continues =
        last !== undefined &&
        p.kind === 'text' &&
        previous?.kind === 'text' &&
        previous.sourceId === p.sourceId &&
        previous.index + 1 === p.index
      if (continues) {
        const before = last.slice(0, last.length - citations(cited).length - 1)
        cited = [...new Set([...cited, ...runCites])]
        paragraphs[paragraphs.length - 1] = `${before} ${text} ${citations(cited)}`
      } else {
        cited = [...new Set(runCites)]
        paragraphs.push(`${text} ${citations(cited)}`)
      }
    }
    paragraphs.push(...code)
    previous = run.at(-1)
  }
  quote(best)
  for (const p of rest) quote(p)
  return paragraphs.join('\n\n')
}

/**
 * A sentence that speaks of what the one before it said: it opens on it ("This limit does not apply…", "It waits at
 * most 2 s") or names it so ("As a file approaches this limit, …"). Not the page itself ("this page explains…").
 */
const REFERS_BACK =
  /^(?:this|that|these|those|it|they|such)\b|\b(?:this|these|those|such) (?!(?:page|pages|guide|guides|section|sections|tutorial|article|doc|docs|documentation|example|is|are|was|to|in|on|for|with|by|from|of|and|or)\b)[a-z]/i
/** Most sentences before one that refers back are quoted with it (the one it names may refer back too). */
const MAX_ANTECEDENTS = 2

/**
 * The sentences of its paragraph that a sentence referring back needs before it: "This limit does not apply to
 * `llms-full.txt`." alone names no limit, where the sentence before it does ("… files cannot exceed 100,000
 * characters."). The first sentence of a paragraph ("This page explains…") refers to no sentence. Measured on
 * bench/search-answers (2026-11-30): answers that open on such a sentence 65 → 21 over both corpora's sets; every set's
 * counts (in scope and off-topic) unchanged.
 */
function antecedentsOf(sentence: Scored, passages: Scored[]): Scored[] {
  // A later sentence of a field's (or a step's) paragraph is the field's: "`null` when there are no more results." says
  // nothing without "next_cursor string | null: Pass this as `cursor` to get the next page."
  const sameParagraph = (p: Scored) => p.sourceId === sentence.sourceId && p.paragraph === sentence.paragraph && p.index < sentence.index
  const field = sentence.paragraph === undefined ? undefined : passages.find((p) => sameParagraph(p) && p.label !== undefined)
  if (field && sentence.index - field.index <= MAX_ANTECEDENTS) {
    return passages.filter((p) => sameParagraph(p) && p.index >= field.index).sort((a, b) => a.index - b.index)
  }
  const before: Scored[] = []
  let at = sentence
  while (before.length < MAX_ANTECEDENTS && at.kind === 'text' && at.paragraph !== undefined && REFERS_BACK.test(visibleText(at.text))) {
    const previous = passageAt(passages, at.sourceId, at.index - 1)
    if (previous?.kind !== 'text' || previous.paragraph !== at.paragraph) break
    before.unshift(previous)
    at = previous
  }
  return before
}

/**
 * The sentence right before a code block, in its source: what introduces it. Code blocks side by side (a code group's
 * languages) share the sentence before the first.
 */
export function introOf(code: Passage, passages: Scored[]): Scored | undefined {
  for (let index = code.index - 1; index >= 0; index--) {
    const before = passageAt(passages, code.sourceId, index)
    if (before?.kind !== 'code') return before
  }
  return undefined
}

/**
 * Whether a passage quoted would end on its colon: it introduces what follows (ends in ":" or names "the following"), and
 * what it introduces will not come along (a code block too long to quote, or another than the one code block an answer
 * quotes, or nothing at all).
 */
export function endsOnColon(p: Passage, all: Scored[], quotedCode: Scored | undefined): boolean {
  if (!introducesNext(p)) return false
  const next = nextPassage(p, all)
  if (next?.kind === 'item') return false
  return next?.kind !== 'code' || (quotedCode !== undefined && next !== quotedCode)
}

/** The code block a passage introduces (see introducesNext), if it introduces one. */
export function introducedCode(p: Passage, all: Scored[]): Scored | undefined {
  const next = introducesNext(p) ? nextPassage(p, all) : undefined
  return next?.kind === 'code' ? next : undefined
}

/**
 * Whether a passage introduces what comes after it: it ends in ":", or names it "the following" ("Add the following to
 * your `docs.json` file to send analytics to Hotjar."), which says nothing without the block after it.
 */
const introducesNext = (p: Passage) => p.kind !== 'code' && (p.text.trimEnd().endsWith(':') || THE_FOLLOWING.test(withoutCodeSpans(p.text)))
const THE_FOLLOWING = /\bthe following\b/i

/** The passage at `index` in source `sourceId`. */
const passageAt = (all: Scored[], sourceId: number, index: number) => all.find((q) => q.sourceId === sourceId && q.index === index)

const nextPassage = (p: Passage, all: Scored[]) => passageAt(all, p.sourceId, p.index + 1)

/** Fields a section's opening sentence brings along (see fieldsAfter). */
const MAX_LEAD_FIELDS = 3

/**
 * The fields (or steps) a section's only sentence leads into: "List endpoints use cursor-based pagination." says what,
 * its `limit` and `cursor` parameters how. Only for a sentence that opens its section, with the labelled passages right
 * after it, under the same heading.
 */
function fieldsAfter(p: Scored, all: Scored[]): Scored[][] {
  if (p.kind !== 'text' || p.heading === undefined || p.label !== undefined || introducesNext(p)) return []
  const at = (index: number) => passageAt(all, p.sourceId, index)
  if (at(p.index - 1)?.heading === p.heading) return []
  const fields: Scored[][] = []
  let index = p.index + 1
  while (fields.length < MAX_LEAD_FIELDS) {
    const field = at(index)
    if (field?.label === undefined || field.heading !== p.heading || field.kind === 'code') break
    const sentences = [field]
    for (let next = at(++index); next && next.label === undefined && next.paragraph === field.paragraph; next = at(++index))
      sentences.push(next)
    // A field that ends introducing a block ("Example:") would end on its colon: the fields stop before it.
    if (introducesNext(sentences.at(-1)!)) break
    fields.push(sentences)
  }
  return fields
}

/** Most sentences of an FAQ entry's answer quoted after its first. */
const MAX_ENTRY_SENTENCES = 2
/** The best passage this short (in words) brings the next sentence of its paragraph along. */
const SHORT_SENTENCE_WORDS = 5

/**
 * The sentences of its paragraph that the best passage goes on with. After an FAQ entry's question or a problem's
 * title, the rest of its answer, up to MAX_ENTRY_SENTENCES (and what the last introduces): "Error: Could not load the
 * "sharp" module…: This may be due to an outdated version of Node.js." says why; "Try the following:" and its steps
 * say what to do. After a short sentence, the next one.
 */
function sentencesAfter(p: Scored, all: Scored[]): Scored[] {
  if (p.kind !== 'text' || introducesNext(p)) return []
  // A sentence this short says what, rarely what to do: "This endpoint is deprecated." goes on "Use the v2 get agent
  // job endpoint instead."
  const most = p.answers !== undefined ? MAX_ENTRY_SENTENCES : visibleText(p.text).split(/\s+/).length <= SHORT_SENTENCE_WORDS ? 1 : 0
  const rest: Scored[] = []
  for (
    let next = nextPassage(p, all);
    rest.length < most && next?.kind === 'text' && next.paragraph === p.paragraph;
    next = nextPassage(next, all)
  ) {
    rest.push(next)
    if (introducesNext(next)) break
  }
  return rest
}

/** What a passage ending in ":" introduces: the list items after it, or the code block. */
function introduced(p: Scored, all: Scored[], chosen: Scored[]): Scored[] {
  if (!introducesNext(p)) return []
  const after = all.filter((q) => q.sourceId === p.sourceId && q.index > p.index)
  if (after[0]?.kind === 'code') return chosen.some((q) => q.kind === 'code' && q !== after[0]) ? [] : [after[0]]
  const items: Scored[] = []
  for (const q of after) {
    if (q.kind !== 'item' || q.index !== p.index + 1 + items.length || items.length === MAX_INTRODUCED_ITEMS) break
    // An item that introduces a block of its own ("Serves a disallow `robots.txt`:" then its code) ends the list
    // before it: quoted without its block, it would end on its colon.
    if (introducesNext(q) && nextPassage(q, all)?.kind !== 'item') break
    items.push(q)
  }
  return items
}
