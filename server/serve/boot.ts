import { configFromEnv, createDocent, type Docent, type DocentOverrides } from '../mod.ts'
import { DEFAULT_CONFIG_FILE, parseConfigText } from '../config-from-env.ts'
import type { Env } from '../config.ts'

export interface BootInput {
  env: Env
  /** The config file's contents, if there is one (see readConfigText), and its path for messages. */
  configText?: string
  configPath?: string
  runtime: string
  overrides?: DocentOverrides
}

/**
 * How long a stopping server lets requests in flight (an answer streaming, an agent poll) finish before it ends them.
 * Orchestrators give 30 s by default (Kubernetes' grace period) between the signal and the kill.
 */
export const DRAIN_SECONDS = 10

/** A runtime's HTTP server as shutDown needs it. */
export interface Listening {
  /** Stops accepting connections; resolves once the requests in flight have ended. */
  drain(): Promise<void>
  /** Closes whatever connections are left. */
  cut(): void
}

/**
 * The runtime entries' shutdown on SIGTERM or SIGINT: no new requests; those in flight get DRAIN_SECONDS to end; then
 * Docent stops, which ends the answers still streaming (stored as far as written, the reader told: see
 * `DocentContext.answering`), and what is left is cut. Before, the signal cut every stream at once and the answers
 * already sent were never stored.
 */
export async function shutDown(docent: Docent, server: Listening, drainSeconds = DRAIN_SECONDS): Promise<void> {
  const drained = server.drain()
  const waited = (seconds: number) => Promise.race([drained, new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000))])
  docent.context.log.info('stopping: requests in flight may finish', { seconds: drainSeconds })
  await waited(drainSeconds)
  await docent.stop()
  // The answers just ended send their last parts.
  await waited(1)
  server.cut()
}

/** Shared start-up of the runtime entrypoints: config, createDocent, start, a banner with the demo keys. */
export async function boot({ env, configText, configPath = DEFAULT_CONFIG_FILE, runtime, overrides }: BootInput): Promise<Docent> {
  const fileConfig = configText === undefined ? undefined : parseConfigText(configText, configPath)
  const docent = await createDocent(configFromEnv(env, fileConfig), { env, ...overrides })
  const keys = await docent.start()
  const { config } = docent
  const base = config.publicUrl ?? `http://localhost:${config.port}`
  const lines = [
    `Docent listening on ${base} (${runtime}, store: ${config.store.kind}, model: ${config.model.provider}; bound to ${config.host}:${config.port})`,
  ]
  if (keys.created) {
    lines.push('', 'Demo keys (shown once; keep them):', `  admin key:     ${keys.admin}`, `  assistant key: ${keys.assistant}`)
  }
  lines.push('', `Demo docs with the chat widget: ${base}/`, `Health: ${base}/healthz`)
  console.log(lines.join('\n'))
  return docent
}
