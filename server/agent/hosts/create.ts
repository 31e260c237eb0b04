import type { ProjectConfig } from '../../config.ts'
import type { DocentContext } from '../../context.ts'
import { createWorkspaceFactory } from '../git/factory.ts'
import { openLocalWorkspace } from '../git/local-workspace.ts'
import type { GitHost, RepositoryRef, WorkspaceFactory } from '../types.ts'
import { createGitHubHost } from './github.ts'
import { createGitLabHost } from './gitlab.ts'
import { createLocalHost } from './local.ts'
import { lazyLocalRepositories, type LocalRepositories } from './local-repositories.ts'

const repositoriesByContext = new WeakMap<DocentContext, LocalRepositories>()

/** The embedded host's bare repositories for this server (one instance per context, created lazily). */
export function localRepositories(ctx: DocentContext): LocalRepositories {
  let repositories = repositoriesByContext.get(ctx)
  if (!repositories) {
    const projectFor = (name: string) =>
      ctx.config.projects.find(
        (project) =>
          project.agent?.repository === `local:${name}` || ('repository' in project.docs && project.docs.repository === `local:${name}`),
      )
    repositories = lazyLocalRepositories({
      dataDir: ctx.config.dataDir,
      seedDirectory: (name) => {
        const docs = projectFor(name)?.docs
        if (docs && 'directory' in docs) return docs.directory
        if (docs?.seed) return docs.seed
        return name === 'demo' ? 'demo/docs' : undefined
      },
      branch: (name) => projectFor(name)?.agent?.ref ?? 'main',
      now: ctx.now,
    })
    repositoriesByContext.set(ctx, repositories)
  }
  return repositories
}

/** Workspaces for every project: HTTP(S) remotes cloned into memory, `local:` repositories opened in place. */
export function createDocentWorkspaceFactory(ctx: DocentContext): WorkspaceFactory {
  return createWorkspaceFactory({
    fetch: ctx.fetch,
    now: ctx.now,
    openLocal: async (name, options) => openLocalWorkspace(await localRepositories(ctx).open(name), options, ctx.now),
  })
}

/** Where a project's agent clones from and pushes to, with its token resolved from the environment. */
export function agentRepository(ctx: DocentContext, project: ProjectConfig): RepositoryRef {
  const agent = project.agent
  if (!agent) throw new Error(`project ${project.id} has no agent settings`)
  return { repository: agent.repository, ref: agent.ref, token: agent.token ? secret(ctx, agent.token.env) : undefined }
}

/** The host that opens pull requests for a project's agent jobs. */
export function createGitHost(ctx: DocentContext, project: ProjectConfig): GitHost {
  const agent = project.agent
  if (!agent) throw new Error(`project ${project.id} has no agent settings`)
  const host = agent.host
  switch (host.kind) {
    case 'local': {
      if (!agent.repository.startsWith('local:')) {
        throw new Error(`project ${project.id}: the local git host needs a local:<name> repository; set agent.host to github or gitlab`)
      }
      const publicUrl = ctx.config.publicUrl ?? `http://localhost:${ctx.config.port}`
      return createLocalHost({ repositories: localRepositories(ctx), repository: agent.repository, publicUrl, now: ctx.now })
    }
    case 'github':
      return createGitHubHost({ fetch: ctx.fetch, apiBase: host.apiBase, repo: host.repo, token: secret(ctx, host.token.env) })
    case 'gitlab':
      return createGitLabHost({ fetch: ctx.fetch, apiBase: host.apiBase, project: host.project, token: secret(ctx, host.token.env) })
  }
}

function secret(ctx: DocentContext, name: string): string {
  const value = ctx.env[name]
  if (!value) throw new Error(`environment variable ${name} (a token the config refers to) is not set`)
  return value
}
