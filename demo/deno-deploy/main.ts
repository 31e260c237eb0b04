// Docent on Deno Deploy (or locally: `deno serve -A --unstable-kv demo/deno-deploy/main.ts`).
// Deno KV is the store (Deploy's global KV, or a local file), so every isolate shares keys, threads, limits and jobs.
import { createDocent } from '../../server/mod.ts'

const env = Deno.env.toObject()
const docent = await createDocent({
  store: { kind: 'denokv', url: env.DOCENT_KV_PATH },
  // Keys come from the environment on Deploy (there is no console to read a printed key from).
  adminKey: env.DOCENT_ADMIN_KEY,
  assistantKey: env.DOCENT_ASSISTANT_KEY,
  model: env.OPENAI_API_KEY
    ? { provider: 'openai', id: env.DOCENT_MODEL ?? 'gpt-4o-mini', apiKey: { env: 'OPENAI_API_KEY' } }
    : { provider: 'offline' },
  projects: [
    {
      id: 'demo',
      organization: 'demo',
      domain: 'demo',
      // The deployed files include demo/docs; a real project would point at its docs repository instead.
      docs: { directory: new URL('../docs', import.meta.url).pathname },
      allowedOrigins: ['*'],
    },
  ],
})
await docent.start()

export default { fetch: docent.app.fetch } satisfies Deno.ServeDefaultExport
