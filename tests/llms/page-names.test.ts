import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { pageHref } from '../../server/search/page-url.ts'
import { testDocent } from '../support/app.ts'

// Page files whose names need percent-encoding in a URL, and titles with control characters in them: every link the
// docs files and the site hand out resolves to its page, and no control character reaches what they write.

/** File names (without `.mdx`) that a URL must encode: a `%` (alone, or making what reads as an escape), a space, non-ASCII, parentheses. */
const NAMES = ['%2e%2e', '%41', '100%', 'a b', 'a#b', 'café', 'f(x)', 'sub dir/ünïcode page']

/** A word only each page holds, to find it by. */
const FRUITS = ['apricot', 'blueberry', 'cherry', 'damson', 'elderberry', 'feijoa', 'guava', 'huckleberry', 'jackfruit']

let dir: string
let t: Awaited<ReturnType<typeof testDocent>>

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docent-page-names-'))
  const navigation = { groups: [{ group: 'Odd \u001b[2Jnames\u0000', pages: ['index', ...NAMES, 'controls', 'own-heading'] }] }
  await writeFile(join(dir, 'docs.json'), JSON.stringify({ name: 'Odd\u0007 Docs\u001b[0m', description: 'Odd names.', navigation }))
  await writeFile(join(dir, 'index.mdx'), '---\ntitle: Home\n---\n\nBody of the home page.\n')
  await mkdir(join(dir, 'sub dir'))
  for (const [i, name] of NAMES.entries()) {
    await writeFile(join(dir, `${name}.mdx`), `---\ntitle: "Page ${name}"\n---\n\nBody of ${name}. It tells of the ${FRUITS[i]}.\n`)
  }
  await writeFile(
    join(dir, 'a#b.mdx'),
    `---\ntitle: "Page a#b"\n---\n\nBody of a#b. ${'It opens the page. '.repeat(30)}\n\n## The hash section\n\nWhat the hash section says. ${'It goes on. '.repeat(30)}\n`,
    { flag: 'w' },
  )
  // YAML escapes: NUL, ESC, DEL, a C1 control and a right-to-left override in the title; NUL in the description.
  await writeFile(
    join(dir, 'controls.mdx'),
    '---\ntitle: "Nul\\0 and\\e[31m red\\x7f\\x9b end\\u202e"\ndescription: "First line\\nsecond\\tline\\0."\n---\n\nBody of controls.\n',
  )
  // A title read from the page's own heading, with a raw ESC and a backspace.
  await writeFile(join(dir, 'own-heading.mdx'), '# Own\u001b[1m heading\b here\n\nBody of own-heading.\n')
  t = await testDocent({ projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: dir, public: true } }] })
})
afterAll(async () => {
  await t?.docent.stop()
  await rm(dir, { recursive: true, force: true })
})

const get = (url: string, accept?: string) => t.app.request(url, accept ? { headers: { accept } } : {})
const linksOf = (llms: string) => [...llms.matchAll(/^- \[(.*)\]\((\S+)\)/gm)].map(([, title, url]) => ({ title: title!, url: url! }))
/** Control characters but tab and line feed: C0, DEL, C1, and the bidirectional overrides and isolates. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

describe('page files whose names need percent-encoding', () => {
  test.each(['/llms.txt', '/docs/demo/llms.txt'])('every link of %s resolves to its page’s markdown', async (file) => {
    const links = linksOf(await (await get(file)).text())
    for (const name of NAMES) {
      const link = links.find((l) => l.title === `Page ${name}`)
      expect(link, name).toBeDefined()
      const response = await get(link!.url)
      expect(response.status, link!.url).toBe(200)
      expect(await response.text(), link!.url).toContain(`Body of ${name}.`)
    }
    // `%2e%2e` is encoded once: a second decoding made the server look for `..`.
    expect(links.map((l) => l.url)).toContain(`http://localhost${file.replace('llms.txt', '')}%252e%252e.md`)
  })

  test('every source URL of llms-full.txt is its page on the site', async () => {
    const full = await (await get('/llms-full.txt')).text()
    for (const name of NAMES) {
      const source = new RegExp(`^# Page ${name.replace(/[()]/g, '\\$&')}\\nSource: (\\S+)$`, 'm').exec(full)?.[1]
      expect(source, name).toBeDefined()
      const response = await get(source!, 'text/html')
      expect(response.status, source).toBe(200)
      expect(await response.text(), source).toContain(`Body of ${name}.`)
    }
  })

  test('the site’s menu, pager and markdown links lead to the pages', async () => {
    const home = await (await get('/', 'text/html')).text()
    const menu = [...home.matchAll(/<li><a href="([^"]+)"(?: aria-current="page")?>([^<]*)<\/a><\/li>/g)]
    for (const name of NAMES) {
      const href = menu.find(([, , title]) => title === `Page ${name}`)?.[1]
      expect(href, name).toBeDefined()
      const page = await (await get(href!, 'text/html')).text()
      expect(page, href).toContain(`Body of ${name}.`)
      const markdown = /<a href="([^"]+)">View this page as Markdown<\/a>/.exec(page)![1]!
      const response = await get(markdown)
      expect(response.status, markdown).toBe(200)
      expect(await response.text(), markdown).toContain(`Body of ${name}.`)
      for (const [, pager] of page.matchAll(/<a class="(?:prev|next)" href="([^"]+)"/g)) {
        expect((await get(pager!, 'text/html')).status, pager).toBe(200)
      }
    }
  })
})

describe('links to pages whose names need percent-encoding, and to their sections', () => {
  const fruitOf = (name: string) => (name === 'a#b' ? 'hash section' : FRUITS[NAMES.indexOf(name)])
  const key = () => ({ authorization: `Bearer ${t.keys.assistant}` })
  const leadsTo = async (url: string, name: string) => {
    const response = await get(url, 'text/html')
    expect(response.status, url).toBe(200)
    expect(await response.text(), url).toContain(`Body of ${name}.`)
  }

  test('each search result’s URL leads to its page', async () => {
    for (const name of NAMES) {
      const response = await t.app.request('/discovery/v1/search/demo', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...key() },
        body: JSON.stringify({ query: `the ${fruitOf(name)}` }),
      })
      const results = (await response.json()) as Array<{ path: string; metadata: { url: string } }>
      const hit = results.find((result) => result.path === name)
      expect(hit, name).toBeDefined()
      await leadsTo(hit!.metadata.url, name)
    }
  })

  test('each source of an answer links to its page, and the section’s anchor stays an anchor', async () => {
    for (const name of NAMES) {
      const response = await t.app.request('/discovery/v2/assistant/demo/message', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...key() },
        body: JSON.stringify({
          fp: 'fp_names',
          messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: `What about the ${fruitOf(name)}?` }] }],
        }),
      })
      const stream = await response.text()
      const urls = [...stream.matchAll(/"type":"source-url","sourceId":"[^"]+","url":"([^"]+)"/g)].map(([, url]) => url!)
      const own = urls.find((url) => url.includes(`/${pageHref(name).split('/').at(-1)}`))
      expect(own, `${name} in ${urls.join(' ')}`).toBeDefined()
      await leadsTo(own!, name)
    }
    const sections = await t.app.request('/discovery/v2/assistant/demo/message', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...key() },
      body: JSON.stringify({ fp: 'fp_names', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'the hash section' }] }] }),
    })
    expect(await sections.text()).toContain('"url":"http://localhost/a%23b#the-hash-section"')
  })

  test('a reader’s page is found from its location as a browser sends it (percent-encoded)', async () => {
    for (const name of NAMES) {
      const currentPath = pageHref(`/${name}`)
      const response = await t.app.request('/discovery/v2/assistant/demo/message', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...key() },
        body: JSON.stringify({
          fp: 'fp_names',
          currentPath,
          messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'What does this page say?' }] }],
        }),
      })
      const first = /"type":"source-url","sourceId":"[^"]+","url":"([^"]+)"/.exec(await response.text())?.[1]
      expect(first?.split('#')[0], currentPath).toBe(`http://localhost${currentPath}`)
    }
  })

  test('each MCP search result links to its page and to its markdown', async () => {
    for (const name of NAMES) {
      const response = await t.app.request('/mcp/demo', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...key() },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'search_docs', arguments: { query: `the ${fruitOf(name)}` } },
        }),
      })
      const body = await response.text()
      const message = JSON.parse(body.startsWith('{') ? body : /^data: (.*)$/m.exec(body)![1]!)
      const results = message.result.structuredContent.results as Array<{ path: string; url: string; markdownUrl: string }>
      const hit = results.find((result) => result.path === name)
      expect(hit, name).toBeDefined()
      await leadsTo(hit!.url, name)
      const markdown = await get(hit!.markdownUrl)
      expect(markdown.status, hit!.markdownUrl).toBe(200)
      expect(await markdown.text(), hit!.markdownUrl).toContain(`Body of ${name}.`)
      // get_page takes what search_docs returned: the path, the page's URL or its markdown URL.
      for (const path of [hit!.path, hit!.url.split('#')[0]!, hit!.markdownUrl]) {
        const page = await t.app.request('/mcp/demo', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...key() },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_page', arguments: { path } } }),
        })
        const read = await page.text()
        const reply = JSON.parse(read.startsWith('{') ? read : /^data: (.*)$/m.exec(read)![1]!)
        expect(reply.result.isError, `${name}: ${path}`).toBeFalsy()
        expect(JSON.stringify(reply.result.content), `${name}: ${path}`).toContain(`Body of ${name}.`)
      }
    }
  })
})

describe('control characters in titles, names and descriptions', () => {
  test('are left out of llms.txt, llms-full.txt, the pages’ markdown and the site', async () => {
    const llms = await (await get('/llms.txt')).text()
    expect(llms).not.toMatch(CONTROL)
    expect(llms.split('\n')[0]).toBe('# Odd Docs[0m')
    expect(llms).toContain('## Odd [2Jnames\n')
    expect(llms).toContain('- [Nul and\\[31m red end](http://localhost/controls.md): First line second line.\n')
    expect(llms).toContain('- [Own\\[1m heading here](http://localhost/own-heading.md)\n')
    const full = await (await get('/llms-full.txt')).text()
    expect(full).not.toMatch(CONTROL)
    expect(full).toContain('# Nul and[31m red end\nSource: http://localhost/controls\n\nFirst line\nsecond\tline.\n\nBody of controls.')
    for (const path of ['/controls.md', '/own-heading.md', '/docs/demo/controls.md']) {
      expect(await (await get(path)).text(), path).not.toMatch(CONTROL)
    }
    for (const path of ['/controls', '/own-heading', '/', '/no-such-page']) {
      const html = await (await get(path, 'text/html')).text()
      expect(html, path).not.toMatch(CONTROL)
    }
    const page = await (await get('/controls', 'text/html')).text()
    expect(page).toContain('<title>Nul and[31m red end · Odd Docs[0m</title>')
    // The description shows once, as the lead, not again in the text.
    expect(page.split('second\tline.').length).toBe(3) // meta + lead
  })
})
