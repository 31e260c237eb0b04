// PGlite data directories for tests. A fresh directory runs initdb (3 s on an idle machine, 10-20 s on a busy
// one); a copy of a closed, migrated directory opens in a fraction of a second. The template is made once per
// machine and PGlite version and schema, under the temp folder, and shared by every test file and worker.
import { createHash } from 'node:crypto'
import { cp, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrations } from '../../server/store/sql/migrations.ts'
import { openPgliteStore } from '../../server/store/sql/pglite.ts'

async function templateDir(): Promise<string> {
  const { version } = JSON.parse(await readFile('node_modules/@electric-sql/pglite/package.json', 'utf8')) as { version: string }
  // The statements' hash as well as the version: branches that add a migration with the same number (renumbered at
  // merge) must not share a template on one machine.
  const schema = Math.max(...migrations.map((migration) => migration.version))
  // The statements' hash too: branches (and worktrees of one machine) may number different migrations alike.
  const hash = createHash('sha256').update(JSON.stringify(migrations)).digest('hex').slice(0, 12)
  const template = join(tmpdir(), `docent-pglite-template-${version}-schema${schema}-${hash}`)
  if (await stat(join(template, 'PG_VERSION')).catch(() => null)) return template
  // Made aside and renamed into place, so a worker never copies a half-made template.
  const staging = await mkdtemp(join(tmpdir(), 'docent-pglite-staging-'))
  const store = await openPgliteStore(join(staging, 'pglite'))
  await store.close()
  await writeFile(join(staging, 'pglite', 'docent-template'), 'a closed, migrated PGlite data directory\n')
  await rename(join(staging, 'pglite'), template).catch(() => {
    // another worker made it first: use theirs
  })
  await rm(staging, { recursive: true, force: true })
  return template
}

/** Fills `dir` (which must not exist yet) with an empty, migrated PGlite data directory, e.g. `<dataDir>/pglite`. */
export async function pgliteDataDir(dir: string): Promise<string> {
  await cp(await templateDir(), dir, { recursive: true })
  return dir
}
