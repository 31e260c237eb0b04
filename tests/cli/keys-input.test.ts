import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sha256Hex } from '../../server/keys/keys.ts'
import { openPgliteStore } from '../../server/store/sql/pglite.ts'
import type { KeyRecord } from '../../server/store/types.ts'
import { pgliteDataDir } from '../support/pglite.ts'

// What the docent CLI refuses and how it prints, as an operator meets it: a subprocess on the embedded store.

const run = promisify(execFile)
let dataDir: string

async function docent(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/docent.mjs', ...args], {
      env: { ...process.env, DOCENT_DATA_DIR: dataDir, ...env },
    })
    return { stdout, stderr, code: 0 }
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number }
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code }
  }
}

const admin = (...more: string[]) => ['keys', 'create', '--org', 'demo', '--kind', 'admin', ...more]
const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at |Error:/)

/** Keys written straight to the store, as a key made before names were checked (or by another tool) would be. */
async function storeKeys(prefix: string, records: Partial<KeyRecord>[]) {
  const store = await openPgliteStore(join(dataDir, 'pglite'))
  try {
    for (const [index, record] of records.entries()) {
      await store.insertKey({
        id: `key_${prefix}${String(index).padStart(6, '0')}`,
        hash: await sha256Hex(`svc_stored${index}${Math.random()}`),
        kind: 'admin',
        organization: 'stored',
        projectId: null,
        name: null,
        scope: 'write',
        last4: 'abcd',
        createdAt: new Date('2026-01-01T00:00:00Z'),
        expiresAt: null,
        revokedAt: null,
        ...record,
      })
    }
  } finally {
    await store.close()
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docent-cli-keys-'))
  await pgliteDataDir(join(dataDir, 'pglite'))
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))

describe('keys create refuses', () => {
  test.each([
    ['a newline in the name', ['--name', 'evil\norg'], /--name must not contain control characters \(U\+000A/],
    ['an escape sequence in the name', ['--name', 'x\x1b]0;owned\x07'], /--name must not contain control characters \(U\+001B/],
    ['a C1 character in the name', ['--name', 'x\u009by'], /--name must not contain control characters \(U\+009B/],
    ['a bidi override in the name', ['--name', 'abc\u202Edef'], /--name must not contain control characters \(U\+202E/],
    ['a bidi isolate in the name', ['--name', 'abc\u2066def'], /--name must not contain control characters \(U\+2066/],
    ['a name longer than the API allows', ['--name', 'a'.repeat(5000)], /--name must be at most 100 characters/],
    ['an expiry of 0d', ['--expires', '0d'], /--expires: must be in the future/],
    ['an expiry of 0h', ['--expires', '0h'], /--expires: must be in the future/],
    ['a past date', ['--expires', '2020-01-01'], /--expires: must be in the future/],
    ['a date that does not exist', ['--expires', '2030-02-30'], /--expires: expected .* existing ISO date/],
    ['an expiry past any date', ['--expires', '99999999999d'], /--expires: at most 3650 days ahead/],
    ['an expiry past the API maximum', ['--expires', '9999999d'], /--expires: at most 3650 days ahead/],
    ['an expiry one day past the API maximum', ['--expires', '3651d'], /--expires: at most 3650 days ahead/],
  ])('%s (exit 1, in words)', async (_, more, message) => {
    const refused = await docent(admin(...more))
    expect(refused.stderr).toMatch(message)
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('')
    noStack(refused.stderr)
  })

  test('an org id with control characters, for create and list', async () => {
    for (const args of [
      ['keys', 'create', '--org', 'evil\norg', '--kind', 'admin'],
      ['keys', 'list', '--org', 'x\x1b[2J'],
    ]) {
      const refused = await docent(args)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toMatch(/--org must not contain control characters/)
      // The refusal itself prints nothing raw.
      expect(refused.stderr).not.toMatch(/\x1b/)
    }
  })

  test('a key on the memory store, which is gone when the command ends', async () => {
    const refused = await docent(admin(), { DOCENT_STORE: 'memory' })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/memory store .* nothing would be kept/)
    expect(refused.stdout).not.toMatch(/svc_/)
  })

  test('the longest name and expiry the API allows are taken', async () => {
    const created = await docent(admin('--name', 'n'.repeat(100), '--expires', '3650d'))
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/^svc_\w+$/m)
  })
})

test('keys list writes stored control characters out and shows the status the API does', async () => {
  await storeKeys('stored', [
    { name: 'ok\nkey_forged  admin (write)  demo', organization: 'stored' },
    { name: '\x1b]8;;https://evil.example\x07click\x1b]8;;\x07 \x1b[2J\u202Eevil', organization: 'stored' },
    { name: 'old', organization: 'stored', expiresAt: new Date('2026-01-02T00:00:00Z') },
  ])
  const list = await docent(['keys', 'list', '--org', 'stored'])
  expect(list.code).toBe(0)
  // One header and three rows: a newline in a name does not make a row.
  expect(list.stdout.trimEnd().split('\n')).toHaveLength(4)
  expect(list.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/)
  expect(list.stdout).toContain('ok\\nkey_forged')
  expect(list.stdout).toContain('\\x1b]8;;https://evil.example\\x07click')
  expect(list.stdout).toContain('\\u202eevil')
  expect(list.stdout).toMatch(/^key_stored000002 .* old\s+2026-01-01\s+2026-01-02\s+expired$/m)
  expect(list.stdout).toMatch(/^key_stored000000 .*\s+never\s+active$/m)
})

test('keys revoke revokes every id given and reports each; an unknown one fails the command', async () => {
  const ids = []
  for (let i = 0; i < 2; i++) ids.push(/key_\w+/.exec((await docent(admin('--name', `r${i}`))).stdout)![0])
  const revoked = await docent(['keys', 'revoke', ids[0]!, 'key_nosuchkey', ids[1]!])
  expect(revoked.stdout).toBe(`Revoked ${ids[0]}.\nRevoked ${ids[1]}.\n`)
  expect(revoked.stderr).toMatch(/no active key "key_nosuchkey"/)
  expect(revoked.code).toBe(1)
  const list = await docent(['keys', 'list', '--org', 'demo'])
  for (const id of ids) expect(list.stdout).toMatch(new RegExp(`^${id} .*revoked \\d{4}-\\d{2}-\\d{2}$`, 'm'))
})

describe('arguments', () => {
  test.each([
    ['keys', '--help'],
    ['keys', 'create', '-h'],
    ['automations', '--help'],
    ['serve', '--help'],
    ['index', '--help'],
  ])('%s %s prints the usage and exits 0', async (...args) => {
    const help = await docent(args)
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage:$/m)
  })

  test.each([
    [['serve', '--bogus'], /Unknown option '--bogus'/],
    [['keys', 'list', '--bogus'], /Unknown option '--bogus'/],
    [['keys', 'list', 'extra'], /keys list: unexpected argument "extra"/],
    [['index', 'extra'], /index: unexpected argument "extra"/],
    [['automations', 'list', '--bogus', 'x'], /Unknown option '--bogus'/],
    [['keys'], /unknown keys command ""/],
  ])('%j is a usage error: exit 2 with the usage', async (args, message) => {
    const refused = await docent(args)
    expect(refused.stderr).toMatch(message)
    expect(refused.stderr).toMatch(/^Usage:$/m)
    expect(refused.code).toBe(2)
    noStack(refused.stderr)
  })

  test.each(['abc', '1.5', '0', '101'])('automations runs --limit %s is refused', async (limit) => {
    const refused = await docent(['automations', 'runs', 'draft-changelog', '--limit', limit])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/automations runs: --limit must be/)
  })
})

test('keys list | head -1 ends quietly: no EPIPE trace', async () => {
  await storeKeys(
    'many',
    Array.from({ length: 2000 }, () => ({ organization: 'many', name: 'a fairly long name to fill the pipe quickly' })),
  )
  const { stdout, stderr } = await run('sh', ['-c', `"${process.execPath}" bin/docent.mjs keys list --org many | head -1; exit 0`], {
    env: { ...process.env, DOCENT_DATA_DIR: dataDir },
    maxBuffer: 1 << 24,
  })
  expect(stdout).toMatch(/^ID\s+KIND/)
  expect(stderr).toBe('')
}, 60_000)
