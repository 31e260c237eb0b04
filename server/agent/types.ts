import type { PullRequestRef } from '../store/types.ts'

// The workspace is git's (server/git/types.ts); re-exported for the agent modules that only need its shape.
export type { Workspace } from '../git/types.ts'

export interface PullRequestInput {
  jobId: string
  /** The branch the agent pushed (`docent/<slug>-<short id>`). */
  branch: string
  /** The branch the PR targets (the job's `source.ref`). */
  base: string
  title: string
  body: string
  /** The PR opened by an earlier run of the same job, to update instead of opening another. */
  existing: PullRequestRef | null
}

/** Where pull requests are opened: local (embedded), GitHub (and Gitea/Forgejo), GitLab. */
export interface GitHost {
  readonly kind: string
  /** Opens a PR, or updates `existing` (or the open PR for the same branch): idempotent per job. */
  openOrUpdatePullRequest(input: PullRequestInput, options?: { signal?: AbortSignal }): Promise<PullRequestRef>
}
