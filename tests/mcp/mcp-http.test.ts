import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult, TextContent } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { testDocent } from '../support/app.ts'

// The same client over a real socket with the platform's fetch, as an editor or chat app would connect.
const t = await testDocent()
let server: ServerType
let url: string

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve(
      {
        port: 0,
        hostname: '127.0.0.1',
        fetch: (request, env) => t.app.fetch(request, { ip: env.incoming.socket.remoteAddress }),
      },
      () => resolve(),
    )
  })
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await t.docent.stop()
})

test('an MCP client connects over HTTP with the assistant key, searches and reads a page', async () => {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp/demo`), {
    requestInit: { headers: { authorization: `Bearer ${t.keys.assistant}` } },
  })
  const client = new Client({ name: 'docent-http-test', version: '1.0.0' })
  await client.connect(transport)
  expect(client.getServerVersion()?.name).toBe('Lumen Flags')
  const found = await client.callTool({ name: 'search_docs', arguments: { query: 'webhook signature verification', pageSize: 2 } })
  const [best] = (found.structuredContent as { results: Array<{ path: string; url: string }> }).results
  expect(best!.path).toBe('guides/webhooks')
  expect(best!.url.startsWith(`${url}/guides/webhooks`)).toBe(true)
  const page = (await client.callTool({ name: 'get_page', arguments: { path: best!.path } })) as CallToolResult
  expect((page.content[0] as TextContent).text).toMatch(/^# Webhooks\n/)
  // The page URL the tool gave is a page of the demo site.
  expect((await fetch(best!.url, { headers: { accept: 'text/html' } })).status).toBe(200)
  await client.close()
})
