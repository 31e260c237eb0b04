import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { isCommitId } from '../shapes.ts'

/**
 * The revision of the docs a content trigger watches. On the embedded local host, the head of the agent's base
 * branch in its own repository (moved by the agent's direct merges, a merged review, or a `git push` into it); else
 * the served docs' revision (a git source's commit), as the docs refresh (or a push webhook's reload) last read it.
 */
export async function contentRevision(ctx: DocentContext, project: ProjectConfig): Promise<string | null> {
  const local = localRepositoryOf(project)
  if (local) {
    const repo = await ctx.agentGit.localRepositories.open(local.name)
    const { default: git } = await import('isomorphic-git')
    return git.resolveRef({ ...repo, ref: `refs/heads/${local.branch}` }).catch(() => null)
  }
  return (await ctx.search.corpus(project.id)).revision
}

/** The automations that made a commit (its `Docent-Automation:` lines): a content trigger does not wake them for it. */
export async function commitAutomations(ctx: DocentContext, project: ProjectConfig, commit: string): Promise<string[]> {
  const local = localRepositoryOf(project)
  if (!local || !isCommitId(commit)) return []
  try {
    const repo = await ctx.agentGit.localRepositories.open(local.name)
    const { default: git } = await import('isomorphic-git')
    const { commit: read } = await git.readCommit({ ...repo, oid: commit })
    return automationsOf(read.message)
  } catch {
    return []
  }
}

/** The automations a commit message names (`Docent-Automation: <id>` lines). */
export function automationsOf(message: string): string[] {
  return [...message.matchAll(/^Docent-Automation: (\S+)$/gm)].map((match) => match[1]!)
}

/** The embedded local repository the project's agent works in, and its base branch; null on GitHub/GitLab. */
export function localRepositoryOf(project: ProjectConfig): { name: string; branch: string } | null {
  const agent = project.agent
  if (agent?.host.kind !== 'local' || !agent.repository.startsWith('local:')) return null
  return { name: agent.repository.slice('local:'.length), branch: agent.ref }
}
