import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type ServerProcess, startServer } from '../support/server-process.ts'
import { jobWithHealthProbes } from './support/healthz-probe.ts'
import { FILLS, promptOfShape, VERBS } from './support/prompt-shapes.ts'

// A job prompt is parsed by the offline editor on the server's event loop. A prompt that made the parser backtrack
// froze every tenant (a 4,008-character one blocked /healthz for 11.5 s; 20,000 characters would take minutes). Here a
// real server gets 20,000-character prompts of the shapes that were slow, and random ones, while a client keeps
// asking /healthz: every probe answers and every job ends. bench/agent-prompts measures the probes' latency.
const ADMIN = 'svc_PromptShapesAdminKey0000000000001'

let server: ServerProcess
let dataDir: string
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docent-prompts-'))
  server = await startServer('node', {
    DOCENT_STORE: 'memory',
    DOCENT_DATA_DIR: dataDir,
    DOCENT_ADMIN_KEY: ADMIN,
    DOCENT_AGENT_POLL_MS: '50',
  })
}, 90_000)
afterAll(async () => {
  await server?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

const shapes: Array<[string, string]> = [
  ...VERBS.map((verb, i): [string, string] => [
    `${verb} + ${JSON.stringify(FILLS[i % FILLS.length])}`,
    promptOfShape(verb, FILLS[i % FILLS.length]!),
  ]),
  ...fc
    .sample(fc.string({ minLength: 20_000, maxLength: 20_000, unit: 'grapheme' }), { numRuns: 3, seed: 13 })
    .map((prompt, i): [string, string] => [`random ${i + 1}`, prompt.slice(0, 20_000)]),
]

describe('a 20,000-character prompt of any shape leaves the server answering', () => {
  test.each(shapes)(
    '%s',
    async (_shape, prompt) => {
      expect(prompt).toHaveLength(20_000)
      const { job, latencies, failures } = await jobWithHealthProbes(server.url, ADMIN, prompt)
      expect(failures).toEqual([])
      expect(latencies.length).toBeGreaterThan(0)
      // The offline editor understands none of these: the run ends with no change, as documented.
      expect(job).toMatchObject({ status: 'completed', error: null, prLink: null })
    },
    120_000,
  )
})
