import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import type { RunDeps } from './run.ts'
import type { GitHost } from './types.ts'
import { createWorker, type ExecuteRun } from './worker.ts'

export interface AgentService {
  start(): void
  stop(): Promise<void>
  /** Resolves when no run is in progress or waiting (tests). */
  idle(): Promise<void>
}

/**
 * The agent worker of this server: runs from the store's queue, on the project's workspace (in-memory clone or the
 * embedded local repository), git host and model. `DOCENT_AGENT_LEASE_MS` / `DOCENT_AGENT_POLL_MS` tune how soon a
 * killed server's runs are retried and how often an idle worker looks for work.
 */
export function createAgentService(ctx: DocentContext, overrides: Partial<RunDeps> = {}): AgentService {
  let executor: Promise<ExecuteRun> | undefined
  // git, the hosts and the model are loaded with the first run: most requests a server answers never need them,
  // and they were a third of its start-up time.
  const execute: ExecuteRun = async (run, job, signal) => (await (executor ??= loadExecutor(ctx, overrides)))(run, job, signal)
  const worker = createWorker(ctx, {
    execute,
    leaseMs: positive(ctx.env.DOCENT_AGENT_LEASE_MS) ?? 30_000,
    pollMs: positive(ctx.env.DOCENT_AGENT_POLL_MS) ?? 1_000,
  })
  return { start: () => worker.start(), stop: () => worker.stop(), idle: () => worker.idle() }
}

async function loadExecutor(ctx: DocentContext, overrides: Partial<RunDeps>): Promise<ExecuteRun> {
  const [{ agentRepository, createDocentWorkspaceFactory, createGitHost }, { resolveAgentModel }, { agentRunExecutor }] = await Promise.all(
    [import('./hosts/create.ts'), import('./model.ts'), import('./run.ts')],
  )
  const hosts = new Map<string, GitHost>()
  const deps: RunDeps = {
    workspaces: overrides.workspaces ?? createDocentWorkspaceFactory(ctx),
    repository: overrides.repository ?? ((project) => agentRepository(ctx, project)),
    host:
      overrides.host ??
      ((project) => {
        let host = hosts.get(project.id)
        if (!host) hosts.set(project.id, (host = createGitHost(ctx, project)))
        return host
      }),
    model: overrides.model ?? (() => resolveAgentModel(ctx.config, { fetch: ctx.fetch, env: ctx.env })),
    secrets: overrides.secrets ?? ((project) => projectSecrets(ctx, project)),
  }
  return agentRunExecutor(ctx, deps)
}

/** Every token and key this project's runs could meet: they are scrubbed from events and errors. */
function projectSecrets(ctx: DocentContext, project: ProjectConfig): string[] {
  const names = [
    project.agent?.token?.env,
    project.agent?.host && 'token' in project.agent.host ? project.agent.host.token.env : undefined,
    ctx.config.model.apiKey?.env,
  ]
  return names.map((name) => (name ? ctx.env[name] : undefined)).filter((value): value is string => Boolean(value))
}

function positive(value: string | undefined): number | undefined {
  const number = Number(value)
  return value && Number.isFinite(number) && number > 0 ? number : undefined
}
