import { cp, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../server/config.ts'
import { consoleLogger } from '../../server/log.ts'
import { createSearchService } from '../../server/search/service.ts'
import type { SearchResult } from '../../shared/search.ts'
import { bearer, json, testDocent } from '../support/app.ts'
import { createRepo, git, type GitServer, startGitServer } from '../support/git-server.ts'

const PASSWORD = 'docs-token-123'
let server: GitServer
let repo: Awaited<ReturnType<typeof createRepo>>

beforeAll(async () => {
  server = await startGitServer({ password: PASSWORD })
  // The docs live in a sub-folder of a larger repository, as they often do.
  repo = await createRepo(server, 'product', { files: { 'README.md': '# Product\n\nNot docs.\n', 'src/index.ts': 'export {}\n' } })
  await cp('demo/docs', join(repo.work, 'docs'), { recursive: true })
  await git(repo.work, 'add', '-A')
  await git(repo.work, 'commit', '-q', '-m', 'add docs')
  await git(repo.work, 'push', '-q', 'origin', 'main')
})

afterAll(async () => {
  await server?.close()
})

function serviceFor(options: { token?: string; refreshSeconds?: number; ref?: string } = {}) {
  const config = parseConfig({
    store: { kind: 'memory' },
    projects: [
      {
        id: 'p',
        organization: 'o',
        domain: 'docs.example.com',
        docs: {
          repository: repo.url,
          ref: options.ref ?? 'main',
          root: 'docs',
          token: { env: 'DOCS_TOKEN' },
          refreshSeconds: options.refreshSeconds ?? 300,
        },
      },
    ],
  })
  const env = options.token === undefined ? {} : { DOCS_TOKEN: options.token }
  return createSearchService({ config, log: consoleLogger('silent'), fetch, env })
}

async function pushPage(path: string, text: string): Promise<string> {
  await writeFile(join(repo.work, 'docs', path), text)
  await git(repo.work, 'add', '-A')
  await git(repo.work, 'commit', '-q', '-m', `docs: ${path}`)
  await git(repo.work, 'push', '-q', 'origin', 'main')
  return (await git(repo.work, 'rev-parse', 'HEAD')).trim()
}

describe('git docs source over a real git http-backend', () => {
  it('clones the ref into memory with the token and indexes the docs folder', async () => {
    const service = serviceFor({ token: PASSWORD })
    const corpus = await service.corpus('p')
    const head = (await git(repo.work, 'rev-parse', 'HEAD')).trim()
    expect(corpus.revision).toBe(head)
    expect(corpus.siteName).toBe('Lumen Flags')
    expect(corpus.pages()).toHaveLength(46)
    expect(corpus.page('README')).toBeNull()
    expect(corpus.search('rotate an sdk key', { pageSize: 1 })[0]?.section.path).toMatch(/environments$/)
    expect(server.requests.some((r) => r.authorization === `Basic ${Buffer.from(`x-access-token:${PASSWORD}`).toString('base64')}`)).toBe(
      true,
    )
  })

  it('picks up a new commit on the ref when refreshed, and only then', async () => {
    const service = serviceFor({ token: PASSWORD })
    const before = await service.corpus('p')
    expect(await service.refresh('p')).toEqual({ revision: before.revision, changed: false })
    const commit = await pushPage(
      'guides/kill-switches.mdx',
      '---\ntitle: Kill switches\n---\n\nA kill switch turns a feature off in an emergency.\n',
    )
    expect(await service.refresh('p')).toEqual({ revision: commit, changed: true })
    const after = await service.corpus('p')
    expect(after.revision).toBe(commit)
    expect(after.search('emergency kill switch', { pageSize: 1 })[0]?.section.path).toBe('guides/kill-switches')
  })

  it('checks the ref periodically once started', async () => {
    const service = serviceFor({ token: PASSWORD, refreshSeconds: 5 })
    const first = await service.corpus('p')
    service.start()
    try {
      const commit = await pushPage(
        'guides/maintenance-windows.mdx',
        '---\ntitle: Maintenance windows\n---\n\nFreeze flag changes during a maintenance window.\n',
      )
      let current = first
      for (let i = 0; i < 60 && current.revision !== commit; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500))
        current = await service.corpus('p')
      }
      expect(current.revision).toBe(commit)
      expect(current.search('maintenance window freeze', { pageSize: 1 })[0]?.section.path).toBe('guides/maintenance-windows')
    } finally {
      service.stop()
    }
  })

  it('fails clearly without the token or with a wrong one', async () => {
    await expect(serviceFor({}).corpus('p')).rejects.toThrow(/DOCS_TOKEN is not set/)
    await expect(serviceFor({ token: 'wrong' }).corpus('p')).rejects.toThrow(/401/)
    await expect(serviceFor({ token: PASSWORD, ref: 'no-such-branch' }).corpus('p')).rejects.toThrow()
  })

  it('serves the search endpoint from a git source', async () => {
    const t = await testDocent(
      {
        projects: [
          {
            id: 'demo',
            organization: 'demo',
            domain: 'demo',
            docs: { repository: repo.url, ref: 'main', root: 'docs', token: { env: 'DOCS_TOKEN' } },
            allowedOrigins: ['*'],
          },
          { id: 'other', organization: 'acme', domain: 'acme.example', docs: { directory: 'demo/docs' } },
        ],
      },
      { env: { DOCS_TOKEN: PASSWORD } },
    )
    const res = await t.app.request(
      '/discovery/v1/search/demo',
      json({ query: 'rotate an sdk key', pageSize: 1 }, bearer(t.keys.assistant)),
    )
    expect(res.status).toBe(200)
    const [hit] = (await res.json()) as SearchResult[]
    expect(hit?.path).toMatch(/environments$/)
    await t.docent.stop()
  })
})
