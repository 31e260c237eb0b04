// Prints the sources and the offline model's answer for questions, as a reader would get them through the v2 endpoint.
// `node --import tsx bench/search-answers/show.ts <docs-dir> "<page>|<question>[|<earlier question>]" ...`
import { serveDocs } from './ask.ts'
const reader = await serveDocs(process.argv[2]!)
for (const line of process.argv.slice(3)) {
  const [page, q, prev] = line.split('|')
  const r = await reader.ask(q!, { page: page || undefined, previous: prev ? [prev] : undefined })
  console.log(`\n### ${page} ${q}\nsources: ${r.sources.join(', ')}\n${r.text}`)
}
await reader.stop()
