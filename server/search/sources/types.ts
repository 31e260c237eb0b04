/** The text files of a docs site at one revision: paths relative to the docs root, `/`-separated. */
export interface DocsSnapshot {
  files: Map<string, string>
  /** A git commit id, or a content hash for a directory. */
  revision: string
  /** Entries the source did not read (links, submodules, folders too deep), with why: the project's status lists them. */
  skipped?: DocsProblem[]
}

/** A file of the docs that was left out or read in part, and why, in words for the docs team. */
export interface DocsProblem {
  file: string
  problem: string
}

/** Where a project's docs come from. */
export interface DocsSource {
  /** Reads every docs file. */
  load(): Promise<DocsSnapshot>
  /** The revision the source is at now, cheaply (a ref lookup), or undefined when only `load` can tell. */
  currentRevision?(): Promise<string>
}

/** Files a docs site is made of; everything else (images, videos) is not read. */
export const DOCS_FILE = /\.(mdx?|json)$/i

/** Folders that never hold pages. */
export const SKIPPED_FOLDER = /^(\.|node_modules$)/

/**
 * Folders deeper than this are not read, from a directory or a repository alike (no docs site nests pages this deep;
 * the directory walk recursed without bound before, and the two sources disagreed on a 150-level page).
 */
export const MAX_FOLDER_DEPTH = 32

/** Neither source follows links: one could lead out of the docs, to /etc or /proc. */
export const SYMLINK_NOT_FOLLOWED = 'a symbolic link (links are not followed)'

/** A folder past MAX_FOLDER_DEPTH, as both sources report it. */
export const tooDeep = (folder: string): DocsProblem => ({
  file: `${folder}/`,
  problem: `left out: more than ${MAX_FOLDER_DEPTH} folders deep`,
})

/**
 * An entry that is not read (a link, a submodule), reported when its name looks like a page or a folder: one of an
 * image is of no interest, a page that is a link to a shared file would otherwise just be missing.
 */
export const notRead = (path: string, what: string): DocsProblem[] =>
  DOCS_FILE.test(path) || !(path.split('/').at(-1) ?? '').includes('.') ? [{ file: path, problem: `left out: ${what}` }] : []

/**
 * A docs file's text: UTF-8 without its byte-order mark (the parser's offsets do not count it), or UTF-16 when a
 * byte-order mark says so (Windows editors save such files; they were read as NUL-riddled UTF-8 and left out).
 */
export function decodeDocsFile(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2))
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2))
  // TextDecoder drops a UTF-8 byte-order mark by default.
  return new TextDecoder().decode(bytes)
}
