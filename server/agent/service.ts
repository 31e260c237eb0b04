import type { DocentContext } from '../context.ts'
import { createWorker, type ExecuteRun } from './worker.ts'

export interface AgentService {
  start(): void
  stop(): Promise<void>
  /** Resolves when no run is in progress or waiting (tests). */
  idle(): Promise<void>
}

/**
 * The agent worker of this server: runs from the store's queue, on the context's workspaces, git hosts and editor
 * model. `DOCENT_AGENT_LEASE_MS` / `DOCENT_AGENT_POLL_MS` tune how soon a killed server's runs are retried and how
 * often an idle worker looks for work.
 */
export function createAgentService(ctx: DocentContext): AgentService {
  let executor: Promise<ExecuteRun> | undefined
  // The run (tools, workspace search, isomorphic-git) loads with the first run: most requests never need it.
  const execute: ExecuteRun = async (run, job, signal) =>
    (await (executor ??= import('./run.ts').then(({ agentRunExecutor }) => agentRunExecutor(ctx))))(run, job, signal)
  const worker = createWorker(ctx, {
    execute,
    leaseMs: positive(ctx.env.DOCENT_AGENT_LEASE_MS) ?? 30_000,
    pollMs: positive(ctx.env.DOCENT_AGENT_POLL_MS) ?? 1_000,
  })
  return { start: () => worker.start(), stop: () => worker.stop(), idle: () => worker.idle() }
}

function positive(value: string | undefined): number | undefined {
  const number = Number(value)
  return value && Number.isFinite(number) && number > 0 ? number : undefined
}
