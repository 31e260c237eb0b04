import { expect, test } from 'vitest'
import { readDocsSite } from './docs-site.ts'
import { asksForStatus, entryPoints } from './entry-points.ts'
import { parseQuery } from './query.ts'
import { readDirectory } from './sources/directory.ts'

test('the words that ask whether the service is up: the first, and the last "down" within 30 characters of its verb', () => {
  expect(asksForStatus('is the api down right now?')).toBe('is the api down')
  expect(asksForStatus('are your servers down?')).toBe('are your servers down')
  expect(asksForStatus('is it down or down')).toBe('is it down or down')
  expect(asksForStatus('any outages today? is it down')).toBe('outages')
  expect(asksForStatus('is the status page up')).toBe('status page')
  expect(asksForStatus('this is down')).toBe('is down')
  expect(asksForStatus('is it downtime')).toBeUndefined()
  expect(asksForStatus('is the dashboard for my whole organization down')).toBeUndefined()
})

test('a long question is read in time linear in it', () => {
  expect(asksForStatus('is wcu '.repeat(100_000))).toBeUndefined()
  expect(asksForStatus(`is ${'x '.repeat(50_000)}down`)).toBeUndefined()
  expect(asksForStatus(`${'is '.repeat(100_000)}down`)).toBe(`${'is '.repeat(11)}down`)
})

test("asked what the product is, by the site's name, the introduction leads; asked about one of its parts, it does not", async () => {
  const site = readDocsSite(await readDirectory('demo/docs'))
  const entries = entryPoints(site, () => true)
  const of = (question: string) => entries.of(question, parseQuery(question))
  expect(of('what does lumen flags do')).toEqual([
    { path: 'index', strong: true },
    { path: 'quickstart', strong: true },
  ])
  expect(of("What's Lumen-Flags?")[0]).toEqual({ path: 'index', strong: true })
  // With words of its own, the introduction gains among the pages about them.
  expect(of('what is Lumen Flags exactly? someone on my team suggested it for our feature flags')[0]).toEqual({
    path: 'index',
    strong: false,
  })
  for (const question of [
    "what is Lumen Flags' API rate limit",
    "what is Lumen Flags's default rollout",
    'what does Lumen Flags send in a webhook',
  ]) {
    expect(of(question), question).toEqual([])
  }
})

test('asked how to get started, the quickstart leads and the introduction follows', async () => {
  const site = readDocsSite(await readDirectory('demo/docs'))
  const entries = entryPoints(site, () => true)
  for (const question of ['How do I get started?', "I'm new to Lumen Flags, where do I begin?", 'quick start']) {
    expect(
      entries.of(question, parseQuery(question)).map((entry) => entry.path),
      question,
    ).toEqual(['quickstart', 'index'])
  }
})

test('asked which of its guides to read, the Guides group leads; a guide for one thing, or each page, asks for no group', async () => {
  const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises')
  const { join } = await import('node:path')
  const { tmpdir } = await import('node:os')
  const dir = await mkdtemp(join(tmpdir(), 'docent-entry-'))
  try {
    const navigation = {
      groups: [
        { group: 'Get started', pages: ['index'] },
        { group: 'Guides', pages: ['guides/index', 'guides/style'] },
        { group: 'Pages', pages: ['pages/index'] },
      ],
    }
    await writeFile(join(dir, 'docs.json'), JSON.stringify({ name: 'Acme', navigation }))
    await mkdir(join(dir, 'guides'))
    await mkdir(join(dir, 'pages'))
    const pages: Array<[string, string]> = [
      ['index', 'Introduction'],
      ['guides/index', 'Guides'],
      ['guides/style', 'Style and tone'],
      ['pages/index', 'Pages'],
    ]
    for (const [path, title] of pages) {
      await writeFile(join(dir, `${path}.mdx`), `---\ntitle: ${title}\n---\n\nAbout ${title.toLowerCase()}.\n`)
    }
    const entries = entryPoints(readDocsSite(await readDirectory(dir)), () => true)
    const of = (question: string) => entries.of(question, parseQuery(question)).map((entry) => entry.path)
    expect(of('Which of your guides should I read first?')).toContain('guides/index')
    // "Guide" and "page" name the docs themselves: asked otherwise, they name no group.
    expect(of('is there a guide for webhooks?')).not.toContain('guides/index')
    expect(of('how do I forward all the old links instead of listing each page?')).not.toContain('pages/index')
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
