import { cleanLine } from '../../analytics/normalize.ts'
import { addToNavigation, parseJson, pickGroup } from '../../models/docs-navigation.ts'
import { beforeFirst, trimStart } from '../../../shared/trim.ts'
import type { DocsTree, TreePage } from '../docs-tree.ts'
import { editBetween, type FileEdit } from '../edits.ts'
import type { ReaderFeedback, ReaderGap } from './signals.ts'

export interface ProposalResult {
  edits: FileEdit[]
  /** Markdown for the pull request; for no edits, why. */
  summary: string
  /** Questions or comments written into the docs. */
  proposed: number
}

const FAQ_NAME = /^(faq|faqs|frequently-asked-questions)$/i
const FAQ_TITLE = /\b(faq|frequently asked questions)\b/i
/** The line that marks what Docent wrote for a writer: a blockquote renders in Markdown and MDX alike. */
const FOR_A_WRITER = '> **For a writer:**'

/**
 * The page a feedback's path names (`/guides/setup.mdx#install` → `guides/setup`). Cut in code, linear, where `/#.*$/`
 * read the rest of the path from each `#` of a run (a path has no line break, so the first `#` is where both cut).
 */
const pagePath = (path: string) => trimStart(beforeFirst(path, '#'), '/').replace(/\.mdx?$/, '')

/** Most characters of a reader's question (a heading) and of a comment written into a page; longer ones end in `…`. */
export const MAX_QUESTION = 300
export const MAX_COMMENT = 500
/** Most characters of a page address or link written into a page. */
const MAX_URL = 300

/**
 * ASCII punctuation Markdown, GFM or MDX read as syntax within a line: escapes themselves, code spans, emphasis and
 * strikethrough, links, images and footnotes (`[`), HTML and JSX (`<`), expressions (`{`), character references
 * (`&`), table cells (`|`), a heading's closing `#`s and math (`$`).
 */
const INLINE_SYNTAX = /[\\`*_~[\]<>{}|&#$]/g
/** What opens a block at a line's start and is not escaped above: a list item's marker (`-`, `+`, `1.`, `1)`). */
const BLOCK_START = /^(?:[-+]|\d{1,9}[.)])/
/**
 * Where GFM makes a link of plain text (`https://…`, `www.…`, `name@host`): after the `:` of `://`, after `www`, before
 * `@`. GFM finds these in the parsed text, so no escape stops it; a word joiner (U+2060, invisible) there does.
 */
const AUTOLINK = /:(?=\/\/)|www(?=\.)|(?=@)/gi

/**
 * A reader's text (a question, a comment, anything from analytics) as inert Markdown and MDX: one line (control
 * characters and line breaks are spaces, so it cannot open a block of its own), at most `max` characters, every
 * character the page's parser would read as syntax backslash-escaped, and no address a renderer would make a link of.
 * The page shows the text as the reader wrote it, and stays valid MDX whatever they wrote: a raw `<img …>` or `{`
 * broke the page (on Mintlify, the build), and in `direct` mode on the default branch.
 */
export function inertText(text: string, max: number): string {
  return bounded(text, max)
    .replace(INLINE_SYNTAX, (char) => `\\${char}`)
    .replace(BLOCK_START, (marker) => `${marker.slice(0, -1)}\\${marker.at(-1)}`)
    .replace(AUTOLINK, (found) => `${found}\u2060`)
}

/**
 * A reader's text as an inert code span (one line, at most `max` characters): fenced by one backtick more than its
 * longest run of them, and spaced off a backtick at either end, so no backtick it holds can close the span. Nothing
 * inside a code span is syntax, to Markdown or MDX. Empty for empty text.
 */
export function inertCode(text: string, max: number): string {
  const line = bounded(text, max)
  if (!line) return ''
  const fence = '`'.repeat(Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length)) + 1)
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${line}${pad}${fence}`
}

/**
 * A link to `url` titled `title` (inert), when the URL is a site path or a web address (never `javascript:`), with
 * what would end or break its destination percent-encoded; else the title alone.
 */
function inertLink(title: string, url: string): string {
  const text = inertText(title, MAX_QUESTION)
  const target = bounded(url, MAX_URL)
  if (!/^(?:\/|https?:\/\/)/i.test(target)) return text
  return `[${text}](${target.replace(/[ ()<>[\]{}\\`"'|]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)})`
}

/** The text on one line (control characters and runs of spaces one space), cut to `max` characters with `…`. */
function bounded(text: string, max: number): string {
  // cleanLine's cut (UTF-16 units, at least max + 1 characters) bounds the array; the cut that counts is in characters.
  const chars = Array.from(cleanLine(text, 2 * max + 2))
  if (chars.length <= max) return chars.join('')
  const kept = chars.slice(0, max - 1).join('')
  return `${kept.trimEnd()}…`
}

/**
 * "Fill gaps" with no model: the questions readers asked that the docs did not answer go to the FAQ page (made and
 * listed in docs.json when there is none) as a section a writer answers before merging, each with how often it was
 * asked, where readers were, and the sections that came nearest. Questions the page already holds are left out.
 */
export function proposeGapQuestions(tree: DocsTree, gaps: readonly ReaderGap[], date: string): ProposalResult {
  const faq = findFaqPage(tree)
  const known = faq?.text.toLowerCase() ?? ''
  // A question is known by its heading as written now, or as it was written before questions were escaped.
  const fresh = gaps.filter(
    (gap) => ![questionHeading(gap.title), `### ${gap.title}`].some((heading) => known.includes(heading.toLowerCase())),
  )
  if (fresh.length === 0) {
    return {
      edits: [],
      proposed: 0,
      summary: gaps.length
        ? `Every open gap's question is already on the FAQ page (${gaps.length}).`
        : 'No reader question went unanswered since the last run.',
    }
  }
  const lines = [
    `## Questions readers asked (${date})`,
    '',
    `${FOR_A_WRITER} readers asked these questions and the docs did not answer them. Answer each here or on the page it belongs to, and delete what you do not answer, before merging.`,
    '',
  ]
  for (const gap of fresh) {
    lines.push(questionHeading(gap.title), '')
    const asked = gap.questions.reduce((sum, question) => sum + question.count, 0)
    const wordings = gap.questions
      .filter((question) => question.query !== gap.title)
      .map((question) => `“${inertText(question.query, MAX_QUESTION)}”`)
    lines.push(
      `${FOR_A_WRITER} asked ${asked} time${asked === 1 ? '' : 's'}${wordings.length ? `, also as ${wordings.slice(0, 5).join(', ')}` : ''}.`,
    )
    if (gap.pages.length)
      lines.push(
        `> Readers were on ${gap.pages
          .slice(0, 5)
          .map((page) => inertCode(page, MAX_URL))
          .join(', ')}.`,
      )
    if (gap.closest.length)
      lines.push(`> Nearest sections: ${gap.closest.map((section) => inertLink(section.title, section.url)).join(', ')}.`)
    lines.push('')
  }
  const edits = appendSection(tree, faq, lines.join('\n'))
  return {
    edits,
    proposed: fresh.length,
    summary: [
      `Proposes ${fresh.length} question${fresh.length === 1 ? '' : 's'} readers asked and the docs did not answer, on ${faq ? `\`${faq.file}\`` : 'a new FAQ page, `faq.mdx`'}, marked for a writer:`,
      '',
      ...fresh.map((gap) => `- ${inertText(gap.title, MAX_QUESTION)}`),
      '',
      '**Answer them (or delete them) before merging**: Docent has no model here, so it collects the questions and leaves the answers to you.',
    ].join('\n'),
  }
}

/**
 * "Improve from feedback" with no model: readers' comments go to the page each is about, as a section marked for a
 * writer (comments about no known page go to the FAQ page); thumbs-down without a comment are counted per page.
 */
export function proposeFeedback(tree: DocsTree, feedback: readonly ReaderFeedback[], date: string): ProposalResult {
  const faq = findFaqPage(tree)
  // Grouped by the page the section goes to: the page each item is about, else the FAQ page (or a new one).
  const targets = new Map<string, { page: TreePage | undefined; onPage: boolean; items: ReaderFeedback[] }>()
  for (const item of feedback) {
    if (item.helpful && !item.comment) continue
    const page = item.path ? tree.pages.get(pagePath(item.path)) : undefined
    const target = page ?? faq
    const key = target?.file ?? ''
    const entry = targets.get(key) ?? { page: target, onPage: Boolean(page), items: [] }
    entry.items.push(item)
    targets.set(key, entry)
  }
  if (targets.size === 0) return { edits: [], proposed: 0, summary: 'No reader left a comment or a thumbs-down since the last run.' }
  const edits: FileEdit[] = []
  const summary: string[] = []
  let proposed = 0
  for (const { page, onPage, items } of targets.values()) {
    const comments = items.filter((item) => item.comment)
    const down = items.length - comments.length
    const lines = [
      `## Reader feedback (${date})`,
      '',
      `${FOR_A_WRITER} readers left this feedback${onPage ? ' on this page' : ''}. Improve the page where it shows something unclear, wrong or missing, then delete this section before merging.`,
      '',
      ...comments.map((item) => `> - “${inertText(item.comment!, MAX_COMMENT)}”${item.helpful ? ' (found the answer helpful)' : ''}`),
      ...(down ? [`> - ${down} answer${down === 1 ? '' : 's'} rated unhelpful with no comment`] : []),
      '',
    ]
    edits.push(...appendSection(tree, page, lines.join('\n')))
    proposed += items.length
    summary.push(
      `- \`${page?.file ?? 'faq.mdx'}\`: ${comments.length} comment${comments.length === 1 ? '' : 's'}${down ? `, ${down} thumbs-down` : ''}`,
    )
  }
  return {
    edits,
    proposed,
    summary: [
      'Brings readers’ feedback to the pages it concerns, marked for a writer:',
      '',
      ...summary,
      '',
      '**Act on it (or delete it) before merging**: Docent has no model here, so it collects the feedback and leaves the edits to you.',
    ].join('\n'),
  }
}

/** A question's heading on the FAQ page. */
const questionHeading = (title: string) => `### ${inertText(title, MAX_QUESTION)}`

/** The FAQ page: named or titled like one, the default language's, listed before unlisted, shortest path first. */
export function findFaqPage(tree: DocsTree): TreePage | undefined {
  const defaultLanguage = tree.navigation.languages[0]
  return [...tree.pages.values()]
    .filter((page) => FAQ_NAME.test(page.path.split('/').at(-1)!) || FAQ_TITLE.test(page.meta.title ?? ''))
    .sort(
      (a, b) =>
        Number(Boolean(a.language && defaultLanguage && a.language !== defaultLanguage)) -
          Number(Boolean(b.language && defaultLanguage && b.language !== defaultLanguage)) ||
        Number(!a.nav) - Number(!b.nav) ||
        a.path.split('/').length - b.path.split('/').length ||
        a.path.localeCompare(b.path),
    )[0]
}

/** The section at the end of the page; with no page, a new `faq.mdx` listed in the first navigation group. */
function appendSection(tree: DocsTree, page: TreePage | undefined, section: string): FileEdit[] {
  if (page) {
    const eol = page.text.includes('\r\n') ? '\r\n' : '\n'
    const lead = page.text.endsWith('\n') ? eol : eol + eol
    return [{ path: page.file, edits: [{ start: page.text.length, end: page.text.length, text: lead + section.replaceAll('\n', eol) }] }]
  }
  const text = ['---', 'title: "FAQ"', 'description: "Questions readers ask, and their answers."', '---', '', section].join('\n')
  const edits: FileEdit[] = [{ path: 'faq.mdx', create: true, edits: [{ start: 0, end: 0, text }] }]
  const config = tree.config && tree.files.get(tree.config.file)
  const docs = parseJson(config)
  const picked = docs && pickGroup(docs.value, null)
  const listed = picked && addToNavigation(docs.text, picked, 'faq')
  if (listed && config) edits.push({ path: tree.config!.file, edits: [editBetween(config, listed)] })
  return edits
}
