// Docent on Deno Deploy (or locally: `deno serve -A --unstable-kv demo/deno-deploy/main.ts`).
// Configured by environment alone, as `npm start` is: the model (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, `DOCENT_MODEL`,
// `DOCENT_EMBEDDING_MODEL`), the project and its docs and agent (`DOCENT_DOCS_REPOSITORY`, `DOCENT_AGENT_HOST`,
// `DOCENT_GIT_TOKEN`...: see the README's Deno Deploy section). Deno KV is the store (Deploy's global KV, or
// `DOCENT_KV_PATH` locally), so every isolate shares keys, threads, limits and the agent's run queue.
import { configFromEnv, createDocent } from '../../server/mod.ts'

const env = Deno.env.toObject()
// Without a docs repository, the deployed demo/docs folder (next to this file) is served.
const docsDir = env.DOCENT_DOCS_REPOSITORY ? undefined : new URL('../docs', import.meta.url).pathname
const config = configFromEnv(
  { DOCENT_STORE: 'denokv', DOCENT_DOCS_DIR: docsDir, ...env },
  env.DOCENT_CONFIG_JSON ? JSON.parse(env.DOCENT_CONFIG_JSON) : undefined,
)
const docent = await createDocent({ ...config, store: { kind: 'denokv', url: env.DOCENT_KV_PATH } }, { env })
await docent.start()

// `deno serve` drains its connections on SIGTERM but our timers (agent worker, docs refresh) would keep the process
// alive: stop them on the first signal. Deploy itself stops isolates without signals; there the listener is unsupported.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  try {
    Deno.addSignalListener(signal, () => {
      void docent.stop().finally(() => Deno.exit(0))
    })
  } catch {
    // no signals on this platform
  }
}

export default { fetch: docent.app.fetch } satisfies Deno.ServeDefaultExport
