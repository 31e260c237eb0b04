import { expect, test } from 'vitest'
import { testDocent } from '../../tests/support/app.ts'
import type { Corpus, SearchHit, SearchService } from '../search/types.ts'
import type { Docent } from '../mod.ts'
import { buildCorpus } from '../search/corpus.ts'
import { readDocsSite } from '../search/docs-site.ts'
import { retrieve } from './retrieval.ts'

/** What `retrieve` makes of hits a corpus returns, whatever the question. */
async function retrieveFrom(docent: Docent, hits: SearchHit[], text: string, pageSize: number) {
  const corpus = { search: () => hits } as unknown as Corpus
  const ctx = { ...docent.context, search: { corpus: async () => corpus } as unknown as SearchService }
  return retrieve(ctx, docent.context.projects.byId('demo')!, { turns: [{ role: 'user', text }], pageSize, origin: 'http://localhost' })
}

// The prompt budget, with a corpus whose sections are longer than any real page: the only way to get such hits.
test('long sections are clipped at a sentence end and the sources stay within the prompt budget', async () => {
  const { docent } = await testDocent()
  const sentence = 'Lumen Flags evaluates every flag locally in the SDK. '
  const hits: SearchHit[] = Array.from({ length: 20 }, (_, i) => ({
    score: 1 - i / 20,
    section: {
      id: `s${i}`,
      path: `guides/long-${i}`,
      url: `/guides/long-${i}`,
      anchor: '',
      pageTitle: `Long ${i}`,
      headings: [`Long ${i}`],
      content: sentence.repeat(200),
      groups: [],
      tags: [],
    },
  }))
  const result = await retrieveFrom(docent, hits, 'flags', 20)
  expect(result.blocks[0]!.content.length).toBeLessThanOrEqual(4_000)
  expect(result.blocks[0]!.content.endsWith('in the SDK. …')).toBe(true)
  expect(result.blocks.reduce((sum, block) => sum + block.content.length, 0)).toBeLessThanOrEqual(40_000)
  expect(result.sources).toHaveLength(result.blocks.length)
  expect(result.blocks.length).toBe(10)
})

test('one source per page, its matching sections under their headings; a question about the page names it', async () => {
  const { docent } = await testDocent()
  const project = docent.context.projects.byId('demo')!
  const result = await retrieve(docent.context, project, {
    turns: [{ role: 'user', text: 'how do I verify them?' }],
    pageSize: 5,
    currentPath: '/guides/webhooks',
    origin: 'http://localhost',
  })
  const paths = result.sources.map((source) => source.path)
  expect(paths[0]).toBe('guides/webhooks')
  expect(new Set(paths).size).toBe(paths.length)
  expect(result.sources[0]!.title).toBe(result.blocks[0]!.title)
  expect(result.blocks[0]!.content).toContain('## Verify signatures')
  expect(result.query).toMatch(/^how do I verify them\? \(asked on the page "[^"]+"\)$/)
})

test("the prompt names the docs as they name themselves, else by the project's name, else by its domain", async () => {
  const { docent } = await testDocent()
  const project = docent.context.projects.byId('demo')!
  const ask = (p: typeof project, ctx = docent.context) =>
    retrieve(ctx, p, { turns: [{ role: 'user', text: 'how do I get started?' }], pageSize: 1, origin: 'http://localhost' })
  // The demo docs' docs.json is named "Lumen Flags".
  expect((await ask(project)).docsName).toBe('Lumen Flags')
  expect((await ask({ ...project, name: 'Demo docs' })).docsName).toBe('Lumen Flags')
  // Docs that give themselves no name.
  const unnamed = { search: () => [] } as unknown as Corpus
  const ctx = { ...docent.context, search: { corpus: async () => unnamed } as unknown as SearchService }
  expect((await ask({ ...project, name: 'Demo docs' }, ctx)).docsName).toBe('Demo docs')
  expect((await ask({ ...project, name: undefined }, ctx)).docsName).toBe(project.domain)
})

test("a page's opening section comes with the page's description, once, as the page shows it", async () => {
  const { docent } = await testDocent()
  const project = docent.context.projects.byId('demo')!
  const result = await retrieve(docent.context, project, {
    turns: [{ role: 'user', text: 'how do I get started?' }],
    pageSize: 5,
    origin: 'http://localhost',
  })
  const quickstart = result.blocks[result.sources.findIndex((source) => source.path === 'quickstart')]!
  expect(quickstart.content.startsWith('Create your first feature flag in Lumen Flags and evaluate it from your application')).toBe(true)
  expect(quickstart.content.split('Create your first feature flag in Lumen Flags').length).toBe(2)
  // A first paragraph that says what the description says, in fewer words, stands for it: read once, not twice.
  const home = result.blocks[result.sources.findIndex((source) => source.path === 'index')]!
  expect(home.content.startsWith('Lumen Flags is a hosted feature-flag and experimentation service. You wrap')).toBe(true)
  expect(home.content).not.toContain('for shipping code safely and measuring its impact')
})

test("an operation's page opens with its operation, even when the sections found are further down the page", async () => {
  const { docent } = await testDocent()
  const section = (content: string, operation?: string) => ({
    id: content,
    path: 'api/page-content',
    url: '/api/page-content#rate-limits',
    anchor: 'rate-limits',
    pageTitle: 'Get page content',
    headings: ['Get page content', 'Rate limits'],
    content,
    groups: [],
    tags: [],
    ...(operation ? { operation } : {}),
  })
  const sources = async (hits: SearchHit[]) =>
    (await retrieveFrom(docent, hits, 'api to fetch the content of a page', 5)).blocks[0]!.content
  const operation = '`POST /v1/page/{domain}`'
  expect(await sources([{ score: 1, section: section('10,000 requests per hour.', operation) }])).toBe(
    'Get page content\n\n`POST /v1/page/{domain}` (API endpoint)\n\n## Rate limits\n\n10,000 requests per hour.',
  )
  // Once, when a section found holds it already; and not on other pages.
  const already = `Get page content\n\n${operation} (API endpoint)`
  expect(await sources([{ score: 1, section: section(already, operation) }])).toBe(`## Rate limits\n\n${already}`)
  expect(await sources([{ score: 1, section: section('10,000 requests per hour.') }])).toBe('## Rate limits\n\n10,000 requests per hour.')
})

test('a page the first sources link to from a line about the question joins the sources', async () => {
  const { docent } = await testDocent()
  const files = {
    'overview.md':
      '# AI features\n\nThe agent helps you write and maintain docs.\n\nEmbed the agent in custom apps with the [API](/api/create-job).\n\nRead more in the [changelog](/changelog).\n',
    'api/create-job.md': '# Create agent job\n\nThis endpoint creates a background job.\n',
    'changelog.md': '# Changelog\n\nNew agent features every week.\n',
  }
  const corpus = buildCorpus(
    readDocsSite({
      revision: 'r',
      files: new Map([
        ['docs.json', JSON.stringify({ navigation: { pages: ['overview', 'api/create-job', 'changelog'] } })],
        ...Object.entries(files),
      ]),
    }),
  )
  const ctx = { ...docent.context, search: { corpus: async () => corpus } as unknown as SearchService }
  const ask = (text: string) =>
    retrieve(ctx, docent.context.projects.byId('demo')!, { turns: [{ role: 'user', text }], pageSize: 1, origin: 'http://localhost' })
  const linked = await ask('embed the agent in my custom app')
  expect(linked.sources.map((source) => source.path)).toEqual(['overview', 'api/create-job'])
  expect(linked.blocks[1]).toMatchObject({ id: 2, title: 'Create agent job' })
  expect(linked.blocks[1]!.content).toContain('creates a background job')
  // A link on a line that holds fewer than two of the question's words leads nowhere new.
  expect((await ask('what does the agent write')).sources.map((source) => source.path)).toEqual(['overview'])
})

test('asked what the product is, the introduction is read from its opening, not only from the sections its name matches', async () => {
  const { docent } = await testDocent()
  const project = docent.context.projects.byId('demo')!
  for (const text of ['what is lumen flags?', 'What is Lumen Flags and how does it work']) {
    const result = await retrieve(docent.context, project, { turns: [{ role: 'user', text }], pageSize: 5, origin: 'http://localhost' })
    expect(result.sources[0]!.path, text).toBe('index')
    // The page's opening paragraph (the cards under "What you can do with Lumen Flags" hold the name too).
    expect(result.blocks[0]!.content, text).toMatch(/^Lumen Flags is a hosted feature-flag and experimentation service\./)
  }
})
