/** The text files of a docs site at one revision: paths relative to the docs root, `/`-separated. */
export interface DocsSnapshot {
  files: Map<string, string>
  /** A git commit id, or a content hash for a directory. */
  revision: string
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
