import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { pgliteDataDir } from '../../tests/support/pglite.ts'
import { consoleLogger } from '../log.ts'
import { createDocent } from '../mod.ts'

const dataDir = await mkdtemp(join(tmpdir(), 'docent-site-key-'))
afterAll(() => rm(dataDir, { recursive: true, force: true }))

/** Starts a Docent on the embedded store in `dataDir`, reads the key a page embeds, runs `then`, and stops. */
async function withPageKey(then: (key: string, docent: Awaited<ReturnType<typeof createDocent>>) => Promise<void>) {
  const docent = await createDocent(
    {
      dataDir,
      store: { kind: 'pglite' },
      worker: false,
      projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs', public: true } }],
    },
    { log: consoleLogger('silent') },
  )
  try {
    const html = await (await docent.app.request('/quickstart')).text()
    await then(/data-api-key="(svc_dsc_[A-Za-z0-9]+)"/.exec(html)![1]!, docent)
  } finally {
    await docent.stop()
  }
}

const siteKeys = async (docent: Awaited<ReturnType<typeof createDocent>>) =>
  (await docent.context.store.listKeys('demo')).filter((key) => key.name === 'demo site (made at start)')

describe('the demo site key on the embedded store', () => {
  it('is kept beside the store and reused after a restart; a revoked one is replaced', async () => {
    await pgliteDataDir(join(dataDir, 'pglite'))
    let first = ''
    await withPageKey(async (key, docent) => {
      first = key
      expect(await siteKeys(docent)).toHaveLength(1)
      expect((await readFile(join(dataDir, 'site-key-demo'), 'utf8')).trim()).toBe(key)
    })
    await withPageKey(async (key, docent) => {
      expect(key).toBe(first)
      const keys = await siteKeys(docent)
      expect(keys).toHaveLength(1)
      await docent.context.store.revokeKey(keys[0]!.id, new Date())
    })
    await withPageKey(async (key, docent) => {
      expect(key).not.toBe(first)
      expect(await siteKeys(docent)).toHaveLength(2)
      expect((await readFile(join(dataDir, 'site-key-demo'), 'utf8')).trim()).toBe(key)
      const answer = await docent.app.request('/discovery/v1/search/demo', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: '{"query":"install"}',
      })
      expect(answer.status).toBe(200)
    })
  }, 60_000)
})

describe('the demo site key, visit after visit', () => {
  it('is made once per process, however many uncached visits (sequential and at once) the pages get', async () => {
    const docent = await createDocent(
      {
        store: { kind: 'memory' },
        worker: false,
        projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs', public: true } }],
      },
      { log: consoleLogger('silent') },
    )
    try {
      const visit = async (path: string) => {
        const html = await (
          await docent.app.request(path, { headers: { accept: 'text/html', 'cache-control': 'no-cache', pragma: 'no-cache' } })
        ).text()
        return /data-api-key="(svc_dsc_[A-Za-z0-9]+)"/.exec(html)?.[1]
      }
      const seen = new Set<string | undefined>()
      for (const path of ['/', '/quickstart', '/', '/concepts/flags', '/']) seen.add(await visit(path))
      for (const key of await Promise.all(Array.from({ length: 20 }, (_, i) => visit(i % 2 ? '/' : '/quickstart')))) seen.add(key)
      expect(seen.size).toBe(1)
      expect([...seen][0]).toMatch(/^svc_dsc_/)
      expect(await siteKeys(docent)).toHaveLength(1)
    } finally {
      await docent.stop()
    }
  })
})
