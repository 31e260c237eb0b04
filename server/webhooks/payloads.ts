/** What Docent reads of a host's webhook: a push to a branch, or a pull/merge request that was merged or closed. */
export type HostEvent =
  | { kind: 'push'; repository: RepositoryIds; branch: string | null; after: string | null }
  | {
      kind: 'pull_request'
      action: 'merged' | 'closed'
      repository: RepositoryIds
      number: string
      branch: string | null
      base: string | null
      mergeCommit: string | null
    }
  | { kind: 'other' }

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

/** A GitHub (or Gitea/Forgejo) delivery: `X-GitHub-Event` names it. */
export function gitHubEvent(event: string, payload: unknown): HostEvent {
  const body = object(payload)
  const repo = object(body.repository)
  const repository: RepositoryIds = {
    path: text(repo.full_name),
    id: text(repo.id),
    urls: urls(repo.clone_url, repo.html_url, repo.git_url, repo.ssh_url),
  }
  if (event === 'push') {
    const ref = text(body.ref)
    return { kind: 'push', repository, branch: ref?.startsWith('refs/heads/') ? branchOf(ref) : null, after: text(body.after) }
  }
  if (event === 'pull_request' && body.action === 'closed') {
    const pull = object(body.pull_request)
    return {
      kind: 'pull_request',
      action: pull.merged === true || text(pull.merged_at) ? 'merged' : 'closed',
      repository,
      number: text(pull.number) ?? text(body.number) ?? '',
      branch: text(object(pull.head).ref),
      base: text(object(pull.base).ref),
      mergeCommit: text(pull.merge_commit_sha),
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
  if (body.object_kind === 'push') {
    const ref = text(body.ref)
    return { kind: 'push', repository, branch: ref?.startsWith('refs/heads/') ? branchOf(ref) : null, after: text(body.after) }
  }
  if (body.object_kind === 'merge_request') {
    const mr = object(body.object_attributes)
    const action = text(mr.action)
    const merged = action === 'merge' || (action === null && mr.state === 'merged')
    if (!merged && action !== 'close') return { kind: 'other' }
    return {
      kind: 'pull_request',
      action: merged ? 'merged' : 'closed',
      repository,
      number: text(mr.iid) ?? '',
      branch: text(mr.source_branch),
      base: text(mr.target_branch),
      // A fast-forward merge has no merge commit: the source branch's last commit is what the target now holds.
      mergeCommit: text(mr.merge_commit_sha) ?? text(object(mr.last_commit).id),
    }
  }
  return { kind: 'other' }
}

/** `https://user@github.com/Acme/Docs.git/` and `github.com/acme/docs` are one repository. */
export function sameRepositoryUrl(a: string, b: string): boolean {
  const norm = (url: string) =>
    url
      .trim()
      .toLowerCase()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
      .replace(/^[^@/]*@/, '')
      .replace(/:(?=[^/\d])/, '/')
      .replace(/\/+$/, '')
      .replace(/\.git$/, '')
  return norm(a) === norm(b)
}
