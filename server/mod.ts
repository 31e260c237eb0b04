import type { Hono } from 'hono'
import type { EmbeddingModel, LanguageModel } from 'ai'
import { createAgentGit } from './agent/hosts/create.ts'
import { createWorkSignal } from './agent/wake.ts'
import type { AppEnv } from './http/route.ts'
import { createAgentService } from './agent/service.ts'
import { createAnalytics } from './analytics/service.ts'
import { type AutomationService, createAutomationService } from './automations/service.ts'
import type { ReaderSignals } from './automations/readers/signals.ts'
import { buildApp } from './app.ts'
import { checkSecretUrls, configSecrets, type DocentConfig, type DocentConfigInput, type Env, parseConfig } from './config.ts'
import type { DocentContext } from './context.ts'
import { seedDemoKeys, type SeededKeys } from './keys/seed.ts'
import { consoleLogger, type Logger, redactingLogger } from './log.ts'
import { type IdSource, randomIds } from './ids.ts'
import { Projects } from './projects.ts'
import { createSearchService } from './search/service.ts'
import { configuredModels } from './models/registry.ts'
import { type Embedder, modelEmbedder } from './search/embeddings.ts'
import { openStore } from './store/open.ts'
import type { Store } from './store/types.ts'
import { createWebhookRegistry } from './webhooks/registry.ts'

export type { DocentConfig, DocentConfigInput } from './config.ts'
export { ConfigError, parseConfig } from './config.ts'
export { configFromEnv } from './config-from-env.ts'
export type { Store } from './store/types.ts'
export type { DocentContext } from './context.ts'
export type { AppEnv } from './http/route.ts'
export { type IdKind, type IdSource, randomIds, sequentialIds } from './ids.ts'

/** Capabilities a caller may pass in instead of the defaults built from the config. */
export interface DocentOverrides {
  store?: Store
  log?: Logger
  now?: () => Date
  /** Ids of stored records (threads, messages, jobs, runs…), e.g. `sequentialIds()` for reproducible tests. */
  ids?: IdSource
  fetch?: typeof fetch
  /** Where `{ env: NAME }` secrets in the config are read; defaults to the process environment. */
  env?: Env
  /**
   * Models to use instead of those the config names (e.g. the AI SDK's `MockLanguageModelV4` and
   * `MockEmbeddingModelV4` in tests). `embedder` takes precedence over `embedding`.
   */
  models?: { answer?: LanguageModel; editor?: LanguageModel; embedding?: EmbeddingModel; embedder?: Embedder }
  /** Gaps and feedback for the "fill gaps" and "improve from feedback" automations (default: the analytics store's). */
  readerSignals?: ReaderSignals
}

export interface Docent {
  /** A Hono app on Web standards: serve it with any runtime, or mount it in another app. */
  app: Hono<AppEnv>
  config: DocentConfig
  context: DocentContext
  /** The automations' scheduler (its `tick()` runs due slots and docs moves now: for tests with a controlled clock). */
  automations: AutomationService
  /** Seeds demo keys and starts background work (agent worker, docs refresh). Returns keys made now. */
  start(): Promise<SeededKeys>
  /**
   * Refuses the requests that arrive from now on with 503 and Retry-After, as `stop` does: a runtime's shutdown calls
   * it before letting the requests in flight finish.
   */
  refuseRequests(): void
  /** Stops background work and closes the store. */
  stop(): Promise<void>
}

/** Builds Docent from a config (validated here; a bad one throws a ConfigError naming the field). */
export async function createDocent(input: DocentConfigInput | DocentConfig, overrides: DocentOverrides = {}): Promise<Docent> {
  const config = parseConfig(input)
  const env = overrides.env ?? processEnv()
  checkSecretUrls(config, env)
  const log = redactingLogger(overrides.log ?? consoleLogger(), [...configSecrets(config, env), config.adminKey, config.assistantKey])
  const fetchImpl = overrides.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  const store = overrides.store ?? (await openStore(config))
  const now = overrides.now ?? (() => new Date())
  const configured = await configuredModels(config, { fetch: fetchImpl, env })
  const models: DocentContext['models'] = {
    answer: overrides.models?.answer ?? configured.answer,
    editor: overrides.models?.editor ?? configured.editor,
    embedder: overrides.models?.embedder ?? embedderOf(overrides.models?.embedding ?? configured.embedding),
  }
  const context: DocentContext = {
    config,
    store,
    projects: new Projects(config.projects),
    log,
    now,
    ids: overrides.ids ?? randomIds,
    fetch: fetchImpl,
    search: createSearchService({
      config,
      log,
      fetch: fetchImpl,
      env,
      embedder: models.embedder,
      // Docs served from the embedded git host's repository (the demo's), the one its agent pushes to.
      openLocalRepository: (name) => context.agentGit.localRepositories.open(name),
    }),
    env,
    models,
    agentGit: createAgentGit({ config, env, fetch: fetchImpl, now }),
    work: createWorkSignal(),
    webhooks: createWebhookRegistry(),
    onStop: [],
    answering: new Set(),
    stopping: false,
  } as Omit<DocentContext, 'analytics'> as DocentContext
  // Analytics reads the rest of the context (store, search, the agent's jobs), so it is made last.
  context.analytics = createAnalytics(context)
  const automations = createAutomationService(context, { signals: overrides.readerSignals })
  const agent = createAgentService(context, automations.agentHooks)
  const app = buildApp(context)
  let started = false
  return {
    app,
    config,
    context,
    automations,
    async start() {
      const keys = await seedDemoKeys(context)
      if (!started) {
        started = true
        context.search.start()
        if (!config.worker && OWN_PROCESS_STORES.has(config.store.kind)) {
          log.warn(
            `the worker is off (DOCENT_WORKER=false or worker: false), and the ${config.store.kind} store is this process's alone: no other process can run its agent jobs, automations or analytics upkeep, so they wait`,
            { store: config.store.kind },
          )
        }
        if (config.worker) {
          agent.start()
          automations.start()
          context.analytics.start()
        }
      }
      return keys
    },
    refuseRequests() {
      context.stopping = true
    },
    async stop() {
      context.stopping = true
      for (const end of context.answering) end()
      context.search.stop()
      await automations.stop()
      await agent.stop()
      await automations.notifier.settled()
      await context.analytics.stop()
      for (const stop of context.onStop.splice(0)) await stop()
      if (!overrides.store) await store.close()
    },
  }
}

/**
 * Stores only the process that opened them reads (PGlite locks its directory; memory is the process's own): with the
 * worker off, nothing ever runs what they queue.
 */
const OWN_PROCESS_STORES = new Set<string>(['memory', 'pglite'])

const embedderOf = (model: EmbeddingModel | undefined): Embedder | undefined => (model ? modelEmbedder(model) : undefined)

/** The runtime's environment without importing `node:process` (Node and Bun expose `process`, Deno `Deno.env`). */
function processEnv(): Env {
  const globals = globalThis as { process?: { env: Env }; Deno?: { env: { toObject(): Env } } }
  if (globals.process?.env) return globals.process.env
  try {
    return globals.Deno?.env.toObject() ?? {}
  } catch {
    // Deno without --allow-env: secrets must then be passed in `overrides.env`.
    return {}
  }
}
