import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WorkspaceSearch } from '../../server/agent/workspace-search.ts'
import { createWorkspaceFactory } from '../../server/git/factory.ts'
import { openHttpWorkspace } from '../../server/git/clone.ts'
import { fetchHttpClient } from '../../server/git/http-client.ts'
import { memoryFs } from '../../server/git/memory-fs.ts'
import { createRepo, type GitServer, startGitServer } from '../support/git-server.ts'
import { closeServer, listenLocal } from '../support/local-http.ts'

let server: GitServer
beforeAll(async () => {
  server = await startGitServer()
})
afterAll(() => server.close())

/**
 * The real git server behind a fetch that answers some paths with a redirect first, as a host does for a moved
 * repository (`/moved/…`). Every address fetched is kept.
 */
function redirecting() {
  const fetched: string[] = []
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input)
    fetched.push(url)
    if (url.includes('/moved/')) return new Response(null, { status: 301, headers: { location: url.replace('/moved/', '/') } })
    return fetch(input, init)
  }
  return { fetchImpl, fetched }
}

describe('a git server that redirects', () => {
  it('a redirect on the same host is followed (a moved repository)', async () => {
    const repo = await createRepo(server, 'moved-here', { files: { 'a.md': 'moved\n' } })
    const { fetchImpl, fetched } = redirecting()
    const workspace = await createWorkspaceFactory({ fetch: fetchImpl }).open({
      repository: repo.url.replace(server.url, `${server.url}/moved`),
      ref: 'main',
    })
    expect(await workspace.readFile('a.md')).toBe('moved\n')
    expect(fetched.some((url) => url.includes('/moved/'))).toBe(true)
  })

  it('a redirect to another host is refused before anything is sent there', async () => {
    // Real servers: one that sends every request to another, which keeps what it gets (an internal address).
    const seenElsewhere: string[] = []
    const elsewhere = createServer((req, res) => {
      seenElsewhere.push(req.url ?? '')
      res.end('001e# service=git-upload-pack\n')
    })
    const elsewhereUrl = await listenLocal(elsewhere)
    const front = createServer((_, res) => res.writeHead(302, { location: `${elsewhereUrl}/internal` }).end())
    const frontUrl = await listenLocal(front)
    try {
      const error = await createWorkspaceFactory({ fetch })
        .open({ repository: `${frontUrl}/docs.git`, ref: 'main' })
        .catch((e: unknown) => e as Error)
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toContain('the git server answered with a redirect to another host')
      expect(seenElsewhere).toEqual([])
    } finally {
      await Promise.all([closeServer(front), closeServer(elsewhere)])
    }
  })
})

describe('a large repository', () => {
  it('reading its files gives the event loop turns: a timer set first fires before a search of all of them ends', async () => {
    // A clone's objects are in a pack, inflated synchronously: every read settles at once, and 100,000 files held the
    // event loop 8 s in one piece (every request to the server waited).
    const files = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`pages/${i}.md`, `# Page ${i}\n\nText ${i}.\n`]))
    const repo = await createRepo(server, 'many-files', { files })
    const workspace = await createWorkspaceFactory({ fetch }).open({ repository: repo.url, ref: 'main' })
    let fired = false
    setTimeout(() => {
      fired = true
    }, 0)
    const hits = await new WorkspaceSearch(workspace).search('Text 2999', { exact: true })
    expect(fired).toBe(true)
    expect(hits.map((hit) => hit.path)).toEqual(['pages/2999.md'])
  })
})

describe('the size of a git server answer', () => {
  const answering =
    (bytes: number): typeof fetch =>
    async () =>
      new Response(new Uint8Array(bytes))
  const read = async (method: 'GET' | 'POST', bytes: number) => {
    const client = fetchHttpClient(answering(bytes), undefined, { refs: 1_000, pack: 5_000 })
    const response = await client.request({ url: 'http://git.example/r.git/info/refs', method, headers: {} })
    let total = 0
    for await (const chunk of response.body!) total += chunk.byteLength
    return total
  }

  it('a ref list or a pack within its limit is read whole', async () => {
    expect(await read('GET', 1_000)).toBe(1_000)
    expect(await read('POST', 5_000)).toBe(5_000)
  })

  it('a clone whose ref list is cut at the limit fails naming the limit, not a missing branch', async () => {
    const repo = await createRepo(server, 'many-refs', { files: { 'a.md': 'a\n' } })
    const error = await openHttpWorkspace(
      { repository: repo.url, ref: 'main' },
      { fs: memoryFs, fetch, now: () => new Date(), answerLimits: { refs: 200, pack: 1_000_000 } },
    ).catch((e: unknown) => e as Error)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toContain("cannot clone main: the git server's answer is over 200 bytes")
  })

  it('past its limit the read stops with an error naming it', async () => {
    await expect(read('GET', 1_001)).rejects.toThrow("the git server's answer is over 1000 bytes")
    await expect(read('POST', 5_001)).rejects.toThrow("the git server's answer is over 5000 bytes")
  })
})
