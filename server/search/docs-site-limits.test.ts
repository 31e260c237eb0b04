import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadDocsSite, readDocsSite } from './docs-site.ts'
import { PARALLEL_PARSE_MIN_PAGES } from './parse-workers.ts'
import { readDirectory } from './sources/directory.ts'

// What a docs repository's contributors (or an agent's pull request) may write that must not stop the site loading.

const siteOf = (files: Record<string, string>) => readDocsSite({ revision: 'r', files: new Map(Object.entries(files)) })

describe('a docs site that holds a trap still loads', () => {
  test('a $ref that refers to itself three times over is followed once (it made 3^32 walks)', () => {
    const site = siteOf({
      'docs.json': JSON.stringify({ navigation: { groups: [{ group: 'G', pages: ['index', { $ref: 'r.json' }, { $ref: 'r.json' }] }] } }),
      'r.json': JSON.stringify({ pages: ['other', { $ref: 'r.json' }, { $ref: 'r.json' }, { $ref: 'r.json' }] }),
      'index.mdx': '# Home\n\nWelcome.\n',
      'other.mdx': '# Other\n\nMore.\n',
    })
    expect([...site.pages.keys()].sort()).toEqual(['index', 'other'])
    expect(site.pages.get('other')?.nav?.groups).toEqual(['G'])
  })

  test('a page whose snippets double at every level is left out; the rest of the site loads', () => {
    const files: Record<string, string> = {
      'docs.json': JSON.stringify({ navigation: { groups: [{ group: 'G', pages: ['index', 'bomb'] }] } }),
      'index.mdx': '# Home\n\nWelcome.\n',
      'bomb.mdx': "import S0 from '/snippets/s0.mdx'\n\n# Bomb\n\n<S0 />\n",
    }
    for (let i = 0; i < 18; i++) files[`snippets/s${i}.mdx`] = `import N from '/snippets/s${i + 1}.mdx'\n\n<N />\n\n<N />\n`
    files['snippets/s18.mdx'] = 'A sentence.\n'
    const site = siteOf(files)
    expect(site.pages.has('index')).toBe(true)
    expect(site.pages.has('bomb')).toBe(false)
  })

  test('on a site parsed in worker threads, a page that cannot be read is left out there, not parsed again here', async () => {
    const files: Record<string, string> = {
      'docs.json': JSON.stringify({ navigation: { groups: [{ group: 'G', pages: ['bomb'] }] } }),
      'bomb.mdx': "import S0 from '/snippets/s0.mdx'\n\n# Bomb\n\n<S0 />\n",
    }
    for (let i = 0; i < 18; i++) files[`snippets/s${i}.mdx`] = `import N from '/snippets/s${i + 1}.mdx'\n\n<N />\n\n<N />\n`
    files['snippets/s18.mdx'] = 'A sentence.\n'
    for (let i = 0; i < PARALLEL_PARSE_MIN_PAGES; i++) files[`p${i}.mdx`] = `# Page ${i}\n\nText ${i}.\n`
    const failures: unknown[] = []
    const site = await loadDocsSite({ revision: 'r', files: new Map(Object.entries(files)) }, undefined, {
      workers: 2,
      onWorkersFailed: (error) => failures.push(error),
    })
    // A failed batch made the whole site parse again on the main thread.
    expect(failures).toEqual([])
    expect(site.pages.has('bomb')).toBe(false)
    expect(site.pages.size).toBe(PARALLEL_PARSE_MIN_PAGES)
  })

  test("a field's default is added to its own page, not to the snippet the field's text came from", () => {
    const site = siteOf({
      'docs.json': JSON.stringify({ navigation: { groups: [{ group: 'G', pages: ['a', 'b'] }] } }),
      'snippets/s.mdx': 'A shared sentence.\n',
      'a.mdx': `import S from '/snippets/s.mdx'\n\n# A\n\n${'<ParamField query="limit" default="50">\n<S />\n</ParamField>\n\n'.repeat(3)}`,
      'b.mdx': "import S from '/snippets/s.mdx'\n\n# B\n\n<S />\n",
    })
    expect(site.pages.get('b')?.markdown).not.toContain('Default')
    expect(site.pages.get('a')?.markdown.match(/Default: `50`/g)).toHaveLength(3)
  })

  test('a page saved with a byte-order mark reads as one without', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docent-bom-'))
    await writeFile(join(dir, 'docs.json'), JSON.stringify({ navigation: { groups: [{ group: 'G', pages: ['a'] }] } }))
    await writeFile(join(dir, 'a.mdx'), '\uFEFF---\ntitle: Marked\n---\n\n# Secret\n\nSECRET_TOKEN\n')
    const site = readDocsSite(await readDirectory(dir))
    expect(site.pages.get('a')?.title).toBe('Marked')
    expect(site.pages.get('a')?.markdown).toContain('SECRET_TOKEN\n')
    await rm(dir, { recursive: true, force: true })
  })
})
