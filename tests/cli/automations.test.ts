import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { pgliteDataDir } from '../support/pglite.ts'

// `docent automations` on the embedded store, as an operator uses it: list, turn on and off, trigger, see the runs.

const run = promisify(execFile)
let dataDir: string

async function docent(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/docent.mjs', 'automations', ...args], {
      env: { ...process.env, DOCENT_DATA_DIR: dataDir },
    })
    return { stdout, stderr, code: 0 }
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number }
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code }
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docent-cli-automations-'))
  await pgliteDataDir(join(dataDir, 'pglite'))
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))

test('list, enable, disable, trigger and runs', async () => {
  const list = await docent('list')
  expect(list.code).toBe(0)
  expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+STATE\s+TRIGGER\s+MODE\s+LAST RUN\s+NEXT RUN$/)
  expect(list.stdout).toMatch(/^fix-broken-links\s+off\s+content\s+pull_request\s+-\s+-$/m)
  expect(list.stdout).toMatch(/^translate\s+off \(needs a model\)\s+content/m)
  expect(list.stdout).toMatch(/^draft-changelog\s+off\s+schedule 0 9 \* \* mon UTC/m)

  const refused = await docent('enable', 'translate')
  expect(refused.code).toBe(2)
  expect(refused.stderr).toMatch(/automations enable: enabled: cannot turn on Translate: it needs a language model/)
  expect((await docent('trigger', 'draft-changelog')).stderr).toMatch(/is not enabled/)

  expect((await docent('enable', 'draft-changelog')).stdout).toBe('Draft changelog (draft-changelog) is on in project demo.\n')
  const triggered = await docent('trigger', 'draft-changelog')
  expect(triggered.code).toBe(0)
  const [, runId, jobId] = /^Queued run (run_\w+) of draft-changelog \(job (\w+)\)/.exec(triggered.stdout)!
  const runs = await docent('runs', 'draft-changelog')
  expect(runs.stdout).toMatch(new RegExp(`^${runId}\\s+\\S+\\s+manual\\s+active\\s+-$`, 'm'))
  expect(jobId).toBeTruthy()
  expect((await docent('list')).stdout).toMatch(
    /^draft-changelog\s+on\s+schedule 0 9 \* \* mon UTC\s+pull_request\s+active \d{4}-\d{2}-\d{2}T\d{2}:\d{2}\s+\d{4}-/m,
  )
  expect((await docent('disable', 'draft-changelog')).stdout).toContain('is off')
  expect((await docent('runs', 'nope')).stderr).toMatch(/no automation "nope" in project demo/)
  expect((await docent('frobnicate')).stderr).toMatch(/unknown automations command "frobnicate"/)
}, 120_000)
