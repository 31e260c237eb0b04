// Requests/s of GET /healthz and of an authenticated 404 on Node, over HTTP and in-process, so later work can
// see what the middleware stack costs. Loopback only; each phase is bounded in time.
import { consoleLogger } from '../../server/log.ts'
import { createDocent } from '../../server/mod.ts'
import { startServer } from '../../tests/support/server-process.ts'
import { fmt, loadLoop, percentile } from '../support.ts'

const ADMIN = 'svc_BenchAdminKey0000000000000000001'
const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const concurrency = 32

function report(name: string, result: Awaited<ReturnType<typeof loadLoop>>) {
  console.log(
    `${name.padEnd(36)} ${fmt(result.perSecond, 0).padStart(7)} req/s  p50 ${fmt(percentile(result.latencies, 50), 2)} ms  p99 ${fmt(
      percentile(result.latencies, 99),
      2,
    )} ms  errors ${result.errors}`,
  )
}

const server = await startServer('node', { DOCENT_STORE: 'memory', DOCENT_ADMIN_KEY: ADMIN })
try {
  const auth = { authorization: `Bearer ${ADMIN}` }
  const healthz = async () => (await fetch(`${server.url}/healthz`)).ok
  const notFound = async () => (await fetch(`${server.url}/v2/agent/demo/job/none`, { headers: auth })).status === 404
  await loadLoop(healthz, { concurrency, durationMs: 1000 }) // warm-up
  console.log(`HTTP on Node ${process.version}, ${concurrency} concurrent keep-alive clients, ${seconds} s each`)
  report('GET /healthz (HTTP)', await loadLoop(healthz, { concurrency, durationMs: seconds * 1000 }))
  report('GET job 404, admin key (HTTP)', await loadLoop(notFound, { concurrency, durationMs: seconds * 1000 }))
} finally {
  await server.stop()
}

// In-process: the Hono app alone, without sockets, isolates the middleware's own cost.
const docent = await createDocent(
  {
    store: { kind: 'memory' },
    worker: false,
    adminKey: ADMIN,
    projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs' } }],
  },
  { log: consoleLogger('silent') },
)
await docent.start()
const inProcessHealthz = async () => (await docent.app.request('/healthz')).ok
const inProcess404 = async () =>
  (await docent.app.request('/v2/agent/demo/job/none', { headers: { authorization: `Bearer ${ADMIN}` } })).status === 404
console.log('In-process app.request (no sockets):')
report('GET /healthz (in-process)', await loadLoop(inProcessHealthz, { concurrency: 1, durationMs: seconds * 1000 }))
report('GET job 404, admin key (in-process)', await loadLoop(inProcess404, { concurrency: 1, durationMs: seconds * 1000 }))
await docent.stop()
