import { parseMarkdown } from '../../search/markdown.ts'
import { pagePathOfFile } from '../../search/navigation.ts'
import { pageUrl } from '../../search/page-url.ts'
import { resolveImport } from '../../search/snippets.ts'
import type { DocsTree } from '../docs-tree.ts'
import { type FileEdit, groupEdits, lineColumn, type TextEdit } from '../edits.ts'
import { squash } from '../similarity.ts'
import { type PageLinks, pageLinks } from './extract.ts'
import { DEFAULT_MATCH, type Match, matchAnchor, type MatchOptions, matchPage, type PageCandidate } from './match.ts'
import { readRedirects, resolveLink, siteIndex } from './resolve.ts'

export interface BrokenLinksOptions extends Partial<MatchOptions> {
  /**
   * Lowest score an anchor fix needs: higher than a page's, as anchors are short and a site may slug a heading a
   * little differently from github-slugger.
   */
  anchorThreshold?: number
  /**
   * Paths of the docs' other files (images, PDFs, specs), from the docs root. When given, links to them are checked
   * too; without it such links are counted and left alone (the tree holds only text files).
   */
  assets?: Iterable<string>
}

/** One link that does not lead where it says, fixed or not. */
export interface LinkProblem {
  file: string
  line: number
  column: number
  url: string
  /** The link's text or card title. */
  text?: string
  problem: 'missing-page' | 'missing-anchor' | 'missing-file'
  /** The target the link now has, when it was fixed. */
  fixedTo?: string
  /**
   * Why the fix is right: the site's redirect, a base path the site is served under (`/docs/x` → `/x`), the page
   * found by name and title, or the anchor found by spelling.
   */
  reason?: 'redirect' | 'base-path' | 'moved' | 'anchor'
  /** The match's score (1 for a redirect). */
  confidence?: number
  /** For a link left alone: the closest pages or anchors, best first. */
  candidates?: Match[]
  /** Why a link was left alone. */
  note?: string
}

export interface LinkReport {
  /** Pages and snippets read. */
  files: number
  /** Link targets found (markdown, reference definitions, JSX `href`, HTML `<a href>`). */
  links: number
  /** Targets inside the docs checked against its pages and anchors. */
  checked: number
  /** Targets not checked: other sites, files that are not pages (without `assets`), `{expressions}`, anchors of pages with no file. */
  skipped: { external: number; assets: number; dynamic: number; unverifiable: number }
  problems: LinkProblem[]
  fixed: number
  unfixed: number
}

export interface BrokenLinksResult {
  edits: FileEdit[]
  report: LinkReport
  /** Markdown for the pull request body: what was fixed, and what a person must look at. */
  summary: string
}

export const DEFAULT_ANCHOR_THRESHOLD = 0.85

interface FileFacts extends PageLinks {
  file: string
  text: string
}

/**
 * Checks every internal link and anchor of the docs and fixes the broken ones that can be fixed exactly, with no
 * model: a redirected or moved page to the page that exists (found by the site's redirects, or by name and title,
 * only when one page is clearly best), a misspelled anchor to the page's heading. Each fix replaces just the link's
 * target; the rest is reported for a person.
 */
export function fixBrokenLinks(tree: DocsTree, options: BrokenLinksOptions = {}): BrokenLinksResult {
  const match: MatchOptions = { threshold: options.threshold ?? DEFAULT_MATCH.threshold, margin: options.margin ?? DEFAULT_MATCH.margin }
  const anchorMatchOptions: MatchOptions = { ...match, threshold: options.anchorThreshold ?? DEFAULT_ANCHOR_THRESHOLD }
  const facts = new Map<string, FileFacts>()
  const titles = new Map<string, string>()
  const read = (file: string, text: string) => {
    const parsed = pageLinks(parseMarkdown(text).tree, text)
    facts.set(file, { file, text, ...parsed })
    return parsed
  }
  for (const page of tree.pages.values()) {
    const parsed = read(page.file, page.text)
    titles.set(page.path, page.meta.title ?? parsed.h1 ?? page.meta.sidebarTitle ?? titleFromPath(page.path))
  }
  for (const [file, text] of tree.snippets) read(file, text)
  const site = siteIndex([...tree.pages.keys(), ...tree.navigation.entries.keys()], readRedirects(tree.config?.value))
  const languages = new Set(tree.navigation.languages)
  const candidates = [...site.pages].map(
    (path): PageCandidate => ({
      path,
      title: titles.get(path) ?? titleFromPath(path),
      list: tree.navigation.entries.get(path)?.list,
    }),
  )
  const listsByFolder = new Map<string, Set<number>>()
  for (const entry of tree.navigation.entries.values()) {
    const folder = entry.path.split('/').slice(0, -1).join('/')
    listsByFolder.set(folder, (listsByFolder.get(folder) ?? new Set()).add(entry.list))
  }
  /** The page a link from `fromFile` to the missing `path` meant: within its language, never the linking page itself. */
  const findPage = (path: string, text: string | undefined, fromFile: string) => {
    const scope = scopeOf(path, languages)
    const self = pagePathOfFile(fromFile)
    const lists = listsByFolder.get(path.split('/').slice(0, -1).join('/'))
    const within = candidates.filter((candidate) => candidate.path !== self && scopeOf(candidate.path, languages) === scope)
    return matchPage(path, { text, lists }, within, match)
  }
  const assets = options.assets ? new Set([...options.assets, ...tree.files.keys()]) : undefined
  const anchorsOf = anchorReader(facts)

  const report: LinkReport = {
    files: facts.size,
    links: 0,
    checked: 0,
    skipped: { external: 0, assets: 0, dynamic: 0, unverifiable: 0 },
    problems: [],
    fixed: 0,
    unfixed: 0,
  }
  const edits: Array<{ path: string; edit: TextEdit }> = []
  const pageMatches = new Map<string, ReturnType<typeof matchPage>>()

  for (const fact of facts.values()) {
    const isSnippet = tree.snippets.has(fact.file)
    for (const link of fact.links) {
      report.links++
      const target = resolveLink(link.url, fact.file, site)
      if (target.kind === 'external' || target.kind === 'dynamic') {
        report.skipped[target.kind]++
        continue
      }
      const problem = (kind: LinkProblem['problem']): LinkProblem => ({
        file: fact.file,
        ...lineColumn(fact.text, link.start),
        url: link.url,
        ...(link.text ? { text: link.text } : {}),
        problem: kind,
      })
      if (target.kind === 'asset') {
        if (!assets) {
          report.skipped.assets++
          continue
        }
        report.checked++
        if (!assets.has(target.file)) report.problems.push({ ...problem('missing-file'), note: 'no such file in the docs' })
        continue
      }
      report.checked++
      // The page a fragment must be on, and the fix so far (a new page), if any.
      let page: string | undefined
      let fix: Pick<LinkProblem, 'fixedTo' | 'reason' | 'confidence'> | undefined
      let found: LinkProblem | undefined
      if (target.kind === 'self') {
        if (isSnippet) {
          report.skipped.unverifiable++
          report.checked--
          continue
        }
        page = pagePathOfFile(fact.file)
      } else if (target.kind === 'page') {
        page = target.page
      } else {
        found = problem('missing-page')
        if (target.found) {
          page = target.found.page
          fix = { reason: target.found.via, confidence: 1 }
        } else {
          const key = `${fact.file}\u0000${target.path}\u0000${link.text ?? ''}`
          const result = pageMatches.get(key) ?? findPage(target.path, link.text, fact.file)
          pageMatches.set(key, result)
          if (result.best) {
            page = result.best.path
            fix = { reason: 'moved', confidence: result.best.score }
          } else {
            found.candidates = result.candidates
            found.note = unclear(result.candidates, match, 'page')
          }
        }
      }
      let anchor = target.kind === 'missing' || target.kind === 'page' || target.kind === 'self' ? target.anchor : undefined
      if (page !== undefined && anchor) {
        const anchors = anchorsOf(tree.pages.get(page)?.file)
        if (!anchors) {
          if (!found) {
            report.skipped.unverifiable++
            report.checked--
          }
        } else if (!hasAnchor(anchors, anchor)) {
          const anchorMatch = matchAnchor(anchor, anchors.own, anchorMatchOptions)
          found ??= problem('missing-anchor')
          if (anchorMatch.best) {
            anchor = anchorMatch.best.path
            fix = { reason: fix?.reason ?? 'anchor', confidence: Math.min(fix?.confidence ?? 1, anchorMatch.best.score) }
          } else if (fix) {
            // The page is found but the fragment is not on it: fixing half a link would hide the other half.
            found.note = `the page is now ${page}, which has no anchor "${anchor}" or one clearly like it`
            found.candidates = anchorMatch.candidates
            fix = undefined
          } else {
            found.note = unclear(anchorMatch.candidates, anchorMatchOptions, 'anchor')
            found.candidates = anchorMatch.candidates
          }
        }
      }
      if (!found) continue
      report.problems.push(found)
      if (!fix || page === undefined) {
        report.unfixed++
        continue
      }
      const url = rewriteTarget(link.url, fact.file, page, target.kind === 'self' ? undefined : tree.pages.get(page)?.file, anchor)
      if (!link.editable) {
        found.note = `written with escapes or entities; change it by hand to ${url}`
        report.unfixed++
        continue
      }
      Object.assign(found, { fixedTo: url, ...fix })
      delete found.candidates
      report.fixed++
      edits.push({ path: fact.file, edit: { start: link.start, end: link.end, text: url } })
    }
  }
  return { edits: groupEdits(edits), report, summary: summarize(report) }
}

interface PageAnchors {
  /** Every id a fragment may name: the page's headings and `id`s, its components', and those of the files it imports. */
  ids: Set<string>
  /** The ids squashed to letters and digits (see hasAnchor). */
  loose: Set<string>
  /**
   * The page's own headings and `id`s: what a fix may aim at. Not a snippet's (one imported into many pages is no
   * clue of what a link to this page meant), nor a component's (read from how docs link them, not a specification).
   */
  own: Set<string>
}

/**
 * Whether a fragment names an anchor of the page. Sites slug headings a little differently (Mintlify links
 * `#llms-full-txt` for the heading `llms-full.txt`, which github-slugger makes `llms-fulltxt`, and keeps `$` in
 * `#split-configuration-with-$ref`), so a lower-case fragment that differs from an anchor only in punctuation is
 * taken as that anchor: a fix must never break a link that works on the site.
 */
function hasAnchor(anchors: PageAnchors, anchor: string): boolean {
  return anchors.ids.has(anchor) || (anchor === anchor.toLowerCase() && anchors.loose.has(squash(anchor)))
}

/** The anchors of a page file, with those of the files it imports (snippets' headings are the page's); undefined for no file. */
function anchorReader(facts: Map<string, FileFacts>) {
  const cache = new Map<string, PageAnchors>()
  const collect = (file: string, into: Set<string>, seen: Set<string>) => {
    const fact = facts.get(file)
    if (!fact || seen.has(file)) return
    seen.add(file)
    for (const anchor of fact.anchors) into.add(anchor)
    for (const anchor of fact.componentAnchors) into.add(anchor)
    for (const imported of fact.imports) collect(resolveImport(file, imported), into, seen)
  }
  return (file: string | undefined): PageAnchors | undefined => {
    const fact = file === undefined ? undefined : facts.get(file)
    if (!fact || file === undefined) return undefined
    let anchors = cache.get(file)
    if (!anchors) {
      const ids = new Set<string>()
      collect(file, ids, new Set())
      anchors = { ids, loose: new Set([...ids].map(squash)), own: fact.anchors }
      cache.set(file, anchors)
    }
    return anchors
  }
}

/**
 * The link's target pointed at `page`, written the way the original was: absolute or relative (`./`, `../`), with
 * or without the file extension, a trailing slash and the query kept.
 */
export function rewriteTarget(
  original: string,
  fromFile: string,
  page: string,
  pageFile: string | undefined,
  anchor: string | undefined,
): string {
  const hash = original.indexOf('#')
  const beforeHash = hash === -1 ? original : original.slice(0, hash)
  const queryAt = beforeHash.indexOf('?')
  const path = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt)
  const query = queryAt === -1 ? '' : beforeHash.slice(queryAt)
  const fragment = anchor === undefined ? '' : `#${anchor}`
  if (!path) return `${query}${fragment}`
  const extension = /\.mdx?$/i.exec(path)?.[0]
  const written = extension ? `${page}${/\.mdx?$/i.exec(pageFile ?? '')?.[0] ?? extension}` : pageUrl(page).slice(1)
  const slash = path.length > 1 && path.endsWith('/') && written ? '/' : ''
  if (path.startsWith('/')) return `/${written}${slash}${query}${fragment}`
  const from = fromFile.split('/').slice(0, -1)
  const to = written.split('/').filter(Boolean)
  let common = 0
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++
  const relative = [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/') || '.'
  const dotted = path.startsWith('./') && !relative.startsWith('..') ? `./${relative}` : relative
  return `${dotted}${slash}${query}${fragment}`
}

/** Why no candidate was taken: none close, none close enough, or two that fit equally well. */
function unclear(candidates: Match[], options: MatchOptions, what: 'page' | 'anchor'): string {
  const [first] = candidates
  if (!first) return `no ${what} with a close name`
  if (first.score < options.threshold) return `no ${what} is close enough`
  return `two or more ${what}s fit equally well`
}

/** A language folder (`fr/...`) a path is in, or '' for the default language: a link is fixed within its language. */
function scopeOf(path: string, languages: ReadonlySet<string>): string {
  const first = path.split('/')[0]!
  return languages.has(first) ? first : ''
}

function titleFromPath(path: string): string {
  const parts = path.split('/')
  if (parts.length > 1 && parts.at(-1) === 'index') parts.pop()
  return (parts.at(-1) ?? path).replace(/[-_]+/g, ' ')
}

const MAX_SUMMARY_ROWS = 100

const WHY: Record<NonNullable<LinkProblem['reason']>, string> = {
  redirect: 'the site redirects it there',
  'base-path': 'the same page without the base path the site is served under',
  moved: 'page moved or renamed (match {score})',
  anchor: 'heading renamed (match {score})',
}

function summarize(report: LinkReport): string {
  const fixed = report.problems.filter((problem) => problem.fixedTo !== undefined)
  const left = report.problems.filter((problem) => problem.fixedTo === undefined)
  const lines = [
    `Checked ${report.checked} internal links in ${report.files} files: ${report.problems.length} broken, ${fixed.length} fixed.`,
  ]
  if (fixed.length) {
    lines.push('', '| File | Link | Now | Why |', '| --- | --- | --- | --- |')
    for (const problem of fixed.slice(0, MAX_SUMMARY_ROWS)) {
      const why = WHY[problem.reason!].replace('{score}', String(problem.confidence))
      lines.push(`| \`${problem.file}:${problem.line}\` | \`${cell(problem.url)}\` | \`${cell(problem.fixedTo!)}\` | ${why} |`)
    }
    if (fixed.length > MAX_SUMMARY_ROWS) lines.push('', `…and ${fixed.length - MAX_SUMMARY_ROWS} more.`)
  }
  if (left.length) {
    lines.push('', `**Left for a person (${left.length}):**`, '')
    for (const problem of left.slice(0, MAX_SUMMARY_ROWS)) {
      const closest = problem.candidates?.length
        ? ` Closest: ${problem.candidates.map((c) => `\`${c.path}\` (${c.score})`).join(', ')}.`
        : ''
      lines.push(
        `- \`${problem.file}:${problem.line}\` \`${cell(problem.url)}\`: ${problem.problem.replace('-', ' ')}; ${
          problem.note ?? ''
        }.${closest}`,
      )
    }
    if (left.length > MAX_SUMMARY_ROWS) lines.push('', `…and ${left.length - MAX_SUMMARY_ROWS} more.`)
  }
  return lines.join('\n')
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/`/g, "'")
