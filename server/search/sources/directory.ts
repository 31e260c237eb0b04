// Reading a docs directory needs a filesystem: this module is the one place in search that imports `node:`,
// and it is loaded with a dynamic import() only when a project's docs are a directory (Node, Deno and Bun all have it).
import { readdir, readFile } from 'node:fs/promises'
import { trimEnd } from '../../../shared/trim.ts'
import { contentRevision } from '../revision.ts'
import {
  decodeDocsFile,
  DOCS_FILE,
  type DocsProblem,
  type DocsSnapshot,
  type DocsSource,
  MAX_FOLDER_DEPTH,
  notRead,
  SKIPPED_FOLDER,
  SYMLINK_NOT_FOLLOWED,
  tooDeep,
} from './types.ts'

export function directorySource(directory: string): DocsSource {
  return { load: () => readDirectory(directory) }
}

export async function readDirectory(directory: string): Promise<DocsSnapshot> {
  const files = new Map<string, string>()
  const skipped: DocsProblem[] = []
  const root = trimEnd(directory, '/')
  const walk = async (relative: string, depth: number): Promise<void> => {
    const entries = await readdir(relative ? `${root}/${relative}` : root, { withFileTypes: true })
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name
      if (entry.isDirectory()) {
        if (SKIPPED_FOLDER.test(entry.name)) continue
        if (depth >= MAX_FOLDER_DEPTH) skipped.push(tooDeep(path))
        else await walk(path, depth + 1)
      } else if (entry.isSymbolicLink()) {
        skipped.push(...notRead(path, SYMLINK_NOT_FOLLOWED))
      } else if (entry.isFile() && DOCS_FILE.test(entry.name)) {
        files.set(path, decodeDocsFile(await readFile(`${root}/${path}`)))
      }
    }
  }
  await walk('', 0)
  return { files, revision: await contentRevision(files), skipped }
}
