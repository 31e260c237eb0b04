import { addToNavigation, parseJson, pickGroup } from '../../models/docs-navigation.ts'
import { trimEnd } from '../../../shared/trim.ts'
import type { DocsTree, TreePage } from '../docs-tree.ts'
import { editBetween, type FileEdit } from '../edits.ts'
import { type ChangelogItem, classifyChanges, GROUPS, type MergedChange, type Skipped } from './classify.ts'

export interface ChangelogInput {
  /** What was merged since the last run, oldest first. */
  changes: readonly MergedChange[]
  /** The entry's day, `YYYY-MM-DD` (the run's clock, in the project's time zone). */
  date: string
  /** A version or release name: the entry's description (Update component) or part of its heading. */
  version?: string
}

export interface ChangelogReport {
  /** The page written to, or proposed. */
  page: string
  created: boolean
  format: 'update-component' | 'markdown'
  items: ChangelogItem[]
  skipped: Skipped[]
}

export interface ChangelogResult {
  /** Empty when nothing merged belongs in a changelog. */
  edits: FileEdit[]
  report: ChangelogReport
  /** The entry as written into the page. */
  entry: string
  summary: string
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
/** A label that starts with a month's name (MONTHS): `August 21, 2026`, `August 2026`. */
const MONTH_FIRST = /^(January|February|March|April|May|June|July|August|September|October|November|December)\s+/i
/** Page names and titles of changelog pages. */
const CHANGELOG_NAME = /^(changelog|changes|release-notes|releases|updates|product-updates|whats-new|what-s-new)$/i
const CHANGELOG_TITLE = /\b(changelog|release notes|product updates|what'?s new)\b/i

type DateStyle = 'iso' | 'long' | 'month'

/**
 * Drafts a changelog entry from what merged since the last run, with no model: grouped (Added, Changed, Fixed, Docs;
 * see classifyChanges) and written at the top of the docs' changelog page — found by its name (`changelog`,
 * `release-notes`, `updates`...) or title, the default language's, listed pages first — as a Mintlify
 * `<Update label description>` when the page uses that component, else as a dated heading like the page's others.
 * A site with no changelog gets a new `changelog.mdx`, listed in the first navigation group of `docs.json`.
 */
export function draftChangelog(tree: DocsTree, input: ChangelogInput): ChangelogResult {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.date)) throw new TypeError(`draftChangelog: date must be YYYY-MM-DD, got "${input.date}"`)
  const { items, skipped } = classifyChanges(input.changes)
  const page = findChangelogPage(tree)
  const usesUpdate = page ? /^[ \t]*<Update\b/m.test(page.text) : tree.config !== undefined
  const format = usesUpdate ? 'update-component' : 'markdown'
  const report: ChangelogReport = { page: page?.file ?? 'changelog.mdx', created: !page, format, items, skipped }
  if (items.length === 0) return { edits: [], report, entry: '', summary: summarize(report) }

  if (!page) {
    const eol = '\n'
    const entry = updateEntry(items, input, 'long', '  ', '##', eol)
    const text = ['---', 'title: "Changelog"', 'description: "Notable changes, newest first."', '---', '', entry].join(eol)
    const edits: FileEdit[] = [{ path: 'changelog.mdx', create: true, edits: [{ start: 0, end: 0, text }] }]
    const navigation = tree.config && listInNavigation(tree.files.get(tree.config.file))
    if (navigation) edits.push({ path: tree.config!.file, edits: [editBetween(tree.files.get(tree.config!.file)!, navigation)] })
    return { edits, report, entry, summary: summarize(report) }
  }

  const text = page.text
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  if (usesUpdate) {
    const first = firstUpdate(text)
    const at = text.search(/^[ \t]*<Update\b/m)
    const entry = updateEntry(items, input, first ? dateStyle(first.label) : 'long', first?.indent || '  ', first?.depth ?? '##', eol)
    return { edits: [{ path: page.file, edits: [{ start: at, end: at, text: entry + eol }] }], report, entry, summary: summarize(report) }
  }
  // A markdown changelog: entries are headings below the title (the first `##` after any `#`).
  // The text to the line's end, its spaces trimmed after, linear: `(.+?)[ \t]*$` read the rest of a run of spaces or tabs
  // at each of its characters. A heading of spaces alone keeps the one space it read as its text.
  const heading = /^(#{2,3})[ \t]+(.+)$/m.exec(text.slice(page.frontmatter ? page.frontmatter.end : 0))
  const headingText = heading ? trimEnd(heading[2]!, ' \t') || heading[2]! : undefined
  const headingAt = heading ? (page.frontmatter?.end ?? 0) + heading.index : -1
  const depth = heading?.[1] ?? '##'
  const style = headingText === undefined ? 'iso' : dateStyle(headingText)
  const label = [dateLabel(input.date, style), input.version].filter(Boolean).join(' — ')
  const sections = groupSections(items, `${depth}#`, '', eol)
  if (heading && style === 'month' && headingText === label) {
    // Same month as the latest entry: this run's sections open that month's entry.
    const after = text.indexOf('\n', headingAt) + 1
    return {
      edits: [{ path: page.file, edits: [{ start: after, end: after, text: `${eol}${sections}` }] }],
      report,
      entry: sections,
      summary: summarize(report),
    }
  }
  const entry = `${depth} ${label}${eol}${eol}${sections}`
  // Before the latest entry, with a blank line between; or, in a changelog with no entry yet, at its end.
  const [at, written] = headingAt === -1 ? [text.length, (text.endsWith('\n') ? eol : eol + eol) + entry] : [headingAt, entry + eol]
  return { edits: [{ path: page.file, edits: [{ start: at, end: at, text: written }] }], report, entry, summary: summarize(report) }
}

/** The docs' changelog page: named or titled like one, the default language's, listed before unlisted, shortest path first. */
export function findChangelogPage(tree: DocsTree): TreePage | undefined {
  const defaultLanguage = tree.navigation.languages[0]
  const candidates = [...tree.pages.values()].filter((page) => {
    const name = page.path.split('/').at(-1)!
    return CHANGELOG_NAME.test(name) || CHANGELOG_TITLE.test(page.meta.title ?? '')
  })
  const rank = (page: TreePage) => [
    page.language && defaultLanguage && page.language !== defaultLanguage ? 1 : 0,
    page.nav ? 0 : 1,
    CHANGELOG_NAME.test(page.path.split('/').at(-1)!) ? 0 : 1,
    page.path.split('/').length,
    page.path.length,
  ]
  return candidates.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)]
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!
    return a.path.localeCompare(b.path)
  })[0]
}

/** How a page's first `<Update>` is written: its label, and the indentation and heading of its first line. */
interface UpdateStyle {
  label: string
  indent: string
  /** The hashes opening that line (`##`); undefined when it is no heading. */
  depth: string | undefined
}

/**
 * The first `<Update ... label="...">` opening a line and ending it (the first `>` after the label's value is followed
 * by a line break), as `/^([ \t]*)<Update\b[^>]*?label=(["'])(.*?)\2[^>]*>\r?\n((?:[ \t]*\r?\n)*)([ \t]*)(#{1,6})?/m`
 * found it. In code, linear: the pattern read the tag again from every `<Update` line inside it, every `label=` of
 * it and every quote after one, quadratic in the tag. Here a tag that fails is skipped whole (an `<Update` inside it
 * has the same attributes, so fails too), and a quote that closes no value on its line is not tried again from a later
 * `label=` of that line (its values would end at the same quotes).
 */
function firstUpdate(text: string): UpdateStyle | undefined {
  const tags = /^[ \t]*<Update\b/gm
  for (let tag = tags.exec(text); tag; tag = tags.exec(text)) {
    const attributes = tag.index + tag[0].length
    // The tag's first `>`: its `label=` comes before it.
    const close = text.indexOf('>', attributes)
    if (close === -1) return undefined
    const found = labelAt(text, attributes, close)
    if (found) {
      const below = /(?:[ \t]*\r?\n)*([ \t]*)(#{1,6})?/y
      below.lastIndex = found.after
      const line = below.exec(text)!
      return { label: found.label, indent: line[1]!, depth: line[2] }
    }
    tags.lastIndex = close + 1
  }
  return undefined
}

/**
 * The label of the tag whose attributes are `text[attributes, close)`: the first `label="` or `label='` whose value
 * closes on its line at a quote after which the first `>` ends the line; and where the next line starts.
 */
function labelAt(text: string, attributes: number, close: number): { label: string; after: number } | undefined {
  const tag = text.slice(attributes, close)
  const lineBreak = /[\n\r\u2028\u2029]/g
  let lineEnd = -1
  // Quotes that closed no value on the line ending at lineEnd.
  let failed = ''
  for (let at = tag.indexOf('label='); at !== -1; at = tag.indexOf('label=', at + 1)) {
    const start = attributes + at + 'label='.length + 1
    const quote = text[start - 1]!
    if (quote !== '"' && quote !== "'") continue
    if (start > lineEnd) {
      lineBreak.lastIndex = start
      lineEnd = lineBreak.exec(text)?.index ?? text.length
      failed = ''
    }
    if (failed.includes(quote)) continue
    let next = close
    for (let end = text.indexOf(quote, start); end !== -1 && end < lineEnd; end = text.indexOf(quote, end + 1)) {
      // The first `>` after the value.
      if (end > next) next = text.indexOf('>', end + 1)
      if (next === -1) break
      const after = text[next + 1] === '\n' ? next + 2 : text[next + 1] === '\r' && text[next + 2] === '\n' ? next + 3 : -1
      if (after !== -1) return { label: text.slice(start, end), after }
    }
    failed += quote
  }
  return undefined
}

function updateEntry(items: ChangelogItem[], input: ChangelogInput, style: DateStyle, indent: string, depth: string, eol: string): string {
  const description = input.version ? ` description=${JSON.stringify(input.version)}` : ''
  const sections = groupSections(items, depth, indent, eol)
  return `<Update label=${JSON.stringify(dateLabel(input.date, style))}${description}>${eol}${sections}</Update>${eol}`
}

/** `## Added` then its items, for each group with items, in the order Added, Changed, Fixed, Docs. */
function groupSections(items: ChangelogItem[], depth: string, indent: string, eol: string): string {
  const sections: string[] = []
  for (const group of GROUPS) {
    const lines = items.filter((item) => item.group === group).map((item) => `${indent}- ${item.text}`)
    if (lines.length) sections.push(`${indent}${depth} ${group}${eol}${eol}${lines.join(eol)}${eol}`)
  }
  return sections.join(eol)
}

/** How the page writes its dates: `2026-08-21`, `August 21, 2026` or `August 2026`. */
function dateStyle(label: string): DateStyle {
  if (/^\d{4}-\d{2}-\d{2}\b/.test(label)) return 'iso'
  if (MONTH_FIRST.test(label)) return /^\S+\s+\d{1,2},\s*\d{4}/.test(label) ? 'long' : /^\S+\s+\d{4}\b/.test(label) ? 'month' : 'long'
  return 'iso'
}

function dateLabel(date: string, style: DateStyle): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number]
  if (style === 'iso') return date
  if (style === 'month') return `${MONTHS[month - 1]} ${year}`
  return `${MONTHS[month - 1]} ${day}, ${year}`
}

/** docs.json with `changelog` added to its first group, formatted like the rest; undefined when it has no group. */
function listInNavigation(text: string | undefined): string | undefined {
  const docs = parseJson(text)
  const picked = docs && pickGroup(docs.value, null)
  return (picked && addToNavigation(docs.text, picked, 'changelog')) ?? undefined
}

function summarize(report: ChangelogReport): string {
  if (report.items.length === 0) {
    return `Nothing merged since the last run belongs in the changelog (${report.skipped.length} change(s) left out: internal, merge commits or already listed).`
  }
  const counts = GROUPS.map((group) => [group, report.items.filter((item) => item.group === group).length] as const).filter(
    ([, n]) => n > 0,
  )
  const where = report.created ? `a new page, \`${report.page}\`` : `\`${report.page}\``
  const lines = [`Drafted a changelog entry in ${where}: ${counts.map(([group, n]) => `${n} ${group.toLowerCase()}`).join(', ')}.`]
  if (report.skipped.length) {
    lines.push('', `Left out (${report.skipped.length}):`, '')
    for (const { change, reason } of report.skipped.slice(0, 50)) lines.push(`- ${change.title.replace(/\n[\s\S]*/, '')}: ${reason}`)
  }
  lines.push('', 'Review the wording before merging: titles of pull requests are written for reviewers, not readers.')
  return lines.join('\n')
}
