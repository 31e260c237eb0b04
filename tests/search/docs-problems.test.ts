// What a docs team's files can do to the index, and what Docent says about it: files left out or read in part are
// named in the status with why, a navigation file that is not JSON or a source that empties keeps the last good docs
// served, and a page the parser is slow on is parsed off the thread that answers requests, within a time budget.
import { execFile } from 'node:child_process'
import * as fs from 'node:fs'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../server/config.ts'
import { consoleLogger } from '../../server/log.ts'
import { loadDocsSite, readDocsSite } from '../../server/search/docs-site.ts'
import { createSearchService } from '../../server/search/service.ts'
import { readDirectory } from '../../server/search/sources/directory.ts'
import { gitSource } from '../../server/search/sources/git.ts'
import { readDocsTree } from '../../server/search/sources/git-tree.ts'
import { MAX_FOLDER_DEPTH } from '../../server/search/sources/types.ts'
import { createRepo, git, startGitServer } from '../support/git-server.ts'

const run = promisify(execFile)
const snapshot = (entries: Record<string, string>) => ({ files: new Map(Object.entries(entries)), revision: 'r' })
const page = (title: string, body = 'Text.') => `---\ntitle: ${title}\n---\n\n${body}\n`
/** A GFM table thousands of columns wide: micromark takes seconds on a few tens of kilobytes of it. */
const wideTable = (columns: number, rows: number) =>
  `|${'a|'.repeat(columns)}\n|${'-|'.repeat(columns)}\n${`|${'b|'.repeat(columns)}\n`.repeat(rows)}`

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'docent-docs-problems-'))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

async function writeTree(dir: string, entries: Record<string, string | Uint8Array>) {
  for (const [file, content] of Object.entries(entries)) {
    await mkdir(dirname(join(dir, file)), { recursive: true })
    await writeFile(join(dir, file), content)
  }
}

describe('files left out or read in part are named, with why', () => {
  it('a page twice (a.md beside a.mdx, a/index.mdx beside a.mdx), bytes that are not UTF-8, broken frontmatter, a huge file', () => {
    const site = readDocsSite(
      snapshot({
        'guide.mdx': page('Guide'),
        'guide.md': page('Guide, older'),
        'intro.md': page('Intro, older', 'Caf\uFFFD.'),
        'intro.mdx': page('Intro'),
        'setup.mdx': page('Setup'),
        'setup/index.mdx': page('Setup, again'),
        'latin1.mdx': page('Caf\uFFFD', 'Cr\uFFFDme br\uFFFDl\uFFFDe.'),
        'broken.mdx': '---\ntitle: "Runbook\nhidden: true\n  - [\n---\n\nSecret steps.\n',
        'huge.mdx': `# Huge\n\n${'word '.repeat(500_000)}`,
      }),
    )
    expect([...site.pages.keys()].sort()).toEqual(['broken', 'guide', 'intro', 'latin1', 'setup'])
    // Whichever the source lists first: `.mdx` over `.md`, `a.mdx` over `a/index.mdx`.
    expect(site.pages.get('intro')!.title).toBe('Intro')
    // Each URL is one page: the second file of a pair is the one left out, and the status says which it lost to.
    expect(new Set([...site.pages.values()].map((p) => p.url)).size).toBe(site.pages.size)
    expect(site.problems).toEqual(
      expect.arrayContaining([
        { file: 'guide.md', problem: 'left out: guide.mdx is the same page (/guide)' },
        { file: 'intro.md', problem: 'left out: intro.mdx is the same page (/intro)' },
        { file: 'setup/index.mdx', problem: 'left out: setup.mdx is the same page (/setup)' },
        { file: 'latin1.mdx', problem: 'read in part: 4 bytes are not UTF-8 (shown as \uFFFD)' },
        { file: 'broken.mdx', problem: 'frontmatter is not valid YAML: its fields (title, hidden, noindex…) are ignored' },
        { file: 'huge.mdx', problem: 'left out: longer than 2,000,000 characters' },
      ]),
    )
    // intro.md's stray byte is no problem of a page that is not served.
    expect(site.problems).toHaveLength(6)
  })

  it('the file that would serve a page in place of its twin, but cannot be read, leaves the twin served', () => {
    const site = readDocsSite(snapshot({ 'intro.md': page('Intro, older'), 'intro.mdx': page('Intro') }), undefined, {
      pages: new Map([['intro.mdx', { leftOut: 'left out: took longer than 20 s to parse' }]]),
      imports: [],
    })
    expect(site.pages.get('intro')!.title).toBe('Intro, older')
    expect(site.problems).toEqual([{ file: 'intro.mdx', problem: 'left out: took longer than 20 s to parse' }])
  })

  it('a clean site has no problems, and valid frontmatter of any shape is not called broken', () => {
    const site = readDocsSite(
      snapshot({
        'a.mdx': page('A'),
        'b.mdx': '---\n# only a comment\n---\n\nB.\n',
        'c.mdx': '---\ntitle: C\ntags:\n  - one\n  - two\nseo:\n  noindex: false\n---\n\nC.\n',
      }),
    )
    expect(site.problems).toEqual([])
  })
})

describe('a navigation file that is not valid JSON is not read as no navigation', () => {
  const nav = (pages: string) =>
    `{"name":"P","navigation":{"groups":[{"group":"Main","pages":[${pages}]},{"group":"Internal","hidden":true,"pages":["runbook"]}]}}`
  const pages = { 'index.mdx': page('Home'), 'runbook.mdx': page('Runbook') }

  it('throws, saying where, for docs.json, mint.json and a file a $ref names', () => {
    expect(readDocsSite(snapshot({ ...pages, 'docs.json': nav('"index"') })).pages.get('runbook')!.hidden).toBe(true)
    // A trailing comma: read without its navigation, the hidden runbook was searched, answered from and listed.
    expect(() => readDocsSite(snapshot({ ...pages, 'docs.json': nav('"index",') }))).toThrow(
      /^docs\.json is not valid JSON \(.*\); this revision of the docs is not served$/,
    )
    expect(() => readDocsSite(snapshot({ ...pages, 'docs.json': '{\n  "name": "P",\n  // a comment\n}' }))).toThrow(
      /docs\.json is not valid JSON \((line 3, column 3: )?/,
    )
    expect(() => readDocsSite(snapshot({ ...pages, 'mint.json': '{"name": "P"' }))).toThrow(/^mint\.json is not valid JSON/)
    const withRef = { navigation: { languages: [{ language: 'en', $ref: './en.json' }] } }
    expect(() => readDocsSite(snapshot({ ...pages, 'docs.json': JSON.stringify(withRef), 'en.json': '{"groups": [}' }))).toThrow(
      /^en\.json is not valid JSON/,
    )
  })

  it('the search service keeps serving the last good docs, and the status says why', async () => {
    const dir = join(root, 'nav')
    await writeTree(dir, { ...pages, 'docs.json': nav('"index"') })
    const service = serviceFor(dir)
    const first = await service.corpus('p')
    expect(first.pages().find((p) => p.path === 'runbook')).toMatchObject({ hidden: true })
    await writeFile(join(dir, 'docs.json'), nav('"index",'))
    await expect(service.refresh('p')).rejects.toThrow(/docs\.json is not valid JSON/)
    expect(await service.corpus('p')).toBe(first)
    expect(service.status!('p')).toMatchObject({ revision: first.revision, error: expect.stringMatching(/^docs\.json is not valid JSON/) })
    // Fixed: the next refresh loads it, and the error is gone.
    await writeFile(join(dir, 'docs.json'), nav('"index", "runbook"'))
    expect(await service.refresh('p')).toMatchObject({ changed: true })
    expect(service.status!('p')!.error).toBeNull()
  })

  it('on a first load, the project does not load (it is degraded) rather than show its hidden pages', async () => {
    const dir = join(root, 'nav-first')
    await writeTree(dir, { ...pages, 'docs.json': nav('"index",') })
    const service = serviceFor(dir)
    await expect(service.corpus('p')).rejects.toThrow(/docs\.json is not valid JSON/)
    expect(service.status!('p')).toMatchObject({ revision: null, error: expect.stringMatching(/^docs\.json/) })
    // Fixed at once: queries within the hold get the same error without reading the docs again (a git source was
    // cloned again for every query); the refresh timer's reload loads them.
    await writeFile(join(dir, 'docs.json'), nav('"index"'))
    await expect(service.corpus('p')).rejects.toThrow(/docs\.json is not valid JSON/)
    expect(await service.refresh('p')).toMatchObject({ changed: true })
    expect((await service.corpus('p')).pages()).toHaveLength(2)
  })
})

describe('a docs source that empties', () => {
  it('keeps the last docs served and says so; a first load of an empty source has no pages, and says that', async () => {
    const dir = join(root, 'emptied')
    await writeTree(dir, { 'index.mdx': page('Home'), 'guide.mdx': page('Guide') })
    const service = serviceFor(dir)
    const first = await service.corpus('p')
    await rm(join(dir, 'index.mdx'))
    await rm(join(dir, 'guide.mdx'))
    await expect(service.refresh('p')).rejects.toThrow('the docs source has no pages now (it had 2); the last docs loaded are still served')
    expect(await service.corpus('p')).toBe(first)
    expect(service.status!('p')).toMatchObject({ pages: 2, error: expect.stringContaining('no pages now') })
    // Pages back: loaded again.
    await writeTree(dir, { 'index.mdx': page('Home, back') })
    expect(await service.refresh('p')).toMatchObject({ changed: true })
    expect(service.status!('p')).toMatchObject({ pages: 1, error: null })

    const empty = join(root, 'empty')
    await mkdir(empty, { recursive: true })
    const fresh = serviceFor(empty)
    expect((await fresh.corpus('p')).pages()).toEqual([])
    expect(fresh.status!('p')).toMatchObject({ pages: 0, error: null })
  })
})

describe('a directory source', () => {
  it('names links and folders too deep, and reads UTF-16 files that say so', async () => {
    const dir = join(root, 'dir')
    const deep = Array.from({ length: MAX_FOLDER_DEPTH + 1 }, (_, i) => `d${i}`).join('/')
    const utf16 = (text: string) =>
      Uint8Array.from([0xff, 0xfe, ...new Uint8Array(new Uint16Array([...text].map((c) => c.charCodeAt(0))).buffer)])
    await writeTree(dir, {
      'index.mdx': page('Home'),
      'wide.mdx': utf16(page('Wide', 'Saved by a Windows editor: café.')),
      [`${deep}/page.mdx`]: page('Too deep'),
      'ok/within.mdx': page('Within'),
    })
    await symlink('/etc/passwd', join(dir, 'passwd.md'))
    await symlink(join(dir, 'ok'), join(dir, 'linked'))
    await symlink(join(dir, 'index.mdx'), join(dir, 'logo.png'))
    const read = await readDirectory(dir)
    expect([...read.files.keys()].sort()).toEqual(['index.mdx', 'ok/within.mdx', 'wide.mdx'])
    expect(read.files.get('wide.mdx')).toBe(page('Wide', 'Saved by a Windows editor: café.'))
    expect(read.skipped!.sort((a, b) => a.file.localeCompare(b.file))).toEqual([
      {
        file: `${deep
          .split('/')
          .slice(0, MAX_FOLDER_DEPTH + 1)
          .join('/')}/`,
        problem: `left out: more than ${MAX_FOLDER_DEPTH} folders deep`,
      },
      { file: 'linked', problem: 'left out: a symbolic link (links are not followed)' },
      { file: 'passwd.md', problem: 'left out: a symbolic link (links are not followed)' },
    ])
    // The status carries them.
    const service = serviceFor(dir)
    await service.corpus('p')
    expect(service.status!('p')!.problems.map((p) => p.file)).toEqual(expect.arrayContaining(['linked', 'passwd.md']))
  })
})

describe('a git tree', () => {
  it('does not read links or submodules as pages, names them, and refuses a root that is not there', async () => {
    const work = join(root, 'repo')
    await writeTree(work, { 'docs/index.mdx': page('Home'), 'docs/guide.mdx': page('Guide'), 'README.md': '# Repo\n' })
    const sh = (...args: string[]) => run('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: work })
    await sh('init', '-q', '-b', 'main')
    await symlink('/etc/passwd', join(work, 'docs/passwd.md'))
    await sh('add', '-A')
    // A submodule named like a page: its commit is not in this repository.
    await sh('update-index', '--add', '--cacheinfo', `160000,${'2'.repeat(40)},docs/sub.mdx`)
    await sh('commit', '-q', '-m', 'docs')
    const oid = (await sh('rev-parse', 'HEAD')).stdout.trim()
    const repo = { fs, gitdir: join(work, '.git') }
    const tree = await readDocsTree(repo, oid, 'docs')
    expect([...tree.files.keys()].sort()).toEqual(['guide.mdx', 'index.mdx'])
    expect(tree.skipped).toEqual([
      { file: 'passwd.md', problem: 'left out: a symbolic link (links are not followed)' },
      { file: 'sub.mdx', problem: 'left out: a git submodule (not read)' },
    ])
    expect((await readDocsTree(repo, oid, '')).files.has('README.md')).toBe(true)
    await expect(readDocsTree(repo, oid, 'site')).rejects.toThrow(`the docs root "site" is not a folder of commit ${oid.slice(0, 12)}`)
  })
})

describe('a git remote whose HEAD names no branch', () => {
  it('fails the load saying what to fix, where isomorphic-git said "Could not find HEAD."', async () => {
    const server = await startGitServer()
    try {
      const repo = await createRepo(server, 'headless', { files: { 'index.mdx': page('Home') } })
      await git(repo.bare, 'symbolic-ref', 'HEAD', 'refs/heads/gone')
      await expect(gitSource({ url: repo.url, ref: 'main', root: '', fetch }).load()).rejects.toThrow(
        'the docs repository\'s HEAD names no branch (it must, even with ref "main"): set its default branch to one that exists',
      )
      // The remote set right, the same source loads.
      await git(repo.bare, 'symbolic-ref', 'HEAD', 'refs/heads/main')
      expect([...(await gitSource({ url: repo.url, ref: 'main', root: '', fetch }).load()).files.keys()]).toEqual(['index.mdx'])
    } finally {
      await server.close()
    }
  })
})

describe('pages the parser is slow on', () => {
  it('are parsed off this thread within a time budget: a page over it is left out, named, and the rest load', async () => {
    // About 130 KB: micromark takes 10 s and more on it, well past the budget; the long prose page takes milliseconds.
    const slow = wideTable(3_000, 20)
    const long = page('Long', 'A sentence of the changelog. '.repeat(400))
    let ticks = 0
    const ticker = setInterval(() => ticks++, 20)
    try {
      const site = await loadDocsSite(snapshot({ 'index.mdx': page('Home'), 'long.mdx': long, 'table.mdx': slow }), undefined, {
        pageBudgetMs: 2_000,
      })
      expect([...site.pages.keys()].sort()).toEqual(['index', 'long'])
      expect(site.problems).toEqual([{ file: 'table.mdx', problem: 'left out: took longer than 2 s to parse' }])
    } finally {
      clearInterval(ticker)
    }
    // This thread kept answering while the worker parsed (here it would have been held for seconds).
    expect(ticks).toBeGreaterThan(5)
  })
})

function serviceFor(directory: string) {
  const config = parseConfig({
    store: { kind: 'memory' },
    projects: [{ id: 'p', organization: 'o', domain: 'p.example', docs: { directory } }],
  })
  return createSearchService({ config, log: consoleLogger('silent'), fetch })
}
