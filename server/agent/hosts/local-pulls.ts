import { git } from '../../git/isomorphic.ts'
import type { LocalRepository } from '../../git/local-workspace.ts'
import { isJobIdShape } from '../../shapes.ts'

/**
 * The embedded host's "pull request": a small JSON record kept in the bare repository itself, under
 * `refs/docent/pulls/<jobId>` (a ref to a blob), so it lives and goes with the branch it describes.
 */
export interface LocalPullRecord {
  jobId: string
  branch: string
  base: string
  title: string
  body: string
  createdAt: string
  updatedAt: string
  /** Set when the branch was merged into its base (local-merge.ts); a later update of the record opens it again. */
  mergedAt?: string
  mergeCommit?: string
  /** The branch head that was merged. */
  mergedHead?: string
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

function pullRef(jobId: string): string {
  if (!isJobIdShape(jobId)) throw new Error(`invalid job id "${jobId}"`)
  return `refs/docent/pulls/${jobId}`
}

export async function readLocalPull(repo: LocalRepository, jobId: string): Promise<LocalPullRecord | null> {
  const oid = await git.resolveRef({ ...repo, ref: pullRef(jobId) }).catch(() => null)
  if (!oid) return null
  const { blob } = await git.readBlob({ ...repo, oid })
  return JSON.parse(decoder.decode(blob)) as LocalPullRecord
}

export async function writeLocalPull(repo: LocalRepository, record: LocalPullRecord): Promise<void> {
  const oid = await git.writeBlob({ ...repo, blob: encoder.encode(JSON.stringify(record, null, 2)) })
  await git.writeRef({ ...repo, ref: pullRef(record.jobId), value: oid, force: true })
}
