import { createKey } from '../../server/keys/keys.ts'
import { consoleLogger } from '../../server/log.ts'
import { createDocent, type DocentConfigInput, type DocentOverrides } from '../../server/mod.ts'

export const DEMO_DOCS = 'demo/docs'

/** A Docent on the memory store with a demo-like project (public docs) and another organization's (private docs), with keys. */
export async function testDocent(config: Partial<DocentConfigInput> = {}, overrides: DocentOverrides = {}) {
  const docent = await createDocent(
    {
      store: { kind: 'memory' },
      worker: false,
      projects: [
        {
          id: 'demo',
          organization: 'demo',
          domain: 'demo',
          // Public, as the embedded demo's: anyone may read these docs; the other project's need its key.
          docs: { directory: DEMO_DOCS, public: true },
          allowedOrigins: ['https://docs.example.com'],
          agent: { repository: 'local:demo' },
        },
        { id: 'other', organization: 'acme', domain: 'acme.example', docs: { directory: DEMO_DOCS }, allowedOrigins: ['*'] },
      ],
      ...config,
    },
    { log: consoleLogger('silent'), ...overrides },
  )
  const { store } = docent.context
  const admin = (await createKey(store, { kind: 'admin', organization: 'demo' })).secret
  const assistant = (await createKey(store, { kind: 'assistant', organization: 'demo', projectId: 'demo' })).secret
  const otherAdmin = (await createKey(store, { kind: 'admin', organization: 'acme' })).secret
  const otherAssistant = (await createKey(store, { kind: 'assistant', organization: 'acme', projectId: 'other' })).secret
  return { docent, app: docent.app, store, keys: { admin, assistant, otherAdmin, otherAssistant } }
}

/**
 * Rate limits count in fixed windows (a UTC hour, day, month): on the real clock, a test that runs across the top of
 * the hour sees its counts start again, and its 429 never comes. A test of a limit gives its docent this clock, stopped
 * in the middle of an hour: `testDocent({ limits }, stoppedClock)`.
 */
export const stoppedClock = { now: () => new Date(Date.UTC(2026, 5, 15, 10, 30)) }

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
export const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
