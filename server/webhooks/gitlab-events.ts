import { DELETED, list, pushedCommits, record, strings, text } from './read.ts'
import type { WebhookEvent } from './types.ts'

/**
 * A GitLab delivery (`X-Gitlab-Event` and its JSON) as Docent's event: a `Push Hook`, and a `Merge Request Hook` whose
 * action is `merge`. Anything else (other actions, tag pushes, a deleted branch) is null.
 */
export function gitlabEvent(name: string | undefined, payload: unknown): WebhookEvent | null {
  const body = record(payload)
  const project = record(body.project)
  const repository = text(project.path_with_namespace)
  if (!repository) return null
  if (name === 'Push Hook' && body.object_kind === 'push') {
    const [ref, before, after] = [text(body.ref), text(body.before), text(body.after)]
    if (!ref || !before || !after || DELETED.test(after)) return null
    return { kind: 'push', host: 'gitlab', repository, ref, before, after, commits: pushedCommits(body.commits) }
  }
  if (name === 'Merge Request Hook' && body.object_kind === 'merge_request') {
    const mr = record(body.object_attributes)
    if (mr.action !== 'merge' || typeof mr.iid !== 'number') return null
    const web = text(project.web_url)
    return {
      kind: 'merged',
      host: 'gitlab',
      repository,
      number: mr.iid,
      title: text(mr.title) ?? '',
      body: text(mr.description) ?? '',
      labels: list(body.labels).flatMap((label) => strings([record(label).title])),
      mergeCommit: text(mr.merge_commit_sha) ?? text(record(mr.last_commit).id),
      url: text(mr.url) ?? (web ? `${web}/-/merge_requests/${mr.iid}` : ''),
      baseRef: text(mr.target_branch) ?? '',
      headRef: text(mr.source_branch) ?? '',
    }
  }
  return null
}
