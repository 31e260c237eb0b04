import { beforeAll, describe, expect, it } from 'vitest'
import { buildCorpus } from './corpus.ts'
import { readDocsSite } from './docs-site.ts'
import { kindAskedFor, withoutWhichAreThere } from './entry-points.ts'
import { readDirectory } from './sources/directory.ts'
import type { Corpus } from './types.ts'

let corpus: Corpus

beforeAll(async () => {
  corpus = buildCorpus(readDocsSite(await readDirectory('demo/docs')))
})

const paths = (query: string, options: Parameters<Corpus['search']>[1]) => corpus.search(query, options).map((hit) => hit.section.path)

/** A small site: its docs.json navigation and its pages by file name. */
const siteOf = (navigation: object, pages: Record<string, string>) =>
  readDocsSite({ revision: 'r', files: new Map([['docs.json', JSON.stringify({ navigation })], ...Object.entries(pages)]) })

describe('corpus over demo/docs', () => {
  it('reads the site name, description and every page', () => {
    expect(corpus.siteName).toBe('Lumen Flags')
    expect(corpus.description).toMatch(/feature-flag/)
    expect(corpus.revision).toMatch(/^[0-9a-f]{20}$/)
    const pages = corpus.pages()
    expect(pages).toHaveLength(46)
    expect(pages[0]).toMatchObject({ path: 'index', url: '/', groups: ['Guides', 'Get started'], version: 'v2' })
    expect(pages.find((p) => p.path === 'snippets/prereqs')).toBeUndefined()
  })

  it('ranks the page that answers a question first, with sections carrying title, heading trail and anchor', () => {
    const [best, ...rest] = corpus.search('how do I rotate an sdk key', { pageSize: 5 })
    expect(best!.score).toBe(1)
    expect(rest.every((hit) => hit.score <= 1 && hit.score > 0)).toBe(true)
    expect(best!.section.url).toMatch(/environments#rotat/)
    expect(best!.section.headings[0]).toBe(best!.section.pageTitle)
    expect(best!.section.url).toBe(`/${best!.section.path}#${best!.section.anchor}`)
  })

  it('names the words of a question the docs never use in any form', () => {
    expect(corpus.unknownWords!('How do I bake sourdough bread?')).toEqual(['bake', 'sourdough', 'bread'])
    // Other forms and synonyms count as used; everyday words are never reported.
    expect(corpus.unknownWords!('how do I rotate my sdk keys without any downtime')).toEqual(['downtime'])
    expect(corpus.unknownWords!('turn off the webhooks')).toEqual([])
    // A combining prefix on a docs word is that word written another way; a word that only looks split is not.
    expect(corpus.unknownWords!('reevaluate flags for multienvironment setups')).toEqual([])
    expect(corpus.unknownWords!('renew my passport')).toContain('passport')
  })

  it('tolerates typos and word endings', () => {
    expect(paths('percentge rollouts', { pageSize: 3 })[0]).toBe('guides/percentage-rollouts')
    expect(paths('webhook signatures', { pageSize: 3 })).toContain('guides/webhooks')
  })

  it('keeps hidden pages out of search and out of page()', () => {
    expect(paths('SDK release checklist milestone bucketing fixtures', { pageSize: 50 })).not.toContain('internal/release-checklist')
    expect(corpus.page('internal/release-checklist')).toBeNull()
    expect(corpus.pages().find((p) => p.path === 'internal/release-checklist')).toMatchObject({ hidden: true })
  })

  it('indexes pages that are not in the navigation', () => {
    expect(paths('migrate from REST API v1 to v2 before the sunset', { pageSize: 3 })).toContain('guides/legacy-migration')
    expect(corpus.pages().find((p) => p.path === 'guides/legacy-migration')).toMatchObject({ groups: [], hidden: false })
  })

  it('filters on version: pages listed in several versions match each, unversioned pages match all', () => {
    const v1 = corpus.search('environments sdk keys', { pageSize: 50, filter: { version: 'v1' } })
    expect(v1.length).toBeGreaterThan(0)
    for (const hit of v1) expect(hit.section.versions?.length ? hit.section.versions : ['v1']).toContain('v1')
    expect(v1.map((hit) => hit.section.path)).toContain('api-reference/v1/environments')
    expect(v1.map((hit) => hit.section.path)).not.toContain('api-reference/v2/environments')
    expect(paths('create your first flag', { pageSize: 50, filter: { version: 'V1' } })).toContain('quickstart')
    expect(paths('environments', { pageSize: 50, filter: { version: 'v3' } }).every((p) => p === 'guides/legacy-migration')).toBe(true)
  })

  it('filters on language, groups and tag', () => {
    expect(paths('flags', { pageSize: 50, filter: { language: 'en' } }).length).toBeGreaterThan(0)
    const api = paths('percentage rollout', { pageSize: 50, filter: { groups: ['REST API v2'] } })
    expect(api.length).toBeGreaterThan(0)
    expect(api.every((p) => p.startsWith('api-reference/v2/'))).toBe(true)
    const tagged = corpus.search('rollout', { pageSize: 50, filter: { tag: 'API' } })
    expect(tagged.length).toBeGreaterThan(0)
    expect(tagged.every((hit) => hit.section.tags.some((t) => t.toLowerCase() === 'api'))).toBe(true)
  })

  it('ranks sections of the current page and its neighbours higher', () => {
    const query = 'initialize the client'
    const base = paths(query, { pageSize: 10 })
    const target = base.find((p) => p !== base[0] && p.startsWith('sdks/'))!
    expect(target).toBeDefined()
    expect(paths(query, { pageSize: 5, currentPath: `/${target}` })[0]).toBe(target)
    expect(paths(query, { pageSize: 5, currentPath: `${target}.mdx#install` })[0]).toBe(target)
    expect(paths(query, { pageSize: 5, currentPath: `https://docs.example.com/docs/${target}?x=1` })[0]).toBe(target)
    // Neighbours (pages of the same navigation list) gain against pages elsewhere.
    const ratio = (currentPath?: string) => {
      const hits = corpus.search(query, { pageSize: 50, currentPath })
      const score = (path: string) => hits.find((h) => h.section.path === path)!.score
      return score('sdks/go') / score('troubleshooting/sdk-initialization')
    }
    expect(ratio('/sdks/python')).toBeGreaterThan(ratio())
    // An unknown current path changes nothing.
    expect(paths(query, { pageSize: 5, currentPath: '/nowhere' })).toEqual(paths(query, { pageSize: 5 }))
  })

  it('applies pageSize and scoreThreshold', () => {
    expect(corpus.search('flag', { pageSize: 3 })).toHaveLength(3)
    const strict = corpus.search('flag targeting rules', { pageSize: 50, scoreThreshold: 0.8 })
    expect(strict.length).toBeGreaterThan(0)
    expect(strict.every((hit) => hit.score >= 0.8)).toBe(true)
    expect(corpus.search('the of and', { pageSize: 5 })).toEqual([])
  })

  it('answers a long pasted query', () => {
    const pasted = `${'Our checkout flag keeps returning the fallback value in production. '.repeat(100)} ${
      corpus.page('sdks/python')!.content
    }`
    const hits = corpus.search(pasted, { pageSize: 5 })
    expect(hits).toHaveLength(5)
  })

  it('serves a page as markdown by path, URL or file name', () => {
    const page = corpus.page('/quickstart')
    expect(page?.path).toBe('quickstart')
    expect(page?.content).toMatch(/^# Quickstart/)
    // The imported snippet is inlined; MDX tags and imports are gone; code blocks stay.
    expect(page?.content).toContain('Never ship a server-side SDK key')
    expect(page?.content).not.toMatch(/<Steps>|<Prereqs|import Prereqs/)
    expect(page?.content).toContain('```bash\nnpm install @lumenflags/node\n```'.replace('```bash', '```bash Node.js'))
    expect(corpus.page('quickstart.mdx')?.path).toBe('quickstart')
    expect(corpus.page('/')?.path).toBe('index')
    expect(corpus.page('api-reference/v1/environments.md')?.path).toBe('api-reference/v1/environments')
    expect(corpus.page('/nope')).toBeNull()
    expect(corpus.page('https://docs.example.com/sdks/go?tab=1#install')?.path).toBe('sdks/go')
    expect(corpus.page('https://docs.example.com/')?.path).toBe('index')
    expect(corpus.page('/docs/sdks/go')).toBeNull()
  })
})

describe('what only whole pages and the navigation tell', () => {
  it('puts the entry page a question asks for first: getting started, the changelog, a navigation group by name', () => {
    expect(new Set(paths('How do I get started?', { pageSize: 10 }))).toContain('quickstart')
    expect(paths('where is the changelog', { pageSize: 5 })[0]).toBe('changelog')
    expect(paths('troubleshooting', { pageSize: 5 })[0]).toBe('troubleshooting/common-errors')
    // Asked beside a subject, an entry page only joins the first three.
    expect(paths('changelog of the go sdk', { pageSize: 3 })).toContain('changelog')
  })

  it('brings the glossary among the first three when a question asks the difference between two terms', () => {
    const filler = 'Each project holds its own settings, members and history, and a deployment serves one of them. '.repeat(3)
    const site = siteOf(
      { groups: [{ group: 'Get started', pages: ['index', 'projects', 'deployments', 'reference/glossary'] }] },
      {
        'index.md': `# Welcome\n\nStart with a project, then add a deployment. ${filler}\n`,
        'projects.md': `# Projects\n\n## Create a project\n\nA project is where a deployment starts. ${filler}\n\n## Project settings\n\nRename a project or move a deployment. ${filler}\n`,
        'deployments.md': `# Deployments\n\n## Deploy a project\n\nEvery deployment builds a project. ${filler}\n\n## Roll back a deployment\n\nPick an older deployment of the project. ${filler}\n`,
        'reference/glossary.md': '# Glossary\n\n## Build\n\nWhat the builder makes of your files.\n\n## Release\n\nA build made public.\n',
      },
    )
    const small = buildCorpus(site)
    const first3 = (question: string) => small.search(question, { pageSize: 3 }).map((hit) => hit.section.path)
    expect(first3("what's the difference between a deployment and a project?")).toContain('reference/glossary')
    // A question that asks no difference leaves it where its words put it.
    expect(first3('how do I roll back a deployment of a project?')).not.toContain('reference/glossary')
  })

  it('ranks higher the page that holds all of a long question, though each of its sections holds only part', () => {
    // Sections long enough to stay apart: words that are not the question's.
    const sentence =
      'Read this part before you change anything, since the steps below depend on the order in which you follow them and on the settings your team picked when it started. '
    const filler = sentence.repeat(3)
    const site = siteOf(
      { groups: [{ group: 'Analytics', pages: ['streaming', 'storage'] }] },
      {
        'streaming.md': `# Stream events\n\n## Add a destination\n\nSend events to an S3 bucket. ${filler}\n\n## Credentials\n\nPaste an access key. ${filler}\n\n## Delivery\n\nEvents arrive every hour: a new bucket stays empty until the first hour ends. ${filler}\n`,
        'storage.md': `# Storage settings\n\nCreate an access key for an S3 bucket, and keep the key safe in the bucket settings. ${sentence.repeat(2)}\n`,
      },
    )
    const small = buildCorpus(site)
    const first = (question: string) => small.search(question, { pageSize: 3 })[0]?.section.path
    expect(first('we gave the S3 bucket an access key as a destination but it is still empty')).toBe('streaming')
    // A short question is ranked by its best section alone.
    expect(first('s3 bucket access key')).toBe('storage')
  })

  it("ranks the page an overview's item describes above the overview, unless the question asks for all of them", () => {
    const site = siteOf(
      { groups: [{ group: 'Guides', pages: ['guides/index', 'guides/help-center', 'guides/knowledge-base', 'guides/seo'] }] },
      {
        'guides/index.md':
          '# Guides\n\n## Use cases\n\n- [Create a help center](/guides/help-center): Build a self-service help center that reduces support tickets for customers.\n- [Create a knowledge base](/guides/knowledge-base): Consolidate what your team knows.\n- [SEO](/guides/seo): Rank in search engines.\n',
        'guides/help-center.md': '# Create a help center\n\nOrganize articles by product area. Link each article from the navigation.\n',
        'guides/knowledge-base.md': '# Create a knowledge base\n\nKeep internal pages private.\n',
        'guides/seo.md': '# SEO\n\nWrite a description for each page.\n',
      },
    )
    const small = buildCorpus(site)
    const ranked = (question: string) => small.search(question, { pageSize: 3 }).map((hit) => hit.section.path)
    expect(ranked('reduce support tickets from customers').slice(0, 2)).toEqual(['guides/help-center', 'guides/index'])
    // Asked for all of them, the overview answers.
    expect(ranked('list of all the guides for a help center')[0]).toBe('guides/index')
  })

  it("puts a group's first page among the first three when the question asks for all of the group", () => {
    const site = siteOf(
      {
        groups: [
          { group: 'Writing', pages: ['mdx', 'style'] },
          { group: 'Components', pages: ['components/index', 'components/tabs', 'components/steps'] },
        ],
      },
      {
        'mdx.md': '# Writing in MDX\n\nMDX pages mix Markdown and components. Use components in MDX to add tabs and steps to a page.\n',
        'style.md': '# Style guide\n\nUse short sentences. Use components sparingly in MDX: a page of components is hard to read.\n',
        'components/index.md': '# Overview\n\nBuilding blocks for your pages.\n',
        'components/tabs.md': '# Tabs\n\nShow content in switchable panels.\n',
        'components/steps.md': '# Steps\n\nNumbered instructions.\n',
      },
    )
    const small = buildCorpus(site)
    const first3 = (question: string) => small.search(question, { pageSize: 3 }).map((hit) => hit.section.path)
    for (const question of ['list of all the components I can use in MDX', 'which components are available in MDX']) {
      expect(first3(question), question).toContain('components/index')
    }
    // The same subject without asking for all of it.
    expect(first3('use components in MDX')).not.toContain('components/index')
  })

  it('reads a question that asks for all of a kind by the kind: "list" and "available" say how it asks', () => {
    expect(kindAskedFor('which SDKs are available?')).toBe('which SDKs are?')
    expect(kindAskedFor('a list of all the components')).toBe('a components')
    // Asked through the API, the list is what is asked for.
    expect(kindAskedFor('list all environments through the API')).toBe('list all environments through the API')
    // The search drops only "available", "supported" or "there" after "which … are".
    expect(withoutWhichAreThere('Which SDKs are available?')).toBe('Which SDKs are?')
    expect(withoutWhichAreThere('a list of all the components')).toBe('a list of all the components')
    const site = siteOf(
      { pages: ['sdks', 'client'] },
      {
        'sdks.md': '# SDK overview\n\nAcme has SDKs for Node.js, Python and Go.\n',
        'client.md': '# Client-side flags\n\nOnly flags available to client-side SDKs are sent to browsers.\n',
      },
    )
    const first = (question: string) => buildCorpus(site).search(question, { pageSize: 3 })[0]!.section.path
    expect(first('which sdks are available?')).toBe('sdks')
    expect(first('are flags available to sdks in browsers?')).toBe('client')
  })

  it('reads "in a page" as where, not what: the component page that never says "page" leads', () => {
    const site = siteOf(
      { pages: ['callouts', 'migrate', 'frontmatter'] },
      {
        'callouts.md': '# Callouts\n\nUse `Note`, `Warning` or `Tip` boxes to highlight information.\n',
        'migrate.md':
          '# Migrate\n\n## Convert pages\n\nA deprecated page gets a deprecation warning at the top of the page. Each page keeps its URL.\n',
        'frontmatter.md': '# Page settings\n\nEach page sets its title, its icon and its mode in frontmatter.\n',
      },
    )
    const first = (question: string) => buildCorpus(site).search(question, { pageSize: 3 })[0]!.section.path
    expect(first('put a warning box in a page')).toBe('callouts')
    expect(first('set the icon of a page')).toBe('frontmatter')
  })

  it('searches within one page, and ranks the pages of the conversation higher', () => {
    const within = corpus.search('key', { pageSize: 50, withinPage: '/concepts/flags' })
    expect(within.length).toBeGreaterThan(0)
    expect(within.every((hit) => hit.section.path === 'concepts/flags')).toBe(true)
    const query = 'initialize the client'
    const base = paths(query, { pageSize: 10 })
    const later = base.at(-1)!
    expect(paths(query, { pageSize: 10, related: [later] }).indexOf(later)).toBeLessThan(base.indexOf(later))
  })

  it('knows the reader page and how much of a question it holds', () => {
    const page = corpus.readerPage!('https://docs.example.com/docs/guides/webhooks#verify')!
    expect(page).toMatchObject({ path: 'guides/webhooks', url: '/guides/webhooks' })
    expect(page.sections[0]!.path).toBe('guides/webhooks')
    expect(page.covers('verify signatures')).toBe(1)
    expect(page.covers('verify sourdough')).toBe(0.5)
    expect(corpus.readerPage!('/internal/release-checklist')).toBeUndefined()
  })
})

describe('repeats and languages', () => {
  const snippet = 'Contact support at support@example.com with your account id and the time the error happened.'
  const site = siteOf(
    {
      languages: [
        { language: 'en', pages: ['a', 'b'] },
        { language: 'fr', pages: ['fr/a', 'fr/c'] },
      ],
    },
    {
      'a.md': `# Alpha\n\n## Help\n\n${snippet}\n`,
      'b.md': `# Beta\n\n## Help\n\n${snippet}\n`,
      'fr/a.md': '# Alpha\n\nContact support error error error account. Écrivez-nous, car le compte est bloqué.\n',
      'fr/c.md': '# Gamma\n\nSupport error account, en français seulement.\n',
    },
  )
  const small = buildCorpus(site)

  it("keeps a section repeated on several pages once; prefers the reader's language, and lists a page of another only when the reader's has no copy of it", () => {
    const hits = small.search('contact support error account', { pageSize: 10 })
    expect(hits.filter((hit) => hit.section.content.includes(snippet))).toHaveLength(1)
    expect(hits[0]!.section.path).toBe('a')
    // fr/a is a's translation: an English reader has a. fr/c has no English copy.
    expect(hits.map((hit) => hit.section.path)).toEqual(['a', 'fr/c'])
    const french = small.search('contact support error account', { pageSize: 10, currentPath: '/fr/a' })
    // fr/c, in the reader's language, holds all the question's words: it ranks above b.
    expect(french.map((hit) => hit.section.path)).toEqual(['fr/a', 'fr/c', 'b'])
    // Asked in French from no page, the French copy ranks first, and is the one listed.
    const asked = small.search('contact support compte bloqué', { pageSize: 10 }).map((hit) => hit.section.path)
    expect(asked[0]).toBe('fr/a')
    expect(asked).not.toContain('a')
    // Asked for by filter, a language's pages are listed whatever the reader's.
    expect(
      small.search('contact support error account', { pageSize: 10, filter: { language: 'fr' } }).map((hit) => hit.section.path),
    ).toContain('fr/a')
  })

  it("names the words the docs never use in the languages asked for: French 'car' (because) says nothing of a car", () => {
    expect(small.unknownWords!('how do I contact support about my car', ['en'])).toEqual(['car'])
    expect(small.unknownWords!('how do I contact support about my car', ['fr'])).toEqual([])
    expect(small.unknownWords!('how do I contact support about my car', ['en', 'fr'])).toEqual([])
    expect(small.unknownWords!('how do I contact support about my car')).toEqual([])
  })
})

describe('API reference pages', () => {
  // Mintlify renders these pages from an OpenAPI file: the page itself is frontmatter only.
  const site = readDocsSite({
    revision: 'r',
    files: new Map([
      ['docs.json', JSON.stringify({ navigation: { pages: ['deploy', 'ci', 'api/trigger', 'api/status', 'api/legacy'] } })],
      ['deploy.md', '# Deployments\n\nEvery push to the main branch starts a deployment. A deployment takes about a minute.\n'],
      [
        'ci.md',
        '# Continuous integration\n\nRun checks in CI before a deployment: a failing check stops the deployment. ' +
          'Your CI can call our API to read the results of its checks, and re-run the deployment checks from CI.\n',
      ],
      ['api/trigger.mdx', '---\ntitle: "Trigger deployment"\nopenapi: "/openapi.json POST /project/update/{projectId}"\n---\n'],
      ['api/status.mdx', '---\ntitle: "Get deployment status"\nopenapi: GET /project/update-status/{statusId}\n---\n'],
      ['api/legacy.mdx', '---\ntitle: "Old deployment hook"\napi: "POST https://api.example.com/v1/hook"\n---\n'],
    ]),
  })
  const small = buildCorpus(site)

  it('reads the operation a page documents from `openapi` or `api`, and shows it in the page', () => {
    expect(site.pages.get('api/trigger')!.meta.endpoint).toEqual({ method: 'POST', path: '/project/update/{projectId}' })
    expect(site.pages.get('api/legacy')!.meta.endpoint).toEqual({ method: 'POST', path: '/v1/hook' })
    expect(site.pages.get('deploy')!.meta.endpoint).toBeUndefined()
    expect(small.page('api/status')!.content).toContain('`GET /project/update-status/{statusId}`')
    // Every section of an operation's page carries it, for the source it becomes (see assistant/retrieval.ts).
    expect(small.sections.find((section) => section.path === 'api/trigger')!.operation).toBe('`POST /project/update/{projectId}`')
    expect(small.sections.find((section) => section.path === 'deploy')!.operation).toBeUndefined()
  })

  it("gives an endpoint page's section the operation, so that an answer can quote it", () => {
    const [hit] = small.search('endpoint to get the deployment status', { pageSize: 1 })
    expect(hit!.section.path).toBe('api/status')
    expect(hit!.section.content).toBe('Get deployment status\n\n`GET /project/update-status/{statusId}` (API endpoint)')
  })

  it('finds an endpoint page by what readers call it (the API, an endpoint) and by its method and path', () => {
    const paths = (query: string) => small.search(query, { pageSize: 10 }).map((hit) => hit.section.path)
    expect(paths('trigger a deployment from CI with the api')[0]).toBe('api/trigger')
    expect(paths('which endpoint tells me the deployment status')[0]).toBe('api/status')
    expect(paths('list the api endpoints')).toEqual(expect.arrayContaining(['api/trigger', 'api/status', 'api/legacy']))
    expect(paths('POST hook')[0]).toBe('api/legacy')
    // Without "api" or "endpoint" the prose pages still lead.
    expect(paths('how long does a deployment take')[0]).toBe('deploy')
  })

  it('ranks operation pages first for a question that asks to do something through the API', () => {
    const paths = (query: string) => small.search(query, { pageSize: 10 }).map((hit) => hit.section.path)
    expect(paths('start a deployment')[0]).toBe('deploy')
    for (const question of [
      'start a deployment through the API',
      'start a deployment over the REST API',
      // A word naming which API, and a script or a backend doing it, ask the same.
      'start a deployment through the deploy API',
      'start a deployment from a script',
      'start a deployment from our backend',
    ]) {
      expect(paths(question)[0], question).toMatch(/^api\//)
    }
    // An API key is a credential, not a way of doing it.
    expect(paths('start a deployment with an API key')[0]).toBe('deploy')
    expect(paths('start a deployment with the deploy API token')[0]).toBe('deploy')
  })
})

describe("what is searched, as Mintlify's hidden, noindex, searchable and seo.indexing say", () => {
  // One word apart (the title's), so that no two pages are the same answer.
  const text = (title: string) => `# ${title}\n\nRotate the signing secret of a webhook endpoint from its ${title} settings page.\n`
  const siteWith = (seo?: object) =>
    readDocsSite({
      revision: 'r',
      files: new Map([
        [
          'docs.json',
          JSON.stringify({
            ...(seo ? { seo } : {}),
            navigation: {
              languages: [
                {
                  language: 'en',
                  tabs: [
                    { tab: 'Guides', groups: [{ group: 'Webhooks', pages: ['listed', 'quiet'] }] },
                    { tab: 'Internal', hidden: true, groups: [{ group: 'Ops', pages: ['ops', 'shown'] }] },
                    { tab: 'Storage', hidden: true, searchable: true, groups: [{ group: 'Buckets', pages: ['buckets'] }] },
                  ],
                },
                { $ref: './fr.json' },
              ],
            },
          }),
        ],
        ['listed.md', text('Listed')],
        ['quiet.md', `---\nsearchable: false\n---\n${text('Quiet')}`],
        ['ops.md', text('Ops')],
        ['shown.md', `---\nhidden: false\n---\n${text('Shown')}`],
        ['buckets.md', text('Buckets')],
        ['secret.md', `---\nhidden: true\n---\n${text('Secret')}`],
        ['unindexed.md', `---\nnoindex: true\n---\n${text('Unindexed')}`],
        ['loose.md', text('Loose')],
        // The French navigation file is missing: where its pages sit is unknown, not "outside the navigation".
        ['fr/listed.md', text('Listé')],
      ]),
    })
  const found = (corpus: Corpus) =>
    corpus
      .search('rotate the webhook signing secret', { pageSize: 20, filter: { language: 'en' } })
      .map((hit) => hit.section.path)
      .sort()

  it('searches listed pages, pages under a searchable hidden tab and `hidden: false` pages; not hidden, noindex or searchable: false ones', () => {
    const corpus = buildCorpus(siteWith())
    expect(found(corpus)).toEqual(['buckets', 'listed', 'loose', 'shown'])
    const info = new Map(corpus.pages().map((page) => [page.path, page]))
    // searchable: false stays in the sidebar and in llms.txt; a hidden tab's pages leave the sidebar.
    expect(info.get('quiet')).toMatchObject({ hidden: false, inContext: true })
    expect(info.get('ops')).toMatchObject({ hidden: true, inContext: false })
    expect(info.get('buckets')).toMatchObject({ hidden: true, inContext: true })
    expect(info.get('unindexed')).toMatchObject({ hidden: false, inContext: false })
    expect(corpus.readerPage!('/quiet')).toBeUndefined()
    expect(corpus.readerPage!('/shown')?.title).toBe('Shown')
  })

  it('with seo.indexing "all", hidden pages are searched too; noindex and searchable: false still are not', () => {
    const all = buildCorpus(siteWith({ indexing: 'all' }))
    expect(found(all)).toEqual(['buckets', 'listed', 'loose', 'ops', 'secret', 'shown'])
    expect(all.page('secret')?.content).toContain('Rotate the signing secret')
    expect(buildCorpus(siteWith()).page('secret')).toBeNull()
  })

  it('ranks a page outside the navigation below a listed page that says the same; a language with no navigation file is listed', () => {
    const corpus = buildCorpus(siteWith())
    const hits = corpus.search('rotate the webhook signing secret', { pageSize: 20, filter: { language: 'en' } })
    const score = (path: string) => hits.find((hit) => hit.section.path === path)!.score
    expect(score('loose')).toBeLessThan(score('listed'))
    expect(score('shown')).toBe(score('listed'))
    const fr = corpus.search('rotate the webhook signing secret', { pageSize: 20, filter: { language: 'fr' } })
    expect(fr.map((hit) => hit.section.path)).toEqual(['fr/listed'])
    expect(fr[0]!.score).toBe(1)
  })
})

describe('search boosts (Mintlify `boost`, on a navigation group or in a page)', () => {
  const site = () =>
    siteOf(
      {
        groups: [
          { group: 'Get started', boost: 2, pages: ['welcome', 'tour'] },
          { group: 'Guides', pages: ['access', 'sharing', 'legacy'] },
        ],
      },
      {
        'welcome.mdx':
          '---\ntitle: Welcome\nboost: 3\n---\nRead the docs in any browser: no password to require, nothing to install, view any page.',
        'tour.mdx': '---\ntitle: Tour\n---\nA tour of rotating webhook secrets.',
        'access.mdx': '---\ntitle: Password protection\n---\nRequire a password to view the docs.',
        'sharing.mdx': '---\ntitle: Sharing\n---\nA guide to rotating webhook secrets.',
        'legacy.mdx': '---\ntitle: Legacy\nboost: 0.25\n---\nA page on rotating webhook secrets.',
      },
    )

  it("reads a page's boost from its frontmatter, over its group's", () => {
    const pages = site().pages
    expect(pages.get('welcome')!.boost).toBe(3)
    expect(pages.get('tour')!.boost).toBe(2)
    expect(pages.get('sharing')!.boost).toBe(1)
    expect(pages.get('legacy')!.boost).toBe(0.25)
  })

  it('ranks a boosted page above one that says the same, and a page boosted below 1 under it', () => {
    const ranked = buildCorpus(site())
      .search('rotating webhook secrets', { pageSize: 5 })
      .map((hit) => hit.section.path)
    expect(ranked).toEqual(['tour', 'sharing', 'legacy'])
  })

  it('lets a boost favour a page, not put it above the page that answers the question', () => {
    const ranked = buildCorpus(site())
      .search('require a password to view the docs', { pageSize: 5 })
      .map((hit) => hit.section.path)
    expect(ranked).toEqual(['access', 'welcome'])
  })
})

describe('questions about what readers do', () => {
  /** The page a small site, its pages listed in one group in this order, ranks first for `question`. */
  const firstFound = (pages: Record<string, string>, question: string) => {
    const site = siteOf({ groups: [{ group: 'Docs', pages: Object.keys(pages).map((file) => file.replace(/\.mdx$/, '')) }] }, pages)
    return buildCorpus(site).search(question, { pageSize: 3 })[0]?.section.path
  }

  it("find the site's analytics pages, which say analytics where the reader says people", () => {
    const pages = {
      'analytics/traffic.mdx': '---\ntitle: Traffic analytics\n---\nSee visitors and page views of your docs per day.',
      'guides/landing-pages.mdx':
        '---\ntitle: Landing pages\n---\nPeople who visited a landing page last week read the docs next. Plan what people read.',
      'quickstart.mdx': '---\ntitle: Quickstart\n---\nPublish your docs.',
    }
    expect(firstFound(pages, 'how many people visited the docs last week')).toBe('analytics/traffic')
  })

  it('find the subpath pages when the reader writes the path on their host ("example.com/docs")', () => {
    const pages = {
      'deploy/subpath.mdx':
        '---\ntitle: Host docs at a subpath\n---\nServe your docs at a subpath such as example.com/docs with a reverse proxy.',
      'migration/manual.mdx':
        '---\ntitle: Migrate by hand\n---\nMove the docs of your marketing site page by page. Your options: copy the docs, or export them.',
      'quickstart.mdx': '---\ntitle: Quickstart\n---\nPublish your docs on a subdomain.',
    }
    const question = 'we want the docs at example.com/docs but our marketing site already runs on example.com. what are the options?'
    expect(firstFound(pages, question)).toBe('deploy/subpath')
    expect(firstFound(pages, question.replace('example.com/docs', 'https://example.com/docs'))).toBe('deploy/subpath')
  })

  it('find what the docs call predefined and broken when the reader says ready-made and dead', () => {
    const pages = {
      'automations/overview.mdx':
        '---\ntitle: Automations\n---\nAutomations run the agent on a schedule and open pull requests in your docs. See the reference for each one.',
      'automations/reference.mdx':
        '---\ntitle: Reference\n---\n| Automation | Update mode |\n| --- | --- |\n| Fix broken links | Pull request |\n\nThese predefined automations each have a default update mode.',
      'guides/linking.mdx': '---\ntitle: Linking\n---\nLink pages in your docs with relative links.',
    }
    expect(firstFound(pages, 'is there a ready-made automation that fixes dead links in our docs on its own?')).toBe(
      'automations/reference',
    )
  })
})
