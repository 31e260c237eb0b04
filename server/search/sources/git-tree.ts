import { git } from '../../git/isomorphic.ts'
import { trimBoth } from '../../../shared/trim.ts'
import {
  decodeDocsFile,
  DOCS_FILE,
  type DocsProblem,
  MAX_FOLDER_DEPTH,
  notRead,
  SKIPPED_FOLDER,
  SYMLINK_NOT_FOLLOWED,
  tooDeep,
} from './types.ts'

export interface GitTreeLocation {
  fs: Parameters<typeof git.readBlob>[0]['fs']
  /** The repository's git directory (a bare repository, or `<dir>/.git`). */
  gitdir: string
}

/** Git's modes for a symbolic link and a submodule (a gitlink: another repository's commit, not in this one). */
const SYMLINK = '120000'
const SUBMODULE = '160000'

/**
 * The docs files of one commit, read from the object store (no checkout): paths relative to `root` (the sub-folder
 * holding docs.json and the pages, '' for the whole repository), skipping hidden and `node_modules` folders. Links and
 * submodules are not read, as the directory source does not follow links: a link's blob is its target's path (it became
 * a page whose text was `/etc/passwd`), and a submodule's commit is not in this repository (reading it failed every
 * refresh). Both are in `skipped`. A root that is not a folder of the commit fails the load, and the last good docs
 * stay served: an emptied index is never the answer to a mistyped or moved root.
 */
export async function readDocsTree(
  repo: GitTreeLocation,
  oid: string,
  root: string,
): Promise<{ files: Map<string, string>; skipped: DocsProblem[] }> {
  const prefix = trimBoth(root, '/')
  const files = new Map<string, string>()
  const skipped: DocsProblem[] = []
  // One cache for the whole walk: isomorphic-git keeps the parsed pack index in it instead of re-reading it per object.
  const cache = {}
  const start = await git.readTree({ ...repo, oid, filepath: prefix || undefined, cache }).catch((error: unknown) => {
    if (prefix && (error as { code?: string }).code === 'NotFoundError') {
      throw new Error(`the docs root "${prefix}" is not a folder of commit ${oid.slice(0, 12)}`)
    }
    throw error
  })
  const walk = async (tree: Awaited<ReturnType<typeof git.readTree>>['tree'], folder: string, depth: number): Promise<void> => {
    for (const entry of tree) {
      const path = folder ? `${folder}/${entry.path}` : entry.path
      if (entry.type === 'tree') {
        if (SKIPPED_FOLDER.test(entry.path)) continue
        if (depth >= MAX_FOLDER_DEPTH) skipped.push(tooDeep(path))
        else await walk((await git.readTree({ ...repo, oid: entry.oid, cache })).tree, path, depth + 1)
      } else if (entry.mode === SYMLINK) {
        skipped.push(...notRead(path, SYMLINK_NOT_FOLLOWED))
      } else if (entry.mode === SUBMODULE) {
        skipped.push(...notRead(path, 'a git submodule (not read)'))
      } else if (DOCS_FILE.test(entry.path)) {
        files.set(path, decodeDocsFile((await git.readBlob({ ...repo, oid: entry.oid, cache })).blob))
      }
    }
  }
  await walk(start.tree, '', 0)
  return { files, skipped }
}
