// Loads a generated site of 400 pages (plus a page importing a snippet) with its pages parsed in worker threads,
// and checks the site is the one parsing in this thread gives. Run by parse-workers.test.ts on Node, Deno and Bun.
import { loadDocsSite, readDocsSite } from '../../../server/search/docs-site.ts'

const files = new Map<string, string>()
for (let i = 0; i < 400; i++) {
  files.set(`guide/page-${i}.mdx`, `---\ntitle: "Page ${i}"\ntags: ["t${i % 7}"]\n---\n\nIntro ${i} with \`code\`.\n\n## Setup ${i}\n\n<Note>\n  Remember ${i}.\n</Note>\n\n| a | b |\n| - | - |\n| ${i} | x |\n`)
}
files.set('snippets/shared.mdx', 'Shared words from a snippet.\n')
files.set('guide/with-snippet.mdx', "import Shared from '/snippets/shared.mdx'\n\n# With snippet\n\n<Shared />\n")
files.set('docs.json', JSON.stringify({ name: 'Workers', navigation: { groups: [{ group: 'Guide', pages: ['guide/page-0'] }] } }))

let failure: unknown
const site = await loadDocsSite({ files, revision: 'r1' }, undefined, { workers: 2, onWorkersFailed: (error) => (failure = error) })
if (failure) {
  console.log(`WORKERS FAILED ${failure}`)
  process.exit(1)
}
const strip = (pages: typeof site.pages) => JSON.stringify([...pages.values()])
const inThread = readDocsSite({ files, revision: 'r1' })
const same = strip(site.pages) === strip(inThread.pages)
console.log(`PAGES ${site.pages.size} SAME ${same} SNIPPET ${site.pages.get('guide/with-snippet')?.markdown.includes('Shared words') ?? false}`)
process.exit(same ? 0 : 1)
