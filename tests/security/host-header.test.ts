import { afterAll, describe, expect, test } from 'vitest'
import { bearer, json, testDocent } from '../support/app.ts'

// Links Docent hands out (llms.txt, page markdown, streamed sources, stored threads, MCP results) come from
// configuration, never from a Host header a client made up.

const EVIL = 'http://evil.example'
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

async function linksFrom(t: Awaited<ReturnType<typeof testDocent>>, origin: string): Promise<string> {
  const { app, keys, store } = t
  const texts: string[] = []
  // The first project is the site project: its files are at the root.
  texts.push(await (await app.request(`${origin}/llms.txt`)).text())
  texts.push(await (await app.request(`${origin}/llms-full.txt`)).text())
  texts.push(await (await app.request(`${origin}/docs/demo/llms.txt`)).text())
  texts.push(await (await app.request(`${origin}/quickstart.md`)).text())
  const answer = await app.request(
    `${origin}/discovery/v2/assistant/demo/message`,
    json(
      { fp: 'anonymous', messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: 'How do I install the SDK?' }] }] },
      bearer(keys.assistant),
    ),
  )
  texts.push(await answer.text())
  const threadId = answer.headers.get('x-thread-id')!
  for (let i = 0; i < 50 && (await store.listMessages(threadId)).length < 2; i++) await new Promise((r) => setTimeout(r, 20))
  texts.push(JSON.stringify(await store.listMessages(threadId)))
  const search = await app.request(`${origin}/mcp/demo`, {
    method: 'POST',
    headers: { ...mcpHeaders, ...bearer(keys.assistant) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_docs', arguments: { query: 'install' } } }),
  })
  texts.push(await search.text())
  return texts.join('\n')
}

describe('link bases', () => {
  const docents: Array<{ docent: { stop(): Promise<void> } }> = []
  afterAll(async () => {
    for (const t of docents) await t.docent.stop()
  })

  test('an untrusted Host gets links to http://localhost:PORT, never to itself', async () => {
    const t = await testDocent({ port: 8123 })
    docents.push(t)
    const text = await linksFrom(t, EVIL)
    expect(text).not.toContain('evil.example')
    expect(text).toContain('http://localhost:8123/quickstart')
  })

  test('a host listed in trustedHosts, or loopback, is used; publicUrl wins over both', async () => {
    const trusted = await testDocent({ trustedHosts: ['docs.acme.com'] })
    docents.push(trusted)
    expect(await linksFrom(trusted, 'https://docs.acme.com')).toContain('https://docs.acme.com/quickstart')
    expect(await linksFrom(trusted, 'http://127.0.0.1:9999')).toContain('http://127.0.0.1:9999/quickstart')
    expect(await linksFrom(trusted, EVIL)).not.toContain('evil.example')

    const configured = await testDocent({ publicUrl: 'https://docent.acme.com/' })
    docents.push(configured)
    const text = await linksFrom(configured, 'http://localhost')
    expect(text).toContain('https://docent.acme.com/quickstart')
    expect(text).not.toContain('http://localhost/')
  })
})
