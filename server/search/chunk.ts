import GithubSlugger from 'github-slugger'
import type { DocPage } from './docs-site.ts'
import type { Block } from './page-blocks.ts'
import type { PageMeta } from './frontmatter.ts'
import type { Section } from './types.ts'

export interface ChunkOptions {
  /** Sections shorter than this merge with a neighbour. */
  minChars: number
  /** Sections longer than this split on paragraph boundaries. */
  maxChars: number
}

export const DEFAULT_CHUNKING: ChunkOptions = { minChars: 240, maxChars: 1800 }

/**
 * Where one section of a page is in the page's markdown. Sections are read from the page's markdown by offset rather
 * than kept as strings of their own, so a loaded site holds its text once (engines slice a string without copying it).
 */
export interface Chunk {
  /** Heading trail from the page title down to this section. */
  headings: string[]
  /** Headings of the tiny sections merged into this one. */
  subheadings: string[]
  anchor: string
  /** 0 for the first piece of a section, then 1, 2… for the pieces a long one is split into. */
  part: number
  /** Offsets of the section's text in the page's markdown. */
  start: number
  end: number
  /** The text, when it is not a plain slice of the markdown (a huge code block cut into fenced pieces). */
  text?: string
}

interface Draft {
  headings: string[]
  subheadings: string[]
  anchor: string
  /** Index of the heading block that opens it (none for the page top). */
  heading?: number
  /** Its blocks: `from` up to, not including, `to`. */
  from: number
  to: number
  size: number
}

/**
 * Splits a page into sections at its headings, keeping title, heading trail and anchor; merges tiny ones, splits long
 * ones. `spans` are the blocks' offsets in `markdown`, where every block is followed by a blank line.
 */
export function chunkLayout(
  title: string,
  blocks: Block[],
  spans: Array<[number, number]>,
  markdown: string,
  options: ChunkOptions = DEFAULT_CHUNKING,
): Chunk[] {
  const merged = mergeTiny(draftsOf(title, blocks), blocks, options)
  const chunks: Chunk[] = []
  for (const draft of merged) {
    const pieces = splitLong(draft, blocks, options.maxChars)
    pieces.forEach((items, part) => {
      const whole = items.every((item) => typeof item === 'number')
      let start = 0
      let end = 0
      let text: string | undefined
      if (whole && items.length > 0) {
        ;[start, end] = trimmed(markdown, spans[items[0] as number]![0], spans[items.at(-1) as number]![1])
      } else {
        text = items
          .map((item) => (typeof item === 'number' ? blocks[item]!.markdown : item))
          .join('\n\n')
          .trim()
      }
      if (start === end && !text && draft.anchor) return
      chunks.push({ headings: draft.headings, subheadings: draft.subheadings, anchor: draft.anchor, part, start, end, text })
    })
  }
  return chunks
}

/** The sections of a page, with what its navigation and frontmatter say about it (version, language, groups, tags). */
export function chunkPage(page: DocPage): Section[] {
  // One array per page, shared by its sections.
  const groups = [...(page.nav?.groups ?? []), ...page.meta.groups]
  const tags = [...page.meta.tags, ...page.meta.keywords, ...endpointTags(page.meta.endpoint)]
  const operation = page.meta.endpoint ? { operation: operationLine(page.meta.endpoint) } : {}
  return page.chunks.map((chunk) => {
    const content = chunk.text ?? page.markdown.slice(chunk.start, chunk.end)
    return {
      id: `${page.path}#${chunk.anchor}${chunk.part > 0 ? `~${chunk.part}` : ''}`,
      path: page.path,
      url: chunk.anchor ? `${page.url}#${chunk.anchor}` : page.url,
      anchor: chunk.anchor,
      pageTitle: page.title,
      headings: chunk.headings,
      ...(chunk.subheadings.length > 0 ? { subheadings: chunk.subheadings } : {}),
      content: content || bodyless(page),
      description: page.meta.description,
      version: page.version,
      language: page.language,
      versions: page.versions,
      languages: page.languages,
      groups,
      tags,
      ...operation,
    }
  })
}

/**
 * The operation as a page shows it: `` `GET /users/{id}` ``. Here rather than in frontmatter.ts, which brings the YAML
 * parser: serving loads this module at start, and the parser only when docs are read.
 */
export const operationLine = (endpoint: NonNullable<PageMeta['endpoint']>) => `\`${endpoint.method} ${endpoint.path}\``
/** What follows the operation where a page's text shows it: `` `GET /users/{id}` (API endpoint) ``. */
export const OPERATION_NOTE = ' (API endpoint)'

/**
 * What a page with no body says: its description or title and, for an API operation generated from a spec, the
 * operation itself, which is what a reader asking for "the endpoint to get a deployment's status" wants to see, named
 * as the API's: "api to check whether a deployment finished" is answered by it, not by a page that says "finish".
 */
function bodyless(page: DocPage): string {
  const what = page.meta.description || page.title
  return page.meta.endpoint ? `${what}\n\n${operationLine(page.meta.endpoint)}${OPERATION_NOTE}` : what
}

/**
 * A page that documents an API operation is found by what readers call it ("the API", "an endpoint") and by its
 * method and path, which its frontmatter holds and its (often empty) body does not.
 */
function endpointTags(endpoint: DocPage['meta']['endpoint']): string[] {
  return endpoint ? ['API endpoint', endpoint.method, endpoint.path] : []
}

function draftsOf(title: string, blocks: Block[]): Draft[] {
  const slugger = new GithubSlugger()
  const trail: Array<{ depth: number; text: string }> = []
  const drafts: Draft[] = [{ headings: [title], subheadings: [], anchor: '', from: 0, to: 0, size: 0 }]
  blocks.forEach((block, index) => {
    const current = drafts.at(-1)!
    if (block.kind === 'text') {
      if (current.to === current.from) current.from = index
      current.to = index + 1
      current.size += block.markdown.length
      return
    }
    // The page's own top heading repeats its title: it opens no section.
    if (index === 0 && block.depth === 1) return
    while (trail.length > 0 && trail.at(-1)!.depth >= block.depth) trail.pop()
    trail.push({ depth: block.depth, text: block.text })
    drafts.push({
      headings: [title, ...trail.map((h) => h.text)],
      subheadings: [],
      anchor: slugger.slug(block.text),
      heading: index,
      from: index + 1,
      to: index + 1,
      size: 0,
    })
  })
  return drafts
}

function mergeTiny(drafts: Draft[], blocks: Block[], { minChars, maxChars }: ChunkOptions): Draft[] {
  const out: Draft[] = []
  for (const draft of drafts) {
    const current = out.at(-1)
    const fits = current && current.size + draft.size <= maxChars
    if (current && fits && (current.size < minChars || draft.size < minChars)) {
      // The merged section keeps the heading's own line, so its blocks run on without a gap.
      const heading = draft.heading === undefined ? undefined : blocks[draft.heading]!
      if (heading?.kind === 'heading') current.subheadings.push(heading.text)
      current.subheadings.push(...draft.subheadings)
      if (current.to === current.from) current.from = draft.heading ?? draft.from
      current.to = draft.to
      current.size += draft.size + (heading?.markdown.length ?? 0)
    } else {
      out.push(draft)
    }
  }
  return out
}

/** A block by its index, or a piece of a huge block's text. */
type Item = number | string

/** Blocks grouped into pieces of at most `maxChars`, each piece repeating the previous one's last short item (overlap). */
function splitLong(draft: Draft, blocks: Block[], maxChars: number): Item[][] {
  const items: Item[] = []
  for (let i = draft.from; i < draft.to; i++) {
    const markdown = blocks[i]!.markdown
    if (markdown.length > maxChars * 2) items.push(...splitLines(markdown, maxChars))
    else items.push(i)
  }
  const length = (item: Item) => (typeof item === 'number' ? blocks[item]!.markdown.length : item.length)
  const pieces: Item[][] = [[]]
  let size = 0
  for (const item of items) {
    const piece = pieces.at(-1)!
    if (size + length(item) > maxChars && piece.length > 0) {
      const overlap = piece.at(-1)!
      const next = length(overlap) <= maxChars / 4 ? [overlap] : []
      pieces.push(next)
      size = next.reduce((n: number, p) => n + length(p), 0)
    }
    pieces.at(-1)!.push(item)
    size += length(item)
  }
  return pieces
}

/**
 * A huge block (a long code sample or table) cut at line ends, and a line longer than a piece at its last space (a
 * minified file or a page written on one line: 1 MB stayed one section, which search and MCP returned whole); each
 * piece of a code block keeps its fences.
 */
function splitLines(text: string, maxChars: number): string[] {
  // The fence, then its line's end: linear, where `/^(`{3,}|~{3,})[^\n]*\n/` read the line again for every shorter
  // fence it tried when the text had no line break.
  const marker = /^(?:`{3,}|~{3,})/.exec(text)?.[0]
  const lineEnd = text.indexOf('\n')
  const fence =
    marker && lineEnd >= 0 && text.trimEnd().endsWith(marker) ? { opening: text.slice(0, lineEnd + 1), closing: marker } : undefined
  const body = fence ? text.trimEnd().slice(fence.opening.length, -fence.closing.length).replace(/\n$/, '') : text
  const out: string[] = []
  let chunk = ''
  for (const line of body.split('\n').flatMap((line) => lineParts(line, maxChars))) {
    if (chunk && chunk.length + line.length + 1 > maxChars) {
      out.push(chunk)
      chunk = ''
    }
    chunk = chunk ? `${chunk}\n${line}` : line
  }
  if (chunk) out.push(chunk)
  return fence ? out.map((piece) => `${fence.opening}${piece}\n${fence.closing}`) : out
}

/** A line in parts of at most `maxChars`, each cut after its last space when that keeps half of it, else where it ends. */
function lineParts(line: string, maxChars: number): string[] {
  const parts: string[] = []
  let start = 0
  while (line.length - start > maxChars) {
    const space = line.lastIndexOf(' ', start + maxChars - 1)
    const end = space >= start + maxChars / 2 ? space + 1 : start + maxChars
    parts.push(line.slice(start, end))
    start = end
  }
  parts.push(line.slice(start))
  return parts
}

/** `[start, end)` without the white space at either end. */
function trimmed(text: string, start: number, end: number): [number, number] {
  while (start < end && /\s/.test(text[start]!)) start++
  while (end > start && /\s/.test(text[end - 1]!)) end--
  return [start, end]
}
