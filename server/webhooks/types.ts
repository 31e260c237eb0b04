/**
 * A webhook delivery from GitHub or GitLab, read into one shape. Listeners (automations, the gap loop) see these and
 * never the hosts' payloads.
 */
export type WebhookEvent = PushEvent | MergedEvent

export type WebhookHost = 'github' | 'gitlab'

/** Commits pushed to a branch. */
export interface PushEvent {
  kind: 'push'
  host: WebhookHost
  /** `owner/name` (GitHub) or `group/name` (GitLab). */
  repository: string
  /** The full ref, `refs/heads/main`. */
  ref: string
  before: string
  after: string
  commits: PushedCommit[]
}

export interface PushedCommit {
  id: string
  message: string
  url: string | null
  author: { name: string; email: string } | null
  /** Paths added, modified or removed. */
  files: string[]
}

/** A pull request (GitHub) or merge request (GitLab) merged. */
export interface MergedEvent {
  kind: 'merged'
  host: WebhookHost
  repository: string
  /** The pull request's number, the merge request's iid. */
  number: number
  title: string
  body: string
  labels: string[]
  /** The commit that landed on the base branch (merge, squash or rebase head), when the host says. */
  mergeCommit: string | null
  url: string
  /** The branch it merged into. */
  baseRef: string
  /** The branch it came from. */
  headRef: string
}

/** Hears a verified, normalised delivery; returns how many runs it started (for the delivery's answer), or nothing. */
export type WebhookListener = (event: WebhookEvent) => Promise<number | undefined> | number | undefined
