// Run by automations.test.ts under Deno and Bun: the automation engines' dependencies (croner, nspell,
// dictionary-en read with node:fs, the SUBTLEX JSON import) load and answer the same on each runtime.
import { readDocsTree } from '../../server/automations/docs-tree.ts'
import { fixBrokenLinks } from '../../server/automations/links/fix-broken-links.ts'
import { parseSchedule } from '../../server/automations/schedule.ts'
import { fixTypos } from '../../server/automations/typos/fix-typos.ts'
import { loadEnglishSpeller } from '../../server/automations/typos/speller.ts'

const schedule = parseSchedule('30 2 * * *', 'Europe/Berlin')
const speller = await loadEnglishSpeller()
const tree = readDocsTree(
  new Map([
    ['docs.json', JSON.stringify({ navigation: { pages: ['index', 'guides/setup'] } })],
    ['index.mdx', '# Home\n\nWe recieve [setup](/guide/setup) requests.\n'],
    ['guides/setup.mdx', '# Setup\n'],
  ]),
)
console.log(
  JSON.stringify({
    next: schedule.next(new Date('2026-03-28T12:00:00Z'))?.toISOString(),
    typos: fixTypos(tree, { speller }).report.misspellings.map((item) => `${item.word}>${item.correction}`),
    links: fixBrokenLinks(tree).report.problems.map((item) => `${item.url}>${item.fixedTo}`),
  }),
)
