import { DELETED, pushedCommits, record, strings, list, text } from './read.ts'
import type { WebhookEvent } from './types.ts'

/**
 * A GitHub delivery (`X-GitHub-Event` and its JSON) as Docent's event: `push` to a branch, and `pull_request` closed
 * with `merged: true`. Anything else (ping, opened, a closed PR that did not merge, a deleted branch) is null.
 */
export function githubEvent(name: string | undefined, payload: unknown): WebhookEvent | null {
  const body = record(payload)
  const repository = text(record(body.repository).full_name)
  if (!repository) return null
  if (name === 'push') {
    const [ref, before, after] = [text(body.ref), text(body.before), text(body.after)]
    if (!ref || !before || !after || DELETED.test(after) || body.deleted === true) return null
    return { kind: 'push', host: 'github', repository, ref, before, after, commits: pushedCommits(body.commits) }
  }
  if (name === 'pull_request') {
    const pull = record(body.pull_request)
    if (body.action !== 'closed' || pull.merged !== true || typeof pull.number !== 'number') return null
    return {
      kind: 'merged',
      host: 'github',
      repository,
      number: pull.number,
      title: text(pull.title) ?? '',
      body: text(pull.body) ?? '',
      labels: list(pull.labels).flatMap((label) => strings([record(label).name])),
      mergeCommit: text(pull.merge_commit_sha),
      url: text(pull.html_url) ?? `https://github.com/${repository}/pull/${pull.number}`,
      baseRef: text(record(pull.base).ref) ?? '',
      headRef: text(record(pull.head).ref) ?? '',
    }
  }
  return null
}
