import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { mkdir } from 'node:fs/promises'
import { configFromEnv } from '../../../server/config-from-env.ts'
import { consoleLogger } from '../../../server/log.ts'
import { createDocent, type DocentOverrides } from '../../../server/mod.ts'
import { git } from '../../support/git-server.ts'
import { pgliteDataDir } from '../../support/pglite.ts'
import { automationsApi, until } from './api.ts'

export const ADMIN = 'svc_AutomationsTestAdminKey000000001'
export const admin = { authorization: `Bearer ${ADMIN}` }

/**
 * The embedded default as `npm start` makes it (PGlite, the demo docs, the local git host, offline models, no API key),
 * on a data directory of its own, with the automations' scheduler ticking fast so a push is noticed quickly.
 */
export async function embeddedDocent(overrides: DocentOverrides = {}, env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'docent-automations-'))
  await pgliteDataDir(join(dataDir, 'pglite'))
  const fast = { DOCENT_AUTOMATIONS_TICK_MS: '100', DOCENT_AGENT_POLL_MS: '100' }
  const config = configFromEnv({ DOCENT_DATA_DIR: dataDir, DOCENT_ADMIN_KEY: ADMIN, ...fast, ...env })
  const docent = await createDocent(config, {
    log: consoleLogger('silent'),
    env: { ...fast, ...env },
    ...overrides,
  })
  await docent.start()
  const request = (path: string, init: { method?: string; body?: unknown } = {}) =>
    docent.app.request(path, {
      method: init.method ?? 'GET',
      headers: { ...admin, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
  const clone = join(dataDir, 'clone')
  return {
    docent,
    dataDir,
    request,
    ...automationsApi(docent.app, admin),
    /** A working copy of the embedded repository (`git clone` of the bare repository on disk), made on first use. */
    async edit(files: Record<string, (text: string) => string>, message: string): Promise<string> {
      const bare = join(dataDir, 'git', 'demo.git')
      if (!(await readFile(join(clone, '.git', 'HEAD'), 'utf8').catch(() => null))) await git(dataDir, 'clone', '-q', bare, clone)
      await git(clone, 'pull', '-q', '--ff-only', 'origin', 'main')
      for (const [path, change] of Object.entries(files)) {
        const full = join(clone, path)
        await mkdir(dirname(full), { recursive: true })
        await writeFile(full, change(await readFile(full, 'utf8').catch(() => '')))
      }
      await git(clone, 'add', '-A')
      await git(clone, 'commit', '-q', '-m', message)
      await git(clone, 'push', '-q', 'origin', 'HEAD:main')
      return (await git(clone, 'rev-parse', 'HEAD')).trim()
    },
    /** A file as a branch of the embedded repository has it. */
    async show(branch: string, path: string): Promise<string> {
      return git(join(dataDir, 'git', 'demo.git'), 'show', `${branch}:${path}`)
    },
    async close() {
      await docent.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

export { until }
