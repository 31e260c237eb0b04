import { git } from '../../git/isomorphic.ts'
import { trimBoth } from '../../../shared/trim.ts'
import { DOCS_FILE, SKIPPED_FOLDER } from './types.ts'

export interface GitTreeLocation {
  fs: Parameters<typeof git.readBlob>[0]['fs']
  /** The repository's git directory (a bare repository, or `<dir>/.git`). */
  gitdir: string
}

/**
 * The docs files of one commit, read from the object store (no checkout): paths relative to `root` (the sub-folder
 * holding docs.json and the pages, '' for the whole repository), skipping hidden and `node_modules` folders.
 */
export async function readDocsTree(repo: GitTreeLocation, oid: string, root: string): Promise<Map<string, string>> {
  const prefix = trimBoth(root, '/')
  const files = new Map<string, string>()
  const decoder = new TextDecoder()
  for (const filepath of await git.listFiles({ ...repo, ref: oid })) {
    const relative = prefix ? (filepath.startsWith(`${prefix}/`) ? filepath.slice(prefix.length + 1) : undefined) : filepath
    if (
      !relative ||
      !DOCS_FILE.test(relative) ||
      relative
        .split('/')
        .slice(0, -1)
        .some((part) => SKIPPED_FOLDER.test(part))
    )
      continue
    const { blob } = await git.readBlob({ ...repo, oid, filepath })
    files.set(relative, decoder.decode(blob))
  }
  return files
}
