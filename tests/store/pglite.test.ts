import { chmod, mkdtemp, rm, stat } from 'node:fs/promises'
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
