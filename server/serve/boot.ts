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
  docent.refuseRequests()
  const drained = server.drain()
  const waited = (seconds: number) => Promise.race([drained, new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000))])
  docent.context.log.info('stopping: requests in flight may finish', { seconds: drainSeconds })
  await waited(drainSeconds)
  await docent.stop()
  // The answers just ended send their last parts.
  await waited(1)
  server.cut()
}

/** A started Docent, and the banner to print once the runtime's server is bound. */
export interface Booted {
  docent: Docent
  /** Prints where the server listens (the port it bound: `PORT=0` picks one) and the demo keys of a first start. */
  announce(boundPort: number): void
}

/**
 * Shared start-up of the runtime entrypoints: config, createDocent, start. The banner waits for the bind (`announce`):
 * before, it said "listening" and then a bad HOST or a port in use crashed with the runtime's raw stack.
 */
export async function boot({ env, configText, configPath = DEFAULT_CONFIG_FILE, runtime, overrides }: BootInput): Promise<Booted> {
  const fileConfig = configText === undefined ? undefined : parseConfigText(configText, configPath)
  const docent = await createDocent(configFromEnv(env, fileConfig), { env, ...overrides })
  const keys = await docent.start()
  const { config } = docent
  return {
    docent,
    announce(boundPort) {
      const base = config.publicUrl ?? `http://localhost:${boundPort}`
      const lines = [
        `Docent listening on ${base} (${runtime}, store: ${config.store.kind}, model: ${config.model.provider}; bound to ${bindAddress(config.host, boundPort)})`,
      ]
      if (keys.created) {
        lines.push('', 'Demo keys (shown once; keep them):', `  admin key:     ${keys.admin}`, `  assistant key: ${keys.assistant}`)
      }
      lines.push('', `Demo docs with the chat widget: ${base}/`, `Health: ${base}/healthz`)
      console.log(lines.join('\n'))
    },
  }
}

const bindAddress = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`)

/**
 * Why the server could not bind, in one line that names the address, for the error a runtime raises (Node's and Bun's
 * `code`, Deno's error class name). What is left is stopped by the caller, which exits 1.
 */
export function listenFailure(error: unknown, host: string, port: number): string {
  const where = bindAddress(host, port)
  const code = (error as { code?: unknown } | null)?.code
  const name = (error as { name?: unknown } | null)?.name
  const reason =
    code === 'EADDRINUSE' || name === 'AddrInUse'
      ? 'the port is in use (another server, or an earlier Docent still running)'
      : code === 'EADDRNOTAVAIL' || name === 'AddrNotAvailable'
        ? "that address is not one of this machine's (HOST: use 127.0.0.1, 0.0.0.0, :: or an address of this machine)"
        : code === 'EACCES' || code === 'EPERM' || name === 'PermissionDenied'
          ? 'permission denied (ports below 1024 need privileges; pick a higher PORT)'
          : code === 'ENOTFOUND' || code === 'EAI_AGAIN' || name === 'NotFound'
            ? 'HOST names no address this machine can resolve'
            : String((error as { message?: unknown } | null)?.message ?? error)
  return `cannot listen on ${where}: ${reason}`
}
