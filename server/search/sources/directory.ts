// Reading a docs directory needs a filesystem: this module is the one place in search that imports `node:`,
// and it is loaded with a dynamic import() only when a project's docs are a directory (Node, Deno and Bun all have it).
import { readdir, readFile } from 'node:fs/promises'
import { trimEnd } from '../../../shared/trim.ts'
import { contentRevision } from '../revision.ts'
import { DOCS_FILE, type DocsSnapshot, type DocsSource, SKIPPED_FOLDER } from './types.ts'

export function directorySource(directory: string): DocsSource {
  return { load: () => readDirectory(directory) }
}

export async function readDirectory(directory: string): Promise<DocsSnapshot> {
  const files = new Map<string, string>()
  const root = trimEnd(directory, '/')
  const walk = async (relative: string, depth: number): Promise<void> => {
    if (depth > 32) return
    const entries = await readdir(relative ? `${root}/${relative}` : root, { withFileTypes: true })
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDER.test(entry.name)) await walk(path, depth + 1)
      } else if (entry.isFile() && DOCS_FILE.test(entry.name)) {
        // Without a byte-order mark, as the git sources' TextDecoder reads files: the parser's offsets do not count it,
        // and a page saved with one was sliced a character off.
        files.set(path, (await readFile(`${root}/${path}`, 'utf8')).replace(/^\uFEFF/, ''))
      }
    }
  }
  await walk('', 0)
  return { files, revision: await contentRevision(files) }
}
