import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { absoluteLinks } from '../../server/llms/absolute-links.ts'
import type { PageInfo } from '../../server/search/types.ts'
import { testDocent } from '../support/app.ts'

const t = await testDocent({ trustedHosts: ['docs.test', 'other.test'] })
let pages: PageInfo[] = []

beforeAll(async () => {
  pages = (await t.docent.context.search.corpus('demo')).pages().filter((page) => !page.hidden)
})
afterAll(async () => {
  await t.docent.stop()
})

interface LlmsTxt {
  title: string
  summary: string
  sections: Map<string, Array<{ title: string; url: string; description?: string }>>
}

/** A strict reader of the llms.txt format (llmstxt.org): it throws on any line out of place. */
function parseLlmsTxt(text: string): LlmsTxt {
  const lines = text.split('\n')
  const title = /^# (\S.*)$/.exec(lines[0] ?? '')?.[1]
  if (!title) throw new Error(`line 1 must be an H1, got ${JSON.stringify(lines[0])}`)
  let i = 1
  while (lines[i] === '') i++
  const summary = /^> (\S.*)$/.exec(lines[i] ?? '')?.[1]
  if (!summary) throw new Error(`a blockquote summary must follow the title, got ${JSON.stringify(lines[i])}`)
  i++
  // Free paragraphs (no headings) may come before the first section.
  while (i < lines.length && !lines[i]!.startsWith('## ')) {
    if (lines[i]!.startsWith('#')) throw new Error(`line ${i + 1}: no heading but H2 sections after the summary`)
    i++
  }
  const sections: LlmsTxt['sections'] = new Map()
  let current: Array<{ title: string; url: string; description?: string }> | undefined
  for (; i < lines.length; i++) {
    const line = lines[i]!
    if (line === '') continue
    const h2 = /^## (\S.*)$/.exec(line)
    if (h2) {
      if (sections.has(h2[1]!)) throw new Error(`line ${i + 1}: section "${h2[1]}" appears twice`)
      sections.set(h2[1]!, (current = []))
      continue
    }
    const link = /^- \[((?:[^\]\\]|\\.)+)\]\((\S+)\)(?:: (\S.*))?$/.exec(line)
    if (!link || !current) throw new Error(`line ${i + 1}: expected "- [title](url): description", got ${JSON.stringify(line)}`)
    current.push({ title: link[1]!.replace(/\\(.)/g, '$1'), url: link[2]!, description: link[3] })
  }
  return { title, summary, sections }
}

describe('/llms.txt', () => {
  test('has the standard format: H1 title, summary, H2 sections of page links with descriptions', async () => {
    const response = await t.app.request('http://docs.test/llms.txt')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    const llms = parseLlmsTxt(await response.text())
    expect(llms.title).toBe('Lumen Flags')
    expect(llms.summary).toMatch(/feature-flag and experimentation service/)
    // Sections follow the navigation groups of docs.json; off-navigation pages go to "Optional".
    const names = [...llms.sections.keys()]
    expect(names[0]).toBe('Guides / Get started')
    expect(names).toContain('Guides / SDKs / Languages')
    expect(names).toContain('API reference / REST API v2')
    expect(names.at(-1)).toBe('Optional')
    const links = [...llms.sections.values()].flat()
    expect(links.find((link) => link.url === 'http://docs.test/quickstart.md')).toMatchObject({
      title: 'Quickstart',
      description: expect.stringMatching(/first feature flag/),
    })
    expect(links.every((link) => link.description)).toBe(true)
  })

  test('lists every non-hidden page exactly once, and every link resolves to the page markdown', async () => {
    const llms = parseLlmsTxt(await (await t.app.request('http://docs.test/llms.txt')).text())
    const links = [...llms.sections.values()].flat()
    expect(links).toHaveLength(pages.length)
    expect(new Set(links.map((link) => link.url)).size).toBe(links.length)
    expect(links.some((link) => link.url.includes('internal/'))).toBe(false)
    const corpus = await t.docent.context.search.corpus('demo')
    for (const link of links) {
      const response = await t.app.request(link.url)
      expect(response.status, link.url).toBe(200)
      expect(response.headers.get('content-type'), link.url).toBe('text/markdown; charset=utf-8')
      const body = await response.text()
      const page = pages.find((p) => link.url === `http://docs.test${p.url === '/' ? '/index' : p.url}.md`)!
      expect(page.title, link.url).toBe(link.title)
      expect(body, link.url).toBe(absoluteLinks(corpus.page(page.path)!.content, (path) => `http://docs.test${path}`))
    }
  })

  test('is cached: the same ETag, and 304 for If-None-Match', async () => {
    const first = await t.app.request('http://docs.test/llms.txt')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
    const again = await t.app.request('http://docs.test/llms.txt', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const listed = await t.app.request('http://docs.test/llms.txt', { headers: { 'if-none-match': `"other", W/${etag}` } })
    expect(listed.status).toBe(304)
    // Another trusted host gets its own links.
    const other = await (await t.app.request('http://other.test/llms.txt')).text()
    expect(other).toContain('http://other.test/quickstart.md')
  })
})

describe('/llms-full.txt', () => {
  test('holds every non-hidden page once, with its source URL and full markdown', async () => {
    const response = await t.app.request('http://docs.test/llms-full.txt')
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text.startsWith('# Lumen Flags\n\n> ')).toBe(true)
    const sources = [...text.matchAll(/^Source: (\S+)$/gm)].map((m) => m[1])
    const expected = pages.map((page) => `http://docs.test${page.url}`)
    expect([...sources].sort()).toEqual([...expected].sort())
    expect(new Set(sources).size).toBe(sources.length)
    const corpus = await t.docent.context.search.corpus('demo')
    for (const page of pages) {
      const body = absoluteLinks(corpus.page(page.path)!.content, (path) => `http://docs.test${path}`)
        .replace(/^# .*\n/, '')
        .trim()
      expect(text.split(body).length - 1, page.path).toBe(1)
    }
    expect(text).not.toMatch(/release checklist/i)
  })

  test('every source URL is a page of the demo site', async () => {
    const text = await (await t.app.request('http://docs.test/llms-full.txt')).text()
    for (const [, url] of text.matchAll(/^Source: (\S+)$/gm)) {
      const response = await t.app.request(url!, { headers: { accept: 'text/html' } })
      expect(response.status, url).toBe(200)
      expect(response.headers.get('content-type'), url).toMatch(/^text\/html/)
      await response.body?.cancel()
    }
  })
})

describe('per project: /docs/{domain}/llms.txt', () => {
  test("links to the project's markdown under /docs/{domain}/, which resolves", async () => {
    // That project's docs are not public: read with its key.
    const withKey = { headers: { authorization: `Bearer ${t.keys.otherAssistant}` } }
    const llms = parseLlmsTxt(await (await t.app.request('http://docs.test/docs/acme.example/llms.txt', withKey)).text())
    const links = [...llms.sections.values()].flat()
    expect(links).toHaveLength(pages.length)
    for (const link of links.slice(0, 8)) {
      expect(link.url.startsWith('http://docs.test/docs/acme.example/')).toBe(true)
      expect((await t.app.request(link.url, withKey)).status, link.url).toBe(200)
    }
    const full = await (await t.app.request('http://docs.test/docs/acme.example/llms-full.txt', withKey)).text()
    expect(full.match(/^Source: /gm)).toHaveLength(pages.length)
    const missing = await t.app.request('/docs/nope.example/llms.txt')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: 'no project with this domain', code: 'not_found' })
  })
})

describe('<page>.md', () => {
  test('returns the page as clean markdown with Content-Type text/markdown', async () => {
    const response = await t.app.request('/sdks/javascript.md')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    const body = await response.text()
    expect(body).toMatch(/^# JavaScript SDK\n/)
    expect(body).toContain('```')
    // MDX reduced: no imports or JSX components outside code blocks.
    const prose = body.replace(/^```[\s\S]*?^```/gm, '')
    expect(prose).not.toMatch(/^import |^export |<[A-Z][A-Za-z]*[\s/>]/m)
    // The site's root-relative links are absolute, for tools reading the text away from the site.
    expect(body).not.toMatch(/\]\(\/[^/]/)
    expect(body).toMatch(/\]\(http:\/\/localhost\//)
    expect((await t.app.request('/index.md')).status).toBe(200)
    expect((await t.app.request('/sdks/javascript.md', { method: 'HEAD' })).status).toBe(200)
  })

  test('unknown and hidden pages are 404; other routes are not swallowed', async () => {
    for (const path of ['/nope.md', '/internal/release-checklist.md', '/%ZZ.md', '/docs/demo/nope.md']) {
      const response = await t.app.request(path)
      expect(response.status, path).toBe(404)
      expect(await response.json()).toEqual({ error: 'not found', code: 'not_found' })
    }
    // An API route that ends in .md still answers as that route.
    const search = await t.app.request('/discovery/v1/search/demo.md', { method: 'POST' })
    expect(search.headers.get('content-type')).not.toMatch(/markdown/)
    const widget = await t.app.request('/widget/docent.js')
    expect(widget.headers.get('content-type') ?? '').not.toMatch(/markdown/)
  })
})

// Copies of the demo docs that a test edits, removed after all tests.
const copies: string[] = []
afterAll(async () => {
  for (const dir of copies) await rm(dir, { recursive: true, force: true })
})
async function demoDocsCopy(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docent-llms-'))
  copies.push(dir)
  await cp('demo/docs', dir, { recursive: true })
  return dir
}

describe('cache follows the corpus', () => {
  test('llms.txt changes when the docs change, and only then', async () => {
    const dir = await demoDocsCopy()
    const own = await testDocent({
      projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: dir, public: true } }],
    })
    try {
      const before = await (await own.app.request('/llms.txt')).text()
      expect(before).toContain('- [Quickstart](')
      const file = join(dir, 'quickstart.mdx')
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^title: .*$/m, 'title: "Five-minute start"'))
      // Not yet reindexed: the cached text stands.
      expect(await (await own.app.request('/llms.txt')).text()).toBe(before)
      const { changed } = await own.docent.context.search.refresh('demo')
      expect(changed).toBe(true)
      const after = await (await own.app.request('/llms.txt')).text()
      expect(after).toContain('- [Five-minute start](http://localhost/quickstart.md)')
      expect(after).not.toContain('- [Quickstart](')
    } finally {
      await own.docent.stop()
    }
  })
})

describe('the docs are called by one name everywhere', () => {
  test("docs with no name of their own take the project's: site title, widget title, starters and llms.txt agree", async () => {
    const dir = await demoDocsCopy()
    const config = JSON.parse(await readFile(join(dir, 'docs.json'), 'utf8')) as Record<string, unknown>
    delete config.name
    await writeFile(join(dir, 'docs.json'), JSON.stringify(config))
    const own = await testDocent({
      projects: [{ id: 'demo', organization: 'demo', domain: 'demo', name: 'Acme Cloud', docs: { directory: dir, public: true } }],
    })
    try {
      expect((await (await own.app.request('/llms.txt')).text()).split('\n')[0]).toBe('# Acme Cloud')
      const page = await (await own.app.request('/quickstart')).text()
      expect(page).toContain('Acme Cloud')
      // Before, the widget was titled after the corpus's fallback name ("Ask Docs") while the assistant said "Acme Cloud".
      expect(page).toContain('Ask Acme Cloud')
      expect(page).not.toContain('Ask Docs')
    } finally {
      await own.docent.stop()
    }
  })
})
