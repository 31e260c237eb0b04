import { ConfigError, configFromEnv, createDocent, type Docent, type DocentOverrides } from '../mod.ts'
import type { Env } from '../config.ts'

export interface BootInput {
  env: Env
  /** Contents of docent.config.json, if the file exists. */
  configText?: string
  runtime: string
  overrides?: DocentOverrides
}

/** Shared start-up of the runtime entrypoints: config, createDocent, start, a banner with the demo keys. */
export async function boot({ env, configText, runtime, overrides }: BootInput): Promise<Docent> {
  let fileConfig: unknown
  if (configText !== undefined) {
    try {
      fileConfig = JSON.parse(configText)
    } catch (error) {
      throw new ConfigError(`invalid config: docent.config.json is not valid JSON (${(error as Error).message})`)
    }
  }
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
