import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import type { AutomationRecord, AutomationRunRecord, CodeChangeRecord } from '../store/types.ts'
import type { MergedChange } from './changelog/classify.ts'
import { localRepositoryOf } from './content.ts'

/** The most changes a run reads: a changelog entry or a prompt longer than this helps nobody. */
const MAX_CHANGES = 200
const MAX_BODY = 2_000

/** Where "since the last run" starts: the last completed run of the automation, else when it was turned on. */
export interface Since {
  at: Date
  /** The base branch's commit the last completed run started from: commits after it are new. */
  commit: string | null
  /** No run completed before: `at` is when the automation was turned on. */
  first: boolean
}

export async function sinceLastRun(ctx: DocentContext, automation: AutomationRecord, current: AutomationRunRecord): Promise<Since> {
  let cursor: string | undefined
  for (let pages = 0; pages < 10; pages++) {
    const page = await ctx.store.listAutomationRuns(automation.projectId, automation.id, { limit: 20, cursor })
    const last = page.items.find((run) => run.id !== current.id && run.status === 'completed' && run.startedAt <= current.startedAt)
    if (last) return { at: last.startedAt, commit: last.baseCommit, first: false }
    if (!page.nextCursor) break
    cursor = page.nextCursor
  }
  return { at: automation.scheduleFrom ?? automation.createdAt, commit: null, first: true }
}

/**
 * What merged since `since`, oldest first: the pull/merge requests and commits webhooks reported (code repositories,
 * and pushes to the docs repository), then, on the embedded local host, the commits of the base branch from `head`
 * back to the last run's commit. Docent's own commits (its `Docent-Job` trailer, or the agent's author) are left out.
 */
export async function mergedChangesSince(
  ctx: DocentContext,
  project: ProjectConfig,
  since: Since,
  until: Date,
  head: string | null,
  repositories?: readonly string[],
): Promise<MergedChange[]> {
  const reported = await ctx.store.listCodeChanges(project.id, { after: since.at, until, limit: MAX_CHANGES })
  const changes = reported.filter((change) => !repositories?.length || repositories.includes(change.repository)).map(fromRecord)
  const local = localRepositoryOf(project)
  if (local && head) changes.push(...(await localCommits(ctx, project, local.name, head, since)))
  return changes.slice(-MAX_CHANGES)
}

function fromRecord(change: CodeChangeRecord): MergedChange {
  return {
    kind: change.kind,
    id: change.ref,
    title: change.title,
    ...(change.body ? { body: change.body.slice(0, MAX_BODY) } : {}),
    labels: change.labels,
    ...(change.url ? { url: change.url } : {}),
    ...(change.kind === 'pull_request' && /^\d+$/.test(change.ref) ? { number: Number(change.ref) } : {}),
  }
}

async function localCommits(ctx: DocentContext, project: ProjectConfig, name: string, head: string, since: Since): Promise<MergedChange[]> {
  const { default: git } = await import('isomorphic-git')
  const repo = await ctx.agentGit.localRepositories.open(name)
  const author = project.agent?.author.email
  const commits = await git.log({ ...repo, ref: head, depth: MAX_CHANGES }).catch(() => [])
  const changes: MergedChange[] = []
  for (const { oid, commit } of commits) {
    if (oid === since.commit) break
    // Commit times are whole seconds: a commit in the second the automation was turned on counts as after it.
    if (!since.commit && commit.committer.timestamp < Math.floor(since.at.getTime() / 1000)) break
    if (/^Docent-Job: /m.test(commit.message) || commit.author.email === author) continue
    const [title = '', ...rest] = commit.message.trim().split('\n')
    const body = rest.join('\n').trim()
    changes.push({ kind: 'commit', id: oid, title: title.trim(), ...(body ? { body: body.slice(0, MAX_BODY) } : {}) })
  }
  return changes.reverse()
}

/** The changes as a prompt's context: one block per change, titles, links and the start of each description. */
export function describeChanges(changes: readonly MergedChange[]): string {
  if (changes.length === 0) return '(nothing merged since the last run)'
  return changes
    .map((change) => {
      const head =
        change.kind === 'pull_request' ? `Pull request #${change.id}: ${change.title}` : `Commit ${change.id.slice(0, 12)}: ${change.title}`
      const labels = change.labels?.length ? `\nLabels: ${change.labels.join(', ')}` : ''
      const url = change.url ? `\n${change.url}` : ''
      const body = change.body ? `\n\n${change.body.slice(0, 1_000)}` : ''
      return `${head}${labels}${url}${body}`
    })
    .join('\n\n---\n\n')
}
