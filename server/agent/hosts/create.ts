import type { DocentConfig, Env, ProjectConfig } from '../../config.ts'
import type { RepositoryRef, WorkspaceFactory } from '../../git/types.ts'
import type { GitHost } from '../types.ts'
import { createGitHubHost } from './github.ts'
import { createGitLabHost } from './gitlab.ts'
import { createLocalHost } from './local.ts'
import { lazyLocalRepositories, type LocalRepositories } from './local-repositories.ts'

/** The agent's git, built once in `createDocent`: where it clones, pushes and opens pull requests. */
export interface AgentGit {
  /** HTTP(S) remotes cloned into memory, `local:` repositories opened in place. */
  workspaces: WorkspaceFactory
  /** Where a project's agent clones from and pushes to, with its token resolved from the environment. */
  repository(project: ProjectConfig): RepositoryRef
  /** The host that opens the project's pull requests (one per project, made on first use). */
  host(project: ProjectConfig): GitHost
  /** The embedded host's bare repositories (`local:<name>` under the data dir). */
  localRepositories: LocalRepositories
  /** Hears every branch a workspace of this process moves in a `local:` repository; returns how to stop listening. */
  onLocalPush(listener: LocalPushListener): () => void
}

export type LocalPushListener = (push: { repository: string; branch: string; commit: string }) => void

export interface AgentGitOptions {
  config: DocentConfig
  env: Env
  fetch: typeof fetch
  now: () => Date
}

export function createAgentGit(options: AgentGitOptions): AgentGit {
  const { config, env } = options
  // A `local:` repository belongs to the project whose agent pushes to it or whose docs are served from it.
  const projectFor = (name: string) =>
    config.projects.find(
      (project) =>
        project.agent?.repository === `local:${name}` || ('repository' in project.docs && project.docs.repository === `local:${name}`),
    )
  const localRepositories = lazyLocalRepositories({
    dataDir: config.dataDir,
    seedDirectory: (name) => {
      const docs = projectFor(name)?.docs
      if (docs && 'directory' in docs) return docs.directory
      if (docs?.seed) return docs.seed
      return name === 'demo' ? 'demo/docs' : undefined
    },
    branch: (name) => projectFor(name)?.agent?.ref ?? 'main',
    now: options.now,
  })
  // isomorphic-git is loaded with the first workspace: most requests a server answers never need it, and it was a
  // third of its start-up time.
  let factory: Promise<WorkspaceFactory> | undefined
  const pushListeners = new Set<LocalPushListener>()
  const pushed = (name: string) => (branch: string, commit: string) => {
    for (const listener of pushListeners) {
      try {
        listener({ repository: `local:${name}`, branch, commit })
      } catch {
        // A listener's failure is its own; the push happened.
      }
    }
  }
  const loadFactory = async () => {
    const [{ createWorkspaceFactory }, { openLocalWorkspace }] = await Promise.all([
      import('../../git/factory.ts'),
      import('../../git/local-workspace.ts'),
    ])
    return createWorkspaceFactory({
      fetch: options.fetch,
      now: options.now,
      openLocal: async (name, open) => openLocalWorkspace(await localRepositories.open(name), open, options.now, pushed(name)),
    })
  }
  const hosts = new Map<string, GitHost>()
  return {
    localRepositories,
    onLocalPush(listener) {
      pushListeners.add(listener)
      return () => pushListeners.delete(listener)
    },
    workspaces: { open: async (open) => (await (factory ??= loadFactory())).open(open) },
    repository(project) {
      const agent = agentOf(project)
      return { repository: agent.repository, ref: agent.ref, token: agent.token ? secret(env, agent.token.env) : undefined }
    },
    host(project) {
      let host = hosts.get(project.id)
      if (!host) hosts.set(project.id, (host = createGitHost(options, localRepositories, project)))
      return host
    },
  }
}

function createGitHost(options: AgentGitOptions, repositories: LocalRepositories, project: ProjectConfig): GitHost {
  const agent = agentOf(project)
  const host = agent.host
  switch (host.kind) {
    case 'local': {
      if (!agent.repository.startsWith('local:')) {
        throw new Error(`project ${project.id}: the local git host needs a local:<name> repository; set agent.host to github or gitlab`)
      }
      const publicUrl = options.config.publicUrl ?? `http://localhost:${options.config.port}`
      return createLocalHost({ repositories, repository: agent.repository, publicUrl, now: options.now })
    }
    case 'github':
      return createGitHubHost({ fetch: options.fetch, apiBase: host.apiBase, repo: host.repo, token: secret(options.env, host.token.env) })
    case 'gitlab':
      return createGitLabHost({
        fetch: options.fetch,
        apiBase: host.apiBase,
        project: host.project,
        token: secret(options.env, host.token.env),
      })
  }
}

function agentOf(project: ProjectConfig): NonNullable<ProjectConfig['agent']> {
  if (!project.agent) throw new Error(`project ${project.id} has no agent settings`)
  return project.agent
}

function secret(env: Env, name: string): string {
  const value = env[name]
  if (!value) throw new Error(`environment variable ${name} (a token the config refers to) is not set`)
  return value
}
