import { serveDocs } from './ask.ts'
const reader = await serveDocs(process.argv[2]!)
for (const line of process.argv.slice(3)) {
  const [page, q, prev] = line.split('|')
  const r = await reader.ask(q!, { page: page || undefined, previous: prev ? [prev] : undefined })
  console.log(`\n### ${page} ${q}\nsources: ${r.sources.join(', ')}\n${r.text}`)
}
await reader.stop()
