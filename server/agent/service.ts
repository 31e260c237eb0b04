import type { DocentContext } from '../context.ts'
import { createWorker, type ExecuteRun, type WorkerOptions } from './worker.ts'

/** What another part of Docent adds to the worker: executors for its own runs, and word of every run that ended. */
export interface AgentServiceHooks {
  /** The executor for a run that is not a plain agent run (an automation's), or null for the agent's own. */
  executorFor?: (run: Parameters<ExecuteRun>[0]) => Promise<ExecuteRun | null>
  onRunEnded?: WorkerOptions['onRunEnded']
}

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
export function createAgentService(ctx: DocentContext, hooks: AgentServiceHooks = {}): AgentService {
  let executor: Promise<ExecuteRun> | undefined
  // The run (tools, workspace search, isomorphic-git) loads with the first run: most requests never need it.
  const execute: ExecuteRun = async (run, job, signal) => {
    const other = hooks.executorFor ? await hooks.executorFor(run) : null
    if (other) return other(run, job, signal)
    return (await (executor ??= import('./run.ts').then(({ agentRunExecutor }) => agentRunExecutor(ctx))))(run, job, signal)
  }
  const worker = createWorker(ctx, {
    execute,
    onRunEnded: hooks.onRunEnded,
    leaseMs: ctx.config.agentWorker.leaseMs,
    pollMs: ctx.config.agentWorker.pollMs,
  })
  return { start: () => worker.start(), stop: () => worker.stop(), idle: () => worker.idle() }
}
