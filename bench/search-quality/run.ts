// Search quality on demo/docs: recall@5 and MRR@10 over questions.json, for each index library.
// `--misses` prints the questions whose page is not in the top 5.
import { readFile } from 'node:fs/promises'
import { buildCorpus } from '../../server/search/corpus.ts'
import { readDocsSite } from '../../server/search/docs-site.ts'
import { ENGINES } from '../../server/search/engines/all.ts'
import { readDirectory } from '../../server/search/sources/directory.ts'
import { evaluate, type Question } from './evaluate.ts'

const questions = JSON.parse(await readFile('bench/search-quality/questions.json', 'utf8')) as Question[]
const site = readDocsSite(await readDirectory('demo/docs'))
const showMisses = process.argv.includes('--misses')
for (const [name, engine] of Object.entries(ENGINES)) {
  const corpus = buildCorpus(site, engine)
  const quality = evaluate(corpus, questions)
  console.log(
    `${name.padEnd(10)} questions ${quality.questions}  recall@5 ${(quality.recallAt5 * 100).toFixed(1)}%  MRR@10 ${quality.mrrAt10.toFixed(
      3,
    )}  sections ${corpus.sections.length}`,
  )
  if (showMisses) {
    for (const miss of quality.misses) {
      console.log(`  miss: ${miss.question}\n    want ${miss.expected.join(', ')}\n    got  ${miss.got.join(', ')}`)
    }
  }
}
