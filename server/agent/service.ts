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
 * model. `config.agentWorker` (`DOCENT_AGENT_LEASE_MS` / `DOCENT_AGENT_POLL_MS`) tunes how soon a killed server's runs
 * are retried and how often an idle worker looks for work.
 */
export function createAgentService(ctx: DocentContext): AgentService {
  let executor: Promise<ExecuteRun> | undefined
  // The run (tools, workspace search, isomorphic-git) loads with the first run: most requests never need it.
  const execute: ExecuteRun = async (run, job, signal) =>
    (await (executor ??= import('./run.ts').then(({ agentRunExecutor }) => agentRunExecutor(ctx))))(run, job, signal)
  const worker = createWorker(ctx, {
    execute,
    leaseMs: ctx.config.agentWorker.leaseMs,
    pollMs: ctx.config.agentWorker.pollMs,
  })
  return { start: () => worker.start(), stop: () => worker.stop(), idle: () => worker.idle() }
}
