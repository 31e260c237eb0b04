// The automation engines on the Mintlify docs (~1,100 MDX pages in four languages): each engine's CPU time against the
// MDX parse it cannot do without (the ratio it is judged by: how much an engine adds to reading the pages), the
// speller's load time and heap, and the scheduler's arithmetic.
// `node --import tsx bench/automations/run.ts [docs folder]`
import { existsSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { draftChangelog } from '../../server/automations/changelog/draft-changelog.ts'
import { isEnglish, readDocsTree } from '../../server/automations/docs-tree.ts'
import { fixBrokenLinks } from '../../server/automations/links/fix-broken-links.ts'
import { dueSlot, parseSchedule } from '../../server/automations/schedule.ts'
import { fixSeo } from '../../server/automations/seo/fix-seo.ts'
import { fixTypos } from '../../server/automations/typos/fix-typos.ts'
import { loadEnglishSpeller } from '../../server/automations/typos/speller.ts'
import { parseMarkdown } from '../../server/search/markdown.ts'
import { readDirectory } from '../../server/search/sources/directory.ts'
import { fmt } from '../support.ts'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
/** The JS heap plus memory outside it (typed arrays, WASM memories, buffers), in MiB. */
const heapMb = () => {
  gc()
  gc()
  const { heapUsed, external } = process.memoryUsage()
  return (heapUsed + external) / 2 ** 20
}

const folder = process.argv[2] ?? '../shared/corpora/mintlify-docs'
if (!existsSync(`${folder}/docs.json`)) {
  console.log(`skipped: ${folder} is absent`)
  process.exit(0)
}
const { files } = await readDirectory(folder)
/**
 * CPU time (user + system) of `run`, in ms: on a machine other work shares, wall time says more of the neighbours than
 * of the code. The work is synchronous, so the process's CPU time is its.
 */
const time = <T>(run: () => T): [T, number] => {
  const start = process.cpuUsage()
  const result = run()
  const used = process.cpuUsage(start)
  return [result, (used.user + used.system) / 1000]
}

// Warm the parser (JIT) on a few pages, so the first measurement is not also the compiler's.
const tree = readDocsTree(files)
for (const page of [...tree.pages.values()].slice(0, 20)) parseMarkdown(page.text)
const parseAll = (pages: Iterable<{ text: string }>) => {
  for (const page of pages) parseMarkdown(page.text)
}
const everyFile = [...tree.pages.values(), ...[...tree.snippets.values()].map((text) => ({ text }))]
const english = [...tree.pages.values()].filter(isEnglish)
const [, parseMs] = time(() => parseAll(everyFile))
const [, parseEnglishMs] = time(() => parseAll(english))
const [, parseNavMs] = time(() => parseAll([...tree.pages.values()].filter((page) => page.nav)))
console.log(
  `${tree.pages.size} pages and ${tree.snippets.size} snippets (${fmt(
    everyFile.reduce((n, page) => n + page.text.length, 0) / 1e6,
    1,
  )} MB), ${process.version}`,
)
console.log(`baseline, parse every page and snippet: ${fmt(parseMs / 1000, 2)} s (English pages: ${fmt(parseEnglishMs / 1000, 2)} s)`)

const [links, linksMs] = time(() => fixBrokenLinks(tree))
console.log(
  `broken links: ${fmt(linksMs / 1000, 2)} s, ${fmt(linksMs / parseMs, 2)}x the parse; ` +
    `${links.report.checked} links checked, ${links.report.problems.length} broken, ${links.report.fixed} fixed`,
)

const heapBefore = heapMb()
const [speller, loadMs] = await (async () => {
  const start = process.cpuUsage()
  const loaded = await loadEnglishSpeller()
  const used = process.cpuUsage(start)
  return [loaded, (used.user + used.system) / 1000] as const
})()
console.log(
  `speller load: ${fmt(loadMs, 0)} ms, ${fmt(heapMb() - heapBefore, 1)} MB (heap + typed arrays, WASM and other memory outside the heap)`,
)
const [typos, typosMs] = time(() => fixTypos(tree, { speller }))
console.log(
  `typos: ${fmt(typosMs / 1000, 2)} s, ${fmt(typosMs / parseEnglishMs, 2)}x the parse of the English pages; ` +
    `${typos.report.words} words, ${typos.report.unknown} unknown, ${typos.report.fixed} corrected, ${typos.report.listed} listed`,
)

const [seo, seoMs] = time(() => fixSeo(tree))
console.log(
  `SEO: ${fmt(seoMs / 1000, 2)} s, ${fmt(
    seoMs / parseNavMs,
    2,
  )}x the parse of the listed pages; ${seo.report.pages} pages, ${seo.report.changes.length} set`,
)

const changes = Array.from({ length: 200 }, (_, i) => ({
  kind: 'pull_request' as const,
  id: String(i),
  number: i,
  title: `${['feat', 'fix', 'docs', 'chore'][i % 4]}: change ${i}`,
}))
const [, changelogMs] = time(() => draftChangelog(tree, { changes, date: '2026-11-23' }))
console.log(`changelog: ${fmt(changelogMs, 1)} ms for 200 merged pull requests`)

const minutely = parseSchedule('* * * * *', 'Europe/Berlin')
const [, nextMs] = time(() => {
  let at = new Date('2026-01-01T00:00:00Z')
  for (let i = 0; i < 10_000; i++) at = minutely.next(at)!
})
const [, dueMs] = time(() => dueSlot(minutely, new Date('2025-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z')))
console.log(
  `schedule: ${fmt((nextMs / 10_000) * 1000, 1)} µs a next slot; the due slot after a year down on a minutely cron: ${fmt(dueMs, 1)} ms`,
)
