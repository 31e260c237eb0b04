/**
 * What Docent reads of a host's webhook: a push to a branch, or a pull/merge request that was merged or closed. The
 * gap loop (server/webhooks/dispatch.ts) and the listeners of `ctx.webhooks` (automations) read these, never the
 * hosts' payloads.
 */

export type HostEvent = PushEvent | PullRequestEvent | { kind: 'other' }

export interface PushEvent {
  kind: 'push'
  repository: RepositoryIds
  /** The branch pushed to; null for a tag. */
  branch: string | null
  before: string | null
  /** The commit the branch moved to; all zeros when the branch was deleted. */
  after: string | null
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

export interface PullRequestEvent {
  kind: 'pull_request'
  action: 'merged' | 'closed'
  repository: RepositoryIds
  /** The pull request's number, the merge request's iid. */
  number: string
  /** The branch it came from, and the one it merged into. */
  branch: string | null
  base: string | null
  /** The commit that landed on the base branch (merge, squash or rebase head), when the host says. */
  mergeCommit: string | null
  title: string
  body: string
  labels: string[]
  url: string | null
}

/** Every way the payload names its repository: `owner/name` (or GitLab path), numeric id, clone and web URLs. */
export interface RepositoryIds {
  path: string | null
  id: string | null
  urls: string[]
}

type Json = Record<string, unknown>
const object = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {})
const text = (value: unknown): string | null =>
  typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : null
const urls = (...values: unknown[]) => values.map(text).filter((value): value is string => value !== null)
const branchOf = (ref: unknown) => text(ref)?.replace(/^refs\/heads\//, '') ?? null
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const strings = (value: unknown): string[] => list(value).filter((item): item is string => typeof item === 'string')

/** A pull request's number (a merge request's iid) as hosts send it, a positive integer; null for anything else. */
const pullNumber = (value: unknown): string | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? String(value) : null

/** A deleted branch's push moves it to this id: nothing was pushed to read. */
export const isDeletedBranchHead = (id: string): boolean => id === '0'.repeat(40)

/** A push's commits as both hosts send them (`id`, `message`, `url`, `author`, `added`/`modified`/`removed`). */
function pushedCommits(value: unknown): PushedCommit[] {
  return list(value).flatMap((item) => {
    const commit = object(item)
    const id = text(commit.id)
    if (!id) return []
    const author = object(commit.author)
    const email = text(author.email)
    return [
      {
        id,
        message: text(commit.message) ?? '',
        url: text(commit.url),
        author: email !== null ? { name: text(author.name) ?? '', email } : null,
        files: [...strings(commit.added), ...strings(commit.modified), ...strings(commit.removed)],
      },
    ]
  })
}

function pushOf(body: Json, repository: RepositoryIds): PushEvent {
  const ref = text(body.ref)
  return {
    kind: 'push',
    repository,
    branch: ref?.startsWith('refs/heads/') ? branchOf(ref) : null,
    before: text(body.before),
    after: text(body.after),
    commits: pushedCommits(body.commits),
  }
}

/** A GitHub (or Gitea/Forgejo) delivery: `X-GitHub-Event` names it. */
export function gitHubEvent(event: string, payload: unknown): HostEvent {
  const body = object(payload)
  const repo = object(body.repository)
  const repository: RepositoryIds = {
    path: text(repo.full_name),
    id: text(repo.id),
    urls: urls(repo.clone_url, repo.html_url, repo.git_url, repo.ssh_url),
  }
  if (event === 'push') return pushOf(body, repository)
  // A closed pull request names itself: a payload without one, or without its number, is not one.
  const pull = object(body.pull_request)
  const number = pullNumber(pull.number)
  if (event === 'pull_request' && body.action === 'closed' && number) {
    return {
      kind: 'pull_request',
      // `merged` says it when the host sends it (GitHub, Gitea, Forgejo): a merge time beside `merged: false` does not.
      action: pull.merged === true || (pull.merged === undefined && text(pull.merged_at)) ? 'merged' : 'closed',
      repository,
      number,
      branch: text(object(pull.head).ref),
      base: text(object(pull.base).ref),
      mergeCommit: text(pull.merge_commit_sha),
      title: text(pull.title) ?? '',
      body: text(pull.body) ?? '',
      labels: list(pull.labels).flatMap((label) => strings([object(label).name])),
      url: text(pull.html_url),
    }
  }
  return { kind: 'other' }
}

/** A GitLab delivery: the body's `object_kind` names it (`push`, `merge_request`). */
export function gitLabEvent(payload: unknown): HostEvent {
  const body = object(payload)
  const project = object(body.project)
  const repository: RepositoryIds = {
    path: text(project.path_with_namespace),
    id: text(project.id) ?? text(body.project_id),
    urls: urls(project.git_http_url, project.web_url, project.http_url, project.git_ssh_url),
  }
  if (body.object_kind === 'push') return pushOf(body, repository)
  if (body.object_kind === 'merge_request') {
    const mr = object(body.object_attributes)
    const action = text(mr.action)
    const merged = action === 'merge' || (action === null && mr.state === 'merged')
    const number = pullNumber(mr.iid)
    if ((!merged && action !== 'close') || !number) return { kind: 'other' }
    return {
      kind: 'pull_request',
      action: merged ? 'merged' : 'closed',
      repository,
      number,
      branch: text(mr.source_branch),
      base: text(mr.target_branch),
      // A fast-forward merge has no merge commit: the source branch's last commit is what the target now holds.
      mergeCommit: text(mr.merge_commit_sha) ?? text(object(mr.last_commit).id),
      title: text(mr.title) ?? '',
      body: text(mr.description) ?? '',
      labels: list(body.labels).flatMap((label) => strings([object(label).title])),
      url: text(mr.url) ?? (text(project.web_url) ? `${text(project.web_url)}/-/merge_requests/${number}` : null),
    }
  }
  return { kind: 'other' }
}
