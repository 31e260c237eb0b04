import { git } from '../../git/isomorphic.ts'
import { type GitTreeLocation, readDocsTree } from './git-tree.ts'
import type { DocsSnapshot, DocsSource } from './types.ts'

export interface LocalRepositorySourceOptions {
  /** Opens the bare repository (the embedded git host's, made from its seed folder on first use). */
  open: () => Promise<GitTreeLocation>
  /** The branch served. */
  ref: string
  root: string
}

/**
 * Docs from a `local:<name>` repository of the embedded git host: the repository the agent pushes to, so a merge into
 * the served branch moves the revision and the next refresh reloads the index. Reading is from disk, no clone.
 */
export function localRepositorySource(options: LocalRepositorySourceOptions): DocsSource {
  const head = async (repo: GitTreeLocation) => {
    const oid = await git.resolveRef({ ...repo, ref: `refs/heads/${options.ref}` }).catch(() => null)
    if (!oid) throw new Error(`docs repository has no branch "${options.ref}"`)
    return oid
  }
  return {
    currentRevision: async () => head(await options.open()),
    async load(): Promise<DocsSnapshot> {
      const repo = await options.open()
      const oid = await head(repo)
      return { ...(await readDocsTree(repo, oid, options.root)), revision: oid }
    },
  }
}
