import type { Nodes, Parent } from 'mdast'
import { parseMarkdown } from '../../search/markdown.ts'
import { plainText } from '../../search/page-blocks.ts'
import { trimEnd, WHITESPACE } from '../../../shared/trim.ts'
import type { DocsTree, TreePage } from '../docs-tree.ts'
import { type FileEdit, groupEdits, type TextEdit } from '../edits.ts'
import { wordOverlap } from '../similarity.ts'
import { setFrontmatterFields } from './frontmatter-fields.ts'

export interface SeoOptions {
  /** Longest description written (search engines show about 160 characters). */
  maxDescription?: number
}

export type SeoField = 'title' | 'description'

/** One title or description set on a page. */
export interface SeoChange {
  file: string
  field: SeoField
  problem: 'missing' | 'duplicate'
  /** The value it had (a duplicate's). */
  before?: string
  after: string
  /** Where the value comes from: the page's first heading, its sidebar title, its first paragraph. */
  from: 'heading' | 'sidebar-title' | 'paragraph'
}

/** A title or description that needs a person. */
export interface SeoProblem {
  file: string
  field: SeoField
  problem: 'missing' | 'duplicate' | 'unreadable-frontmatter'
  note: string
}

export interface SeoReport {
  /**
   * Pages checked: those in the navigation (every page when `seo.indexing` is `all` or there is no navigation), less
   * those with `noindex` and generated API pages (`openapi`/`api` frontmatter).
   */
  pages: number
  changes: SeoChange[]
  left: SeoProblem[]
}

export interface SeoResult {
  edits: FileEdit[]
  report: SeoReport
  summary: string
}

interface PageFacts {
  page: TreePage
  h1?: string
  paragraph?: string
  title?: string
  description?: string
}

const DEFAULT_MAX_DESCRIPTION = 160
/** A paragraph shorter than this many words (`See below.`, a lone link) is not what a page is about. */
const MIN_PARAGRAPH_WORDS = 6
/** Frontmatter of pages whose content is generated (Mintlify OpenAPI/AsyncAPI pages): their spec gives title and text. */
const GENERATED = /^(openapi|asyncapi|api)\s*:/m
/** Components whose text is an aside, not what the page is about. */
const ASIDES = new Set([
  'Note',
  'Tip',
  'Warning',
  'Info',
  'Check',
  'Danger',
  'Callout',
  'Frame',
  'CodeGroup',
  'RequestExample',
  'ResponseExample',
  'Snippet',
])

/**
 * Fills missing `title` and `description` frontmatter from the page itself, and replaces duplicates, with no model:
 * the title from the first top-level heading (else the sidebar title; a file name is only offered), the description from the
 * first real paragraph, markdown stripped, cut at a sentence boundary to at most 160 characters. Duplicates are
 * judged within a language and version; a duplicate title changes only to the page's own distinct heading, a
 * duplicate description to the page's own first paragraph (the page whose paragraph matches it best keeps it).
 * Only the frontmatter lines change; what cannot be filled is listed.
 */
export function fixSeo(tree: DocsTree, options: SeoOptions = {}): SeoResult {
  const max = options.maxDescription ?? DEFAULT_MAX_DESCRIPTION
  const facts: PageFacts[] = []
  const everyPage = tree.navigation.entries.size === 0 || indexesEveryPage(tree.config?.value)
  for (const page of tree.pages.values()) {
    if ((!everyPage && !page.nav) || page.meta.noindex || GENERATED.test(page.frontmatter?.yaml ?? '')) continue
    const { tree: root } = parseMarkdown(page.text)
    const { h1, paragraph } = firstHeadingAndParagraph(root)
    facts.push({ page, h1, paragraph: paragraph && describe(paragraph, max), title: page.meta.title, description: page.meta.description })
  }
  const changes: SeoChange[] = []
  const left: SeoProblem[] = []
  const planned = new Map<PageFacts, Array<[SeoField, string]>>()
  const plan = (fact: PageFacts, change: Omit<SeoChange, 'file'>) => {
    changes.push({ file: fact.page.file, ...change })
    planned.set(fact, [...(planned.get(fact) ?? []), [change.field, change.after]])
  }

  for (const fact of facts) {
    if (!fact.title) {
      if (fact.h1) plan(fact, { field: 'title', problem: 'missing', after: fact.h1, from: 'heading' })
      else if (fact.page.meta.sidebarTitle) {
        plan(fact, { field: 'title', problem: 'missing', after: fact.page.meta.sidebarTitle, from: 'sidebar-title' })
      } else {
        // A file name makes a poor title (`sso-saml` reads "Sso saml"): it is offered, not written.
        const note = `the page has no heading or sidebar title to take it from; its file name reads "${titleFromPath(fact.page.path)}"`
        left.push({ file: fact.page.file, field: 'title', problem: 'missing', note })
      }
    }
    if (!fact.description) {
      if (fact.paragraph) plan(fact, { field: 'description', problem: 'missing', after: fact.paragraph, from: 'paragraph' })
      else left.push({ file: fact.page.file, field: 'description', problem: 'missing', note: 'the page has no paragraph to take it from' })
    }
  }

  for (const group of duplicates(facts, 'title')) {
    const own = group.map((fact) => fact.h1)
    for (const [i, fact] of group.entries()) {
      const h1 = own[i]
      const distinct =
        h1 &&
        h1.toLowerCase() !== fact.title!.toLowerCase() &&
        own.filter((other) => other?.toLowerCase() === h1.toLowerCase()).length === 1
      if (distinct) plan(fact, { field: 'title', problem: 'duplicate', before: fact.title, after: h1, from: 'heading' })
      else {
        left.push({
          file: fact.page.file,
          field: 'title',
          problem: 'duplicate',
          note: `"${fact.title}" is also the title of ${others(group, fact)}`,
        })
      }
    }
  }
  for (const group of duplicates(facts, 'description')) {
    const shared = group[0]!.description!
    // The page the description was written for keeps it: the one whose own first paragraph says most the same.
    const keeper = group.reduce((best, fact) =>
      wordOverlap(fact.paragraph ?? '', shared) > wordOverlap(best.paragraph ?? '', shared) ? fact : best,
    )
    for (const fact of group) {
      if (fact === keeper) continue
      const unique = fact.paragraph && fact.paragraph !== shared && group.filter((other) => other.paragraph === fact.paragraph).length === 1
      if (unique) plan(fact, { field: 'description', problem: 'duplicate', before: shared, after: fact.paragraph!, from: 'paragraph' })
      else {
        left.push({
          file: fact.page.file,
          field: 'description',
          problem: 'duplicate',
          note: `also the description of ${others(group, fact)}`,
        })
      }
    }
  }

  const edits: Array<{ path: string; edit: TextEdit }> = []
  for (const [fact, fields] of planned) {
    const fileEdits = setFrontmatterFields(fact.page.text, fields)
    if (!fileEdits) {
      left.push({
        file: fact.page.file,
        field: fields[0]![0],
        problem: 'unreadable-frontmatter',
        note: 'the frontmatter is not valid YAML',
      })
      for (let i = changes.length - 1; i >= 0; i--) if (changes[i]!.file === fact.page.file) changes.splice(i, 1)
      continue
    }
    for (const edit of fileEdits) edits.push({ path: fact.page.file, edit })
  }
  changes.sort((a, b) => a.file.localeCompare(b.file))
  const report = { pages: facts.length, changes, left }
  return { edits: groupEdits(edits), report, summary: summarize(report) }
}

/**
 * Whether search engines see pages left out of the navigation: Mintlify keeps them out of its sitemap and marks them
 * noindex unless `seo.indexing` is `all`. A site with no navigation has only such pages.
 */
function indexesEveryPage(config: Record<string, unknown> | undefined): boolean {
  const seo = config?.seo
  return typeof seo === 'object' && seo !== null && (seo as { indexing?: unknown }).indexing === 'all'
}

/** Pages sharing a title (or description), case and spacing aside, within one language and version. */
function duplicates(facts: PageFacts[], field: 'title' | 'description'): PageFacts[][] {
  const groups = new Map<string, PageFacts[]>()
  for (const fact of facts) {
    const value = fact[field]
    if (!value) continue
    const key = [
      fact.page.language ?? '',
      fact.page.meta.version ?? fact.page.nav?.version ?? '',
      value.toLowerCase().replace(/\s+/g, ' ').trim(),
    ].join('\u0000')
    groups.set(key, [...(groups.get(key) ?? []), fact])
  }
  return [...groups.values()].filter((group) => group.length > 1)
}

const others = (group: PageFacts[], fact: PageFacts) =>
  group
    .filter((other) => other !== fact)
    .map((other) => other.page.file)
    .join(', ')

/** The text of the first top-level heading, and the first paragraph of prose (not an aside, not a lone link or image). */
function firstHeadingAndParagraph(root: Parent): { h1?: string; paragraph?: string } {
  let h1: string | undefined
  let paragraph: string | undefined
  const visit = (nodes: Nodes[]) => {
    for (const node of nodes) {
      if (h1 !== undefined && paragraph !== undefined) return
      if (node.type === 'heading' && node.depth === 1) h1 ??= plainText(node).trim() || undefined
      else if (node.type === 'paragraph' && paragraph === undefined) {
        // An aside written inline (`<Note>...</Note>` on one line) is a paragraph of its own: its text is left out.
        const children = node.children.filter((child) => !(child.type === 'mdxJsxTextElement' && ASIDES.has(child.name ?? '')))
        const text = children
          .map((child) => plainText(child))
          .join('')
          .replace(/\s+/g, ' ')
          .trim()
        if (text.split(' ').length >= MIN_PARAGRAPH_WORDS) paragraph = text
      } else if ((node.type === 'mdxJsxFlowElement' && !ASIDES.has(node.name ?? '')) || node.type === 'blockquote') {
        visit(node.children as Nodes[])
      }
    }
  }
  visit(root.children as Nodes[])
  return { h1, paragraph }
}

/**
 * What a cut description does not end with before its `…`: spaces (the characters of `\s`) and punctuation that
 * leads on. Cut with trimEnd, linear, where `/[\s,;:–—(-]+$/` read the rest of a run of these from each of them.
 */
const DANGLING = `${WHITESPACE},;:–—(-`

/**
 * A paragraph as a description: whole sentences up to `max` characters; a first sentence longer than that is cut
 * at a word and ends with an ellipsis.
 */
export function describe(paragraph: string, max: number): string {
  let out = ''
  for (const sentence of sentences(paragraph)) {
    const next = out ? `${out} ${sentence}` : sentence
    if (next.length > max) break
    out = next
  }
  if (out) return out
  const cut = paragraph.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${trimEnd(space > max / 2 ? cut.slice(0, space) : cut, DANGLING)}…`
}

/** What starts a sentence after its predecessor's end and spaces: a capital, a digit or an opening mark. */
const SENTENCE_START = /[\p{Lu}\p{N}"'“‘(`[]/uy

/** Sentences: a `.`, `!` or `?` (and closing quotes or brackets) then a space and a capital, digit or opening mark. */
function sentences(text: string): string[] {
  const out: string[] = []
  let start = 0
  // A run of marks is taken whole with the closing marks and spaces after it, and what follows is checked then: linear,
  // where `/[.!?]+["'”’)\]]*\s+(?=[…])/gu` read the rest of a run that ends no sentence (`!!!…!x`) from each of its
  // marks. The same ends: from a later mark of a run, the same closing marks and spaces follow.
  for (const match of text.matchAll(/[.!?]+["'”’)\]]*\s*/gu)) {
    const end = match.index! + match[0].trimEnd().length
    const next = match.index! + match[0].length
    SENTENCE_START.lastIndex = next
    if (next === end || !SENTENCE_START.test(text)) continue
    out.push(text.slice(start, end).trim())
    start = next
  }
  out.push(text.slice(start).trim())
  return out.filter(Boolean)
}

function titleFromPath(path: string): string {
  const parts = path.split('/')
  if (parts.length > 1 && parts.at(-1) === 'index') parts.pop()
  const words = (parts.at(-1) ?? path).replace(/[-_]+/g, ' ').trim()
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Home'
}

const MAX_SUMMARY_ROWS = 100

function summarize(report: SeoReport): string {
  const lines = [
    `Checked the titles and descriptions of ${report.pages} pages: ${report.changes.length} set, ${report.left.length} left for a person.`,
  ]
  if (report.changes.length) {
    lines.push('', '| File | Field | Was | Now |', '| --- | --- | --- | --- |')
    for (const change of report.changes.slice(0, MAX_SUMMARY_ROWS)) {
      lines.push(
        `| \`${change.file}\` | ${change.field} | ${change.before ? cell(change.before) : `(${change.problem})`} | ${cell(change.after)} |`,
      )
    }
    if (report.changes.length > MAX_SUMMARY_ROWS) lines.push('', `…and ${report.changes.length - MAX_SUMMARY_ROWS} more.`)
  }
  if (report.left.length) {
    lines.push('', `**Left for a person (${report.left.length}):**`, '')
    for (const item of report.left.slice(0, MAX_SUMMARY_ROWS)) {
      lines.push(`- \`${item.file}\` ${item.field} (${item.problem}): ${item.note}`)
    }
    if (report.left.length > MAX_SUMMARY_ROWS) lines.push('', `…and ${report.left.length - MAX_SUMMARY_ROWS} more.`)
  }
  return lines.join('\n')
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
