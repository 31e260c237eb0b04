import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildServer, SERVER_DIST } from '../../bin/build-server.mjs'
import { buildConsoleIfStale } from '../../console/build.ts'
import { createAgentClient } from '../../shared/client.ts'
import { buildIfStale as buildWidgetIfStale } from '../../widget/build.ts'
import { type ServerProcess, startServer } from '../support/server-process.ts'

// `npm start` runs the bundle bin/build-server.mjs makes, not the TypeScript. The bundle must do all the sources do:
// its lazily loaded parts (the agent's git, the MCP SDK) load from their chunks, parse workers start from their own
// entry, PGlite finds its files, and the widget and console are served from their folders beside it.

const ADMIN = 'svc_BuiltServerTestAdminKey0000001'
const ASSISTANT = 'svc_dsc_BuiltServerTestAssistant0001'
let server: ServerProcess
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docent-built-'))
  // 320 pages: over the 300 from which a site is parsed in worker threads.
  const docs = join(dir, 'docs')
  await mkdir(join(docs, 'guides'), { recursive: true })
  const pages = Array.from({ length: 320 }, (_, i) => `guides/topic-${i}`)
  await writeFile(join(docs, 'docs.json'), JSON.stringify({ name: 'Built', navigation: { groups: [{ group: 'Guides', pages }] } }))
  await writeFile(join(docs, 'index.mdx'), '---\ntitle: Home\n---\n\n# Home\n\nWelcome to the built docs.\n')
  await Promise.all(
    pages.map((page, i) =>
      writeFile(
        join(docs, `${page}.mdx`),
        `---\ntitle: Topic ${i}\n---\n\n# Topic ${i}\n\n## Setting up topic ${i}\n\nTopic ${i} is configured with the ${i === 300 ? 'zanzibarflux' : 'usual'} option.\n`,
      ),
    ),
  )
  await Promise.all([buildServer(), buildWidgetIfStale(), buildConsoleIfStale()])
  server = await startServer(
    'node-built',
    {
      DOCENT_DATA_DIR: join(dir, 'data'),
      DOCENT_DOCS_DIR: docs,
      DOCENT_ADMIN_KEY: ADMIN,
      DOCENT_ASSISTANT_KEY: ASSISTANT,
      DOCENT_AGENT_POLL_MS: '100',
    },
    { timeoutMs: 120_000 },
  )
}, 300_000)

afterAll(async () => {
  await server?.stop()
  await rm(dir, { recursive: true, force: true })
})

const assistant = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ASSISTANT}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  })

describe('the built server (npm start)', () => {
  test('the PGlite template is readable by every user: a build made as root starts as another', async () => {
    const unreadable: string[] = []
    const walk = async (path: string): Promise<void> => {
      const mode = (await stat(path)).mode
      if ((await stat(path)).isDirectory()) {
        if ((mode & 0o005) !== 0o005) unreadable.push(path)
        for (const name of await readdir(path)) await walk(join(path, name))
      } else if ((mode & 0o004) === 0) unreadable.push(path)
    }
    await walk(join(SERVER_DIST, 'pglite-template'))
    expect(unreadable).toEqual([])
  })

  test('serves the widget, the console and the site, and finds a page parsed in a worker thread', async () => {
    expect((await fetch(`${server.url}/widget/docent.js`)).status).toBe(200)
    expect(await (await fetch(`${server.url}/console`)).text()).toContain('<script')
    for (let i = 0; i < 300; i++) {
      const hits = (await (await assistant('/discovery/v1/search/demo', { query: 'zanzibarflux' })).json()) as Array<{ path: string }>
      if (Array.isArray(hits) && hits.length > 0) {
        expect(hits[0]!.path).toBe('guides/topic-300')
        break
      }
      if (i === 299) throw new Error(`the docs never loaded:\n${server.output()}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(server.output()).not.toMatch(/parse worker|worker thread.*(failed|error)/i)
  }, 90_000)

  test('answers through the v2 stream and serves MCP (a lazily loaded chunk)', async () => {
    const answer = await assistant('/discovery/v2/assistant/demo/message', {
      fp: 'reader',
      messages: [{ id: 'q1', role: 'user', parts: [{ type: 'text', text: 'How is topic 300 configured?' }] }],
    })
    expect(answer.status).toBe(200)
    expect(await answer.text()).toContain('"type":"finish"')
    const mcp = await assistant('/mcp/demo', { jsonrpc: '2.0', id: 1, method: 'tools/list' })
    expect(mcp.status).toBe(200)
    expect(JSON.stringify(await mcp.json())).toContain('search_docs')
  })

  test('runs an agent job on the embedded git host (isomorphic-git, from its chunk)', async () => {
    const client = createAgentClient({ baseUrl: server.url, apiKey: ADMIN, projectId: 'demo' })
    // "Topic 1" is on 111 pages (1, 10–19, 100–199): edits over three replies, under the 200 files a run may touch.
    const created = await client.createJob('Replace "Topic 1" with "Subject 1" everywhere')
    const job = await client.waitForJob(created.id, { intervalMs: 200, timeoutMs: 120_000 })
    expect(job).toMatchObject({ status: 'completed', error: null })
    const events = (await client.events(created.id)).map((event) => event.type)
    expect(events.filter((type) => type === 'file.changed')).toHaveLength(111)
    expect(job.prLink).toMatch(/\/review\//)
    expect((await fetch(job.prLink!)).status).toBe(200)
  }, 150_000)

  test('loads at start only what serving needs: the libraries left for first use are outside its static imports', async () => {
    // What the entry imports statically is parsed before /healthz can answer (bench/startup). esbuild marks each
    // bundled file with a `// node_modules/<package>/...` comment, so the chunks reached say which packages they hold.
    const reached = new Map<string, string>()
    const visit = async (file: string) => {
      if (reached.has(file)) return
      const text = await readFile(join(SERVER_DIST, file), 'utf8')
      reached.set(file, text)
      for (const [, spec] of text.matchAll(/^import\s*(?:[^'";]*?\sfrom\s*)?["']\.\/([^"']+)["']/gm)) await visit(spec!)
    }
    await visit('node.mjs')
    // The entry's one dynamic import is the server itself (node-server.ts), loaded at start too.
    for (const [, spec] of reached.get('node.mjs')!.matchAll(/import\(["']\.\/([^"']+)["']\)/g)) await visit(spec!)
    const packages = new Set(
      [...reached.values()].flatMap((text) => [...text.matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1]!)),
    )
    expect(packages).toContain('hono')
    expect(packages).toContain('zod')
    for (const later of ['ai', '@ai-sdk/openai', '@ai-sdk/gateway', 'isomorphic-git', 'pako', 'micromark', 'acorn', 'yaml', 'marked']) {
      expect(packages, `${later} is loaded at start`).not.toContain(later)
    }
  })
})
