import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { consoleLogger } from '../../server/log.ts'
import { createDocent } from '../../server/mod.ts'
import { bearer, json } from '../support/app.ts'
import { pgliteDataDir } from '../support/pglite.ts'
import { startServer } from '../support/server-process.ts'

// The docent CLI on the embedded store, as an operator uses it: make keys, list them, revoke one, reindex; then the
// server started on the same data directory honours exactly those keys.

const run = promisify(execFile)
let dataDir: string

async function docent(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/docent.mjs', ...args], {
      env: { ...process.env, DOCENT_DATA_DIR: dataDir },
    })
    return { stdout, stderr, code: 0 }
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number }
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code }
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docent-cli-'))
  await pgliteDataDir(join(dataDir, 'pglite'))
})
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

test('keys create, list, revoke; the server honours them; index prints the docs revision', async () => {
  const admin = await docent('keys', 'create', '--org', 'demo', '--kind', 'admin', '--name', 'ci', '--expires', '90d')
  expect(admin.code).toBe(0)
  const adminSecret = /^svc_\w+$/m.exec(admin.stdout)![0]
  const adminId = /key_\w+/.exec(admin.stdout)![0]
  const assistant = await docent('keys', 'create', '--org', 'demo', '--kind', 'assistant', '--project', 'demo')
  expect(assistant.code).toBe(0)
  const assistantSecret = /^svc_dsc_\w+$/m.exec(assistant.stdout)![0]

  const list = await docent('keys', 'list', '--org', 'demo')
  expect(list.stdout).toContain(adminId)
  expect(list.stdout).toContain(`…${adminSecret.slice(-4)}`)
  // Listed by prefix and last four characters, never whole.
  expect(list.stdout).not.toContain(adminSecret)
  expect(list.stdout).not.toContain(assistantSecret)

  expect((await docent('keys', 'create', '--org', 'demo', '--kind', 'root')).stderr).toMatch(/--kind must be admin or assistant/)
  expect((await docent('keys', 'create', '--org', 'acme', '--kind', 'assistant', '--project', 'demo')).stderr).toMatch(
    /belongs to organization "demo"/,
  )
  const scopedAdmin = await docent('keys', 'create', '--org', 'demo', '--kind', 'admin', '--project', 'demo')
  expect(scopedAdmin.code).toBe(2)
  expect(scopedAdmin.stderr).toMatch(/an admin key is organization-wide; --project is for assistant keys/)

  const index = await docent('index')
  expect(index.code).toBe(0)
  expect(index.stdout).toMatch(/demo: \d+ pages, revision \w+/)

  const second = await docent('keys', 'create', '--org', 'demo', '--kind', 'admin')
  const secondSecret = /^svc_\w+$/m.exec(second.stdout)![0]
  expect((await docent('keys', 'revoke', adminId)).stdout).toContain(`Revoked ${adminId}.`)

  const server = await startServer('node', { DOCENT_DATA_DIR: dataDir, DOCENT_WORKER: 'false' }, { timeoutMs: 90_000 })
  try {
    const job = (key: string) => fetch(`${server.url}/v2/agent/demo/job/none`, { headers: { authorization: `Bearer ${key}` } })
    expect((await job(adminSecret)).status).toBe(401)
    expect((await job(secondSecret)).status).toBe(404)
    const search = await fetch(`${server.url}/discovery/v1/search/demo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${assistantSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'install the SDK' }),
    })
    expect(search.status).toBe(200)
    // The server holds the data directory: the CLI is refused rather than corrupting it.
    const locked = await docent('keys', 'list')
    expect(locked.code).not.toBe(0)
    expect(locked.stderr).toMatch(/DATABASE_URL|in use|another process/i)
  } finally {
    await server.stop()
  }
}, 180_000)

// `--scope read`, then a server on the same data directory: the key reads and is refused every change.
test('keys create --scope read makes a key that reads and changes nothing; list shows the scope', async () => {
  const created = await docent('keys', 'create', '--org', 'demo', '--kind', 'admin', '--scope', 'read', '--name', 'viewer')
  expect(created.code).toBe(0)
  expect(created.stdout).toMatch(/Created read admin key key_\w+/)
  const secret = /^svc_\w+$/m.exec(created.stdout)![0]
  expect((await docent('keys', 'list', '--org', 'demo')).stdout).toMatch(/admin \(read\)/)
  expect((await docent('keys', 'create', '--org', 'demo', '--kind', 'admin', '--scope', 'admin')).stderr).toMatch(
    /--scope must be read or write/,
  )
  expect((await docent('keys', 'create', '--org', 'demo', '--kind', 'assistant', '--project', 'demo', '--scope', 'read')).stderr).toMatch(
    /--scope read is for admin keys/,
  )

  const server = await createDocent(
    {
      dataDir,
      projects: [
        { id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs' }, agent: { repository: 'local:demo' } },
      ],
      worker: false,
    },
    { log: consoleLogger('silent') },
  )
  try {
    expect((await server.app.request('/v2/agent/demo/jobs', { headers: bearer(secret) })).status).toBe(200)
    expect((await server.app.request('/v2/agent/demo/job', json({ prompt: 'Fix misspellings' }, bearer(secret)))).status).toBe(403)
  } finally {
    await server.stop()
  }
})

test('with the server running on the data directory, the keys CLI refuses in words, not with a stack trace', async () => {
  const server = await startServer(
    'node',
    { DOCENT_DATA_DIR: dataDir, DOCENT_STORE: 'pglite', DOCENT_WORKER: 'false' },
    { timeoutMs: 90_000 },
  )
  try {
    const refused = await docent('keys', 'list')
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/^docent: the PGlite data directory .* is in use by process \d+/)
    expect(refused.stderr).toMatch(/Stop that process first, or share a PostgreSQL server/)
    expect(refused.stderr).not.toMatch(/\n\s+at /)
  } finally {
    await server.stop()
  }
}, 120_000)
