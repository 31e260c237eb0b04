import type { Block } from './page-blocks.ts'
import { readPage } from './parse-page.ts'

/** `import Name from '...md(x)'` in a page's text (a superset of the imports its MDX tree has). */
const IMPORT = /import\s+\w+\s+from\s+["']([^"']+\.mdx?)["']/g

/** An import path of a page, as a file of the snapshot: `/snippets/x.mdx` is from the root, `./x.mdx` from the page's folder. */
export function resolveImport(fromFile: string, importPath: string): string {
  if (importPath.startsWith('/')) return importPath.replace(/^\/+/, '')
  const parts = fromFile.split('/').slice(0, -1)
  for (const part of importPath.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.' && part !== '') parts.push(part)
  }
  return parts.join('/')
}

/**
 * The `snippet` option of parsePage: an imported file's blocks, each file parsed once (a snippet may import others).
 * `resolved` hears of every file looked up, so a later revision knows which files its pages depend on.
 */
export function snippetResolver(
  readFile: (file: string) => string | undefined,
  resolved: (file: string, text: string | undefined) => void,
) {
  const snippets = new Map<string, Block[] | null>()
  const snippet =
    (from: string) =>
    (importPath: string): Block[] | undefined => {
      const file = resolveImport(from, importPath)
      if (!snippets.has(file)) {
        const text = readFile(file)
        resolved(file, text)
        snippets.set(file, null) // a snippet importing itself stops here
        if (text !== undefined) snippets.set(file, readPage(file, text, { snippet: snippet(file) }).blocks)
      }
      return snippets.get(file) ?? undefined
    }
  return snippet
}

/** The files that the given pages import, directly or through other imported files, with their texts. */
export function importedFiles(pages: Iterable<[file: string, text: string]>, files: Map<string, string>): Map<string, string> {
  const found = new Map<string, string>()
  const visit = (file: string, text: string) => {
    for (const match of text.matchAll(IMPORT)) {
      const target = resolveImport(file, match[1]!)
      const targetText = files.get(target)
      if (targetText === undefined || found.has(target)) continue
      found.set(target, targetText)
      visit(target, targetText)
    }
  }
  for (const [file, text] of pages) visit(file, text)
  return found
}
