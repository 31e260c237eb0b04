import { git } from './isomorphic.ts'
import type { GitFs } from './object-workspace.ts'

export interface ChangedFile {
  path: string
  kind: 'added' | 'modified' | 'deleted'
  before: Uint8Array | null
  after: Uint8Array | null
}

/** Files that differ between two commits; equal subtrees are skipped by id, so cost follows the change, not the repo. */
export async function diffCommits(repo: { fs: GitFs; gitdir: string }, from: string, to: string): Promise<ChangedFile[]> {
  const cache = {}
  const treeOf = async (commit: string) => (await git.readCommit({ ...repo, oid: commit, cache })).commit.tree
  const entries = async (tree: string | null) => {
    const map = new Map<string, { oid: string; type: string }>()
    if (tree) {
      for (const entry of (await git.readTree({ ...repo, oid: tree, cache })).tree) map.set(entry.path, entry)
    }
    return map
  }
  const blob = async (oid: string) => (await git.readBlob({ ...repo, oid, cache })).blob
  const out: ChangedFile[] = []
  const walk = async (a: string | null, b: string | null, prefix: string): Promise<void> => {
    if (a === b) return
    const [left, right] = await Promise.all([entries(a), entries(b)])
    for (const name of [...new Set([...left.keys(), ...right.keys()])].sort()) {
      const before = left.get(name)
      const after = right.get(name)
      if (before?.oid === after?.oid && before?.type === after?.type) continue
      const path = prefix + name
      const beforeTree = before?.type === 'tree' ? before.oid : null
      const afterTree = after?.type === 'tree' ? after.oid : null
      if (beforeTree || afterTree) await walk(beforeTree, afterTree, `${path}/`)
      const beforeBlob = before?.type === 'blob' ? before.oid : null
      const afterBlob = after?.type === 'blob' ? after.oid : null
      if (beforeBlob || afterBlob) {
        out.push({
          path,
          kind: !beforeBlob ? 'added' : !afterBlob ? 'deleted' : 'modified',
          before: beforeBlob ? await blob(beforeBlob) : null,
          after: afterBlob ? await blob(afterBlob) : null,
        })
      }
    }
  }
  await walk(await treeOf(from), await treeOf(to), '')
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0))
}
