import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult, TextContent } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Runtime, type ServerProcess, startServer } from '../support/server-process.ts'

// The MCP SDK's web-standard transport is part of the portable core: the real entrypoints on Deno and Bun serve it
// (Node is covered by the other MCP tests). The demo project's MCP server is public: no key needed.
for (const runtime of ['deno', 'bun'] as Runtime[]) {
  describe(`MCP and llms.txt on ${runtime}`, () => {
    let server: ServerProcess
    let dataDir: string
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), `docent-mcp-${runtime}-`))
      server = await startServer(runtime, { DOCENT_STORE: 'memory', DOCENT_DATA_DIR: dataDir })
    }, 120_000)
    afterAll(async () => {
      await server?.stop()
      await rm(dataDir, { recursive: true, force: true })
    })

    test('the SDK client searches and reads a page; llms.txt and a .md page are served', async () => {
      const client = new Client({ name: `docent-${runtime}-test`, version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/demo`)))
      expect(client.getServerVersion()?.name).toBe('Lumen Flags')
      const found = await client.callTool({ name: 'search_docs', arguments: { query: 'install the python sdk', pageSize: 3 } })
      expect((found.structuredContent as { results: Array<{ path: string }> }).results[0]!.path).toBe('sdks/python')
      const page = (await client.callTool({ name: 'get_page', arguments: { path: 'sdks/python' } })) as CallToolResult
      expect((page.content[0] as TextContent).text).toMatch(/^# Python SDK/)
      await client.close()

      const llms = await fetch(`${server.url}/llms.txt`)
      expect(llms.status).toBe(200)
      expect(await llms.text()).toMatch(/^# Lumen Flags\n\n> /)
      const markdown = await fetch(`${server.url}/sdks/python.md`)
      expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
      expect(await markdown.text()).toMatch(/^# Python SDK/)
    })
  })
}
