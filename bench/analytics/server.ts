// Child process of bench/analytics/run.ts: the embedded default (PGlite in a data directory of its own, the demo docs,
// the offline answer model) with analytics recording on or off (`BENCH_RECORDING`), served on a free loopback port.
// Prints its URL and keys as one JSON line.
import { serve } from '@hono/node-server'
import { mkdtemp } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { configFromEnv } from '../../server/config-from-env.ts'
import { consoleLogger } from '../../server/log.ts'
import { createDocent } from '../../server/mod.ts'
import { pgliteDataDir } from '../../tests/support/pglite.ts'

const dataDir = await mkdtemp(join(tmpdir(), 'docent-bench-analytics-'))
await pgliteDataDir(join(dataDir, 'pglite'))
const unlimited = 1_000_000_000
const env = { DOCENT_DATA_DIR: dataDir }
const config = configFromEnv(env, {
  analytics: { enabled: process.env.BENCH_RECORDING === 'on' },
  limits: { assistantKeyPerMonth: unlimited, organizationPerHour: unlimited, ipPerDay: unlimited },
})
const docent = await createDocent(config, { env, log: consoleLogger('silent') })
const keys = await docent.start()
await docent.context.search.corpus('demo')
// The server's own CPU time, so the cost of recording shows apart from what other processes on the machine do.
const fetchWithCpu = (request: Request, ip: string | undefined) => {
  if (new URL(request.url).pathname === '/__bench/cpu') {
    const { user, system } = process.cpuUsage()
    return Response.json({ ms: (user + system) / 1000 })
  }
  return docent.app.fetch(request, { ip })
}
const server = serve(
  { fetch: (request, e) => fetchWithCpu(request, e.incoming.socket.remoteAddress), port: 0, hostname: '127.0.0.1' },
  () =>
    console.log(
      JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, admin: keys.admin, assistant: keys.assistant }),
    ),
)
