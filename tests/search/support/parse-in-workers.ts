// Loads a generated site of 400 pages (plus pages importing snippets, one through another, one missing) with its
// pages parsed in worker threads, and checks the site, and the imports it watches, are what parsing in this thread
// gives; then a small site with a page over the parse budget. Run by parse-workers.test.ts on Node, Deno and Bun.
import { loadDocsSite, readDocsSite } from '../../../server/search/docs-site.ts'

const files = new Map<string, string>()
for (let i = 0; i < 400; i++) {
  files.set(
    `guide/page-${i}.mdx`,
    `---\ntitle: "Page ${i}"\ntags: ["t${
      i % 7
    }"]\n---\n\nIntro ${i} with \`code\`.\n\n## Setup ${i}\n\n<Note>\n  Remember ${i}.\n</Note>\n\n| a | b |\n| - | - |\n| ${i} | x |\n`,
  )
}
files.set('snippets/shared.mdx', "import Inner from './inner.mdx'\n\nShared words from a snippet.\n\n<Inner />\n")
files.set('snippets/inner.mdx', 'Inner words from a nested snippet.\n')
files.set('guide/local.mdx', 'Local words beside the page.\n')
files.set(
  'guide/with-snippet.mdx',
  "import Shared from '/snippets/shared.mdx'\nimport Local from './local.mdx'\nimport Gone from '/snippets/gone.mdx'\n\n# With snippet\n\n<Shared />\n\n<Local />\n\n<Gone />\n",
)
files.set('docs.json', JSON.stringify({ name: 'Workers', navigation: { groups: [{ group: 'Guide', pages: ['guide/page-0'] }] } }))

let failure: unknown
const site = await loadDocsSite({ files, revision: 'r1' }, undefined, { workers: 2, onWorkersFailed: (error) => (failure = error) })
if (failure) {
  console.log(`WORKERS FAILED ${failure}`)
  process.exit(1)
}
const strip = (pages: typeof site.pages) => JSON.stringify([...pages.values()])
const inThread = readDocsSite({ files, revision: 'r1' })
const imports = (cache: typeof site.parsed) => JSON.stringify([...cache.imports].sort())
const same = strip(site.pages) === strip(inThread.pages) && imports(site.parsed) === imports(inThread.parsed)
const withSnippet = site.pages.get('guide/with-snippet')?.markdown ?? ''
const snippets = ['Shared words', 'Inner words', 'Local words'].every((words) => withSnippet.includes(words))
console.log(`PAGES ${site.pages.size} SAME ${same} SNIPPET ${snippets} IMPORTS ${site.parsed.imports.size}`)

// Long pages of a small site go to a worker too, under a time budget: a GFM table 3,000 columns wide (micromark takes
// seconds on it) is left out, its worker ended, and a new one parses the page after it.
const long = (word: string) => `# ${word}\n\n${`${word} `.repeat(3_000)}\n`
const table = `|${'a|'.repeat(3_000)}\n|${'-|'.repeat(3_000)}\n${`|${'b|'.repeat(3_000)}\n`.repeat(20)}`
const budgeted = await loadDocsSite(
  {
    files: new Map([
      ['first.mdx', long('first')],
      ['table.mdx', table],
      ['after.mdx', long('after')],
      ['short.mdx', '# Short\n'],
    ]),
    revision: 'r2',
  },
  undefined,
  { pageBudgetMs: 2_000, onWorkersFailed: (error) => (failure = error) },
)
if (failure) {
  console.log(`WORKERS FAILED ${failure}`)
  process.exit(1)
}
console.log(
  `BUDGET ${[...budgeted.pages.keys()].sort().join(',')} ${budgeted.problems.map(({ file, problem }) => `${file}: ${problem}`).join('; ')}`,
)
process.exit(same ? 0 : 1)
