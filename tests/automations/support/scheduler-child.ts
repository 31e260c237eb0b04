// A Docent server process for the scheduler's kill -9 test: PostgreSQL at DATABASE_URL, no worker (runs are only
// queued), and a clock the test sets. Reads commands on stdin, one a line:
//   tick <ISO instant>   sets the clock and runs one scheduler pass; answers `ticked <ISO>`
// and is ended by the test with SIGKILL.
import { createInterface } from 'node:readline'
import { consoleLogger } from '../../../server/log.ts'
import { createDocent } from '../../../server/mod.ts'

let clock = new Date(process.env.CLOCK ?? Date.now())
const docent = await createDocent(
  {
    store: { kind: 'postgres', url: process.env.DATABASE_URL! },
    dataDir: process.env.DOCENT_DATA_DIR!,
    worker: false,
    projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs' }, agent: { repository: 'local:demo' } }],
  },
  { log: consoleLogger('silent'), now: () => clock },
)
console.log('ready')
for await (const line of createInterface({ input: process.stdin })) {
  const [command, at] = line.trim().split(' ')
  if (command === 'tick') {
    clock = new Date(at!)
    await docent.automations.tick()
    console.log(`ticked ${clock.toISOString()}`)
  }
}
