import GithubSlugger from 'github-slugger'
import type { DocPage } from './docs-site.ts'
import type { Section } from './types.ts'

export interface ChunkOptions {
  /** Sections shorter than this merge with a neighbour. */
  minChars: number
  /** Sections longer than this split on paragraph boundaries. */
  maxChars: number
}

export const DEFAULT_CHUNKING: ChunkOptions = { minChars: 240, maxChars: 1800 }

interface Draft {
  headings: string[]
  anchor: string
  /** Markdown pieces (paragraphs, lists, code blocks, merged sub-headings). */
  parts: string[]
  size: number
  /** The heading's own markdown, kept when the section merges into the one before. */
  heading?: string
}

/** Splits a page into sections at its headings, keeping title, heading trail and anchor; merges tiny ones, splits long ones. */
export function chunkPage(page: DocPage, options: ChunkOptions = DEFAULT_CHUNKING): Section[] {
  const drafts = draftsOf(page)
  const merged = mergeTiny(drafts, options)
  const sections: Section[] = []
  for (const draft of merged) {
    const pieces = splitLong(draft.parts, options.maxChars)
    pieces.forEach((parts, index) => {
      const content = parts.join('\n\n').trim()
      if (!content && draft.anchor) return
      sections.push(sectionOf(page, draft, content, index))
    })
  }
  return sections
}

function draftsOf(page: DocPage): Draft[] {
  const slugger = new GithubSlugger()
  const trail: Array<{ depth: number; text: string }> = []
  const drafts: Draft[] = [{ headings: [page.title], anchor: '', parts: [], size: 0 }]
  page.blocks.forEach((block, index) => {
    if (block.kind === 'text') {
      const current = drafts.at(-1)!
      current.parts.push(block.markdown)
      current.size += block.markdown.length
      return
    }
    // The page's own top heading repeats its title: it opens no section.
    if (index === 0 && block.depth === 1) return
    while (trail.length > 0 && trail.at(-1)!.depth >= block.depth) trail.pop()
    trail.push({ depth: block.depth, text: block.text })
    drafts.push({
      headings: [page.title, ...trail.map((h) => h.text)],
      anchor: slugger.slug(block.text),
      parts: [],
      size: 0,
      heading: block.markdown,
    })
  })
  return drafts
}

function mergeTiny(drafts: Draft[], { minChars, maxChars }: ChunkOptions): Draft[] {
  const out: Draft[] = []
  for (const draft of drafts) {
    const current = out.at(-1)
    const fits = current && current.size + draft.size <= maxChars
    if (current && fits && (current.size < minChars || draft.size < minChars)) {
      const heading = draft.heading
      if (heading) current.parts.push(heading)
      current.parts.push(...draft.parts)
      current.size += draft.size + (heading?.length ?? 0)
    } else {
      out.push(draft)
    }
  }
  return out
}

/** Parts grouped into pieces of at most `maxChars`, each piece repeating the previous one's last short part (overlap). */
function splitLong(parts: string[], maxChars: number): string[][] {
  const pieces: string[][] = [[]]
  let size = 0
  for (const part of parts.flatMap((p) => (p.length > maxChars * 2 ? splitLines(p, maxChars) : [p]))) {
    const piece = pieces.at(-1)!
    if (size + part.length > maxChars && piece.length > 0) {
      const overlap = piece.at(-1)!
      const next = overlap.length <= maxChars / 4 ? [overlap] : []
      pieces.push(next)
      size = next.reduce((n, p) => n + p.length, 0)
    }
    pieces.at(-1)!.push(part)
    size += part.length
  }
  return pieces
}

/** A huge block (a long code sample or table) cut at line ends; each piece of a code block keeps its fences. */
function splitLines(text: string, maxChars: number): string[] {
  const fence = /^(`{3,}|~{3,})[^\n]*\n/.exec(text)
  const closing = fence && text.trimEnd().endsWith(fence[1]!) ? fence[1]! : undefined
  const body = fence && closing ? text.trimEnd().slice(fence[0].length, -closing.length).replace(/\n$/, '') : text
  const out: string[] = []
  let chunk = ''
  for (const line of body.split('\n')) {
    if (chunk && chunk.length + line.length + 1 > maxChars) {
      out.push(chunk)
      chunk = ''
    }
    chunk = chunk ? `${chunk}\n${line}` : line
  }
  if (chunk) out.push(chunk)
  return fence && closing ? out.map((piece) => `${fence[0]}${piece}\n${closing}`) : out
}

function sectionOf(page: DocPage, draft: Draft, content: string, part: number): Section {
  return {
    id: `${page.path}#${draft.anchor}${part > 0 ? `~${part}` : ''}`,
    path: page.path,
    url: draft.anchor ? `${page.url}#${draft.anchor}` : page.url,
    anchor: draft.anchor,
    pageTitle: page.title,
    headings: draft.headings,
    content: content || page.meta.description || page.title,
    description: page.meta.description,
    version: page.version,
    language: page.language,
    versions: page.versions,
    languages: page.languages,
    groups: [...(page.nav?.groups ?? []), ...page.meta.groups],
    tags: [...page.meta.tags, ...page.meta.keywords],
  }
}
