import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Runtime, type ServerProcess, startServer } from '../support/server-process.ts'
import { ensureWidgetBuilt } from './support.ts'

// The demo site and the widget files from the real server process on each runtime (the site reads widget/dist
// through node:fs, loaded only when serving: Node, Deno and Bun must all provide it).

describe.each<Runtime>(['node', 'deno', 'bun'])('demo site on %s', (runtime) => {
  let server: ServerProcess

  beforeAll(async () => {
    await ensureWidgetBuilt()
    server = await startServer(runtime, { DOCENT_STORE: 'memory' })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('serves pages with the widget tag and a working key, and the widget with its lazy chunks', async () => {
    const html = await (await fetch(`${server.url}/quickstart`)).text()
    const key = html.match(/data-api-key="(svc_dsc_[A-Za-z0-9]+)"/)?.[1]
    expect(key).toBeDefined()
    const search = await fetch(`${server.url}/discovery/v1/search/demo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'percentage rollout' }),
    })
    expect(search.status).toBe(200)
    const entry = await fetch(`${server.url}/widget/docent.mjs`)
    expect(entry.status).toBe(200)
    const chunks = [...(await entry.text()).matchAll(/\.\/(chunks\/[\w-]+\.mjs)/g)].map((m) => m[1])
    expect(chunks.length).toBeGreaterThan(0)
    for (const chunk of chunks) expect((await fetch(`${server.url}/widget/${chunk}`)).status).toBe(200)
  })
})
