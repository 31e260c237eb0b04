import type { LanguageModel } from 'ai'
import type { AgentGit } from './agent/hosts/create.ts'
import type { WorkSignal } from './agent/wake.ts'
import type { Analytics } from './analytics/service.ts'
import type { DocentConfig, Env } from './config.ts'
import type { Logger } from './log.ts'
import type { Projects } from './projects.ts'
import type { IdSource } from './ids.ts'
import type { Embedder, SearchService } from './search/types.ts'
import type { Store } from './store/types.ts'
import type { WebhookRegistry } from './webhooks/registry.ts'

/** Capabilities built once in `createDocent` and passed to every route and worker. */
export interface DocentContext {
  config: DocentConfig
  store: Store
  projects: Projects
  log: Logger
  now: () => Date
  /** Ids of stored records (never secrets): random by default, `DocentOverrides.ids` for predictable ones. */
  ids: IdSource
  /** Outbound HTTP (git hosts, model servers); tests pass their own. */
  fetch: typeof fetch
  search: SearchService
  /** Environment variables that config `{ env: NAME }` references (tokens, API keys) resolve against. */
  env: Env
  /**
   * Models, built once from the config or taken from `DocentOverrides.models`: the answer model, the agent's editor,
   * and the embedder of hybrid search (none when no embedding model is configured: BM25 alone).
   */
  models: { answer: LanguageModel; editor: LanguageModel; embedder?: Embedder }
  /** The agent's git: workspaces, where each project's agent pushes, and its pull-request host. */
  agentGit: AgentGit
  /** Tells this process's agent worker at once that a run was queued or a job archived. */
  work: WorkSignal
  /** Recording, the analytics API's data, gaps and their fixes' progress. */
  analytics: Analytics
  /** Listeners of the signed GitHub/GitLab webhooks (automations; the gap loop's merge detection). */
  webhooks: WebhookRegistry
  /** Background tasks started by `start()` register their stop functions here. */
  onStop: Array<() => Promise<void> | void>
  /**
   * Answers streaming now, each with what ends it: stopping ends them first (what was written is stored, the reader
   * is told), before the thread writes settle and the store closes.
   */
  answering: Set<() => void>
  /** Set when stopping begins (`Docent.refuseRequests`, `stop`): requests that still arrive are refused with 503. */
  stopping: boolean
}

/**
 * The model id answers and jobs report (`offline-answer`, `offline-editor` for the built-in models). Here, beside the
 * models it reads, so routes need not import `models/` (which reads the assistant's prompt format: no cycle).
 */
export function modelIdOf(model: LanguageModel): string {
  return typeof model === 'string' ? model : model.modelId
}
