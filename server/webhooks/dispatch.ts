import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { sameRepositoryUrl } from '../git/repository-url.ts'
import type { HostEvent, RepositoryIds } from './payloads.ts'

export type HostKind = 'github' | 'gitlab'

/** Whether the project's agent opens its pull requests in this repository. */
function agentRepository(project: ProjectConfig, kind: HostKind, repository: RepositoryIds): boolean {
  const agent = project.agent
  if (!agent || agent.host.kind !== kind) return false
  const named =
    agent.host.kind === 'github'
      ? repository.path?.toLowerCase() === agent.host.repo.toLowerCase()
      : repository.path?.toLowerCase() === agent.host.project.toLowerCase() || repository.id === agent.host.project
  return named || repository.urls.some((url) => sameRepositoryUrl(url, agent.repository))
}

/** The branch the project's docs are served from, when they come from this repository. */
function docsBranch(project: ProjectConfig, repository: RepositoryIds): string | null {
  const docs = project.docs
  if (!('repository' in docs)) return null
  return repository.urls.some((url) => sameRepositoryUrl(url, docs.repository)) ? docs.ref : null
}

/**
 * What Docent does with a verified host event: a merged pull request moves the gap its job fixes on to
 * verification, a closed one opens the gap again, and a push to the branch a project's docs are served from
 * reloads them. Returns what was done, for the host's delivery log.
 */
export async function handleHostEvent(ctx: DocentContext, kind: HostKind, event: HostEvent): Promise<string[]> {
  const actions: string[] = []
  if (event.kind === 'other') return actions
  for (const project of ctx.config.projects) {
    if (event.kind === 'pull_request' && agentRepository(project, kind, event.repository)) {
      const match = { number: event.number, ...(event.branch ? { branch: event.branch } : {}) }
      if (event.action === 'merged') {
        const gaps = await ctx.analytics.gaps.pullRequestMerged(project, match, event.mergeCommit)
        actions.push(`${project.id}: pull request ${event.number} merged${gaps > 0 ? `; ${gaps} gap(s) to verify` : ''}`)
      } else {
        const gaps = await ctx.analytics.gaps.pullRequestClosed(project, match)
        actions.push(`${project.id}: pull request ${event.number} closed${gaps > 0 ? `; ${gaps} gap(s) open again` : ''}`)
      }
    }
    if (event.kind === 'push' && event.branch && docsBranch(project, event.repository) === event.branch) {
      ctx.analytics.track('docs reload', () => ctx.search.refresh(project.id))
      actions.push(`${project.id}: docs reload`)
    }
  }
  return actions
}
