import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { openPgliteStore } from '../../server/store/sql/pglite.ts'
import { pgliteDataDir } from '../support/pglite.ts'
import { describePgliteConformance } from './sql-conformance.ts'

await describePgliteConformance('pglite')

describe('the PGlite data directory', () => {
  test('is readable by its owner only (0700), even when it was made looser before', async () => {
    const root = await mkdtemp(join(tmpdir(), 'docent-pglite-mode-'))
    try {
      const dir = await pgliteDataDir(join(root, 'pglite'))
      await chmod(dir, 0o755)
      const store = await openPgliteStore(dir)
      await store.close()
      expect((await stat(dir)).mode & 0o777).toBe(0o700)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})

describe('a new PGlite data directory copied from a template', () => {
  test("opens with the template's data, and a copy cut short (no PG_VERSION) is made again", async () => {
    const root = await mkdtemp(join(tmpdir(), 'docent-pglite-template-'))
    try {
      const template = await pgliteDataDir(join(root, 'template'))
      const seeded = await openPgliteStore(template)
      await seeded.insertKey({
        id: 'key_template',
        hash: 'a'.repeat(64),
        kind: 'admin',
        organization: 'acme',
        projectId: null,
        name: 'from the template',
        scope: 'write',
        last4: 'late',
        createdAt: new Date(),
        expiresAt: null,
        revokedAt: null,
      })
      await seeded.close()
      // A copy interrupted before PG_VERSION: files of the template but no database yet.
      const cut = join(root, 'cut')
      await mkdir(cut, { recursive: true })
      await writeFile(join(cut, 'postgresql.conf'), '# half a copy\n')
      for (const dir of [join(root, 'fresh'), cut]) {
        const store = await openPgliteStore(dir, { template })
        expect((await store.listKeys('acme')).map((key) => key.id)).toEqual(['key_template'])
        await store.close()
        expect((await stat(join(dir, 'PG_VERSION'))).isFile()).toBe(true)
      }
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
