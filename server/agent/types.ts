import type { PullRequestRef } from '../store/types.ts'

// The workspace is git's (server/git/types.ts); re-exported for the agent modules that only need its shape.
export type { Workspace } from '../git/types.ts'

export interface PullRequestInput {
  jobId: string
  /** The branch the agent pushed (`docent/<slug>-<short id>`). */
  branch: string
  /** The branch the PR targets (the job's `source.ref`). */
  base: string
  /** Title and description of a pull request this run opens. */
  title: string
  body: string
  /**
   * What this run adds to the description of a pull request that already exists (a follow-up's section), appended once;
   * the existing title and description are kept. Null: an existing one is left as it is.
   */
  addition: string | null
  /** The PR opened by an earlier run of the same job, to update instead of opening another. */
  existing: PullRequestRef | null
}

export type PullRequestState = 'open' | 'merged' | 'closed' | 'unknown'

/** Where pull requests are opened: local (embedded), GitHub (and Gitea/Forgejo), GitLab. */
export interface GitHost {
  readonly kind: string
  /** Opens a PR, or updates `existing` (or the open PR for the same branch): idempotent per job. */
  openOrUpdatePullRequest(input: PullRequestInput, options?: { signal?: AbortSignal }): Promise<PullRequestRef>
  /**
   * Whether a pull request still waits for review: `unknown` when the host cannot tell (it is gone, or the API
   * failed). The local host reads it from git: the branch reached its base (merged) or was deleted (closed).
   */
  pullRequestState?(
    pr: PullRequestRef,
    where: { branch: string | null; base: string },
    options?: { signal?: AbortSignal },
  ): Promise<PullRequestState>
}
