// Memory of loaded docs, as the server holds them: each corpus is loaded through the search service (directory
// source, worker-thread parsing, index) in a fresh process, and the process's RSS, JS heap and typed-array memory
// are printed before and after, with the docs' own size for scale.
// `node --import tsx bench/search-memory/run.ts [demo|mintlify|10k ...]`
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { generateSite } from '../search-speed/generate.ts'

const GENERATED = '/tmp/docent-bench-10k-pages'
const corpora: Record<string, string> = { demo: 'demo/docs', mintlify: '../shared/corpora/mintlify-docs', '10k': GENERATED }

if (process.argv[2] === '--child') {
  const { setFlagsFromString } = await import('node:v8')
  const { runInNewContext } = await import('node:vm')
  const { createSearchService } = await import('../../server/search/service.ts')
  const { parseConfig } = await import('../../server/config.ts')
  const { consoleLogger } = await import('../../server/log.ts')
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc()
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const { rss, heapUsed, arrayBuffers } = process.memoryUsage()
    return { rss: rss / 2 ** 20, heap: heapUsed / 2 ** 20, arrays: arrayBuffers / 2 ** 20 }
  }
  const config = parseConfig({
    store: { kind: 'memory' },
    projects: [{ id: 'docs', organization: 'docs', domain: 'docs', docs: { directory: process.argv[3]! } }],
  })
  const service = createSearchService({ config, log: consoleLogger('silent'), fetch })
  const before = await settle()
  const corpus = await service.corpus('docs')
  const after = await settle()
  corpus.search('how do I get started', { pageSize: 5 })
  console.log(JSON.stringify({ pages: corpus.pages().length, before, after }))
  process.exit(0)
}

if (!existsSync(`${GENERATED}/docs.json`)) {
  for (const [path, text] of generateSite(10_000)) {
    mkdirSync(dirname(`${GENERATED}/${path}`), { recursive: true })
    writeFileSync(`${GENERATED}/${path}`, text)
  }
}
const wanted = process.argv.slice(2)
for (const [name, directory] of Object.entries(corpora)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue
  if (!existsSync(directory)) {
    console.log(`${name}: skipped, ${directory} is absent`)
    continue
  }
  const child = spawnSync(process.execPath, ['--import', 'tsx', 'bench/search-memory/run.ts', '--child', directory], { encoding: 'utf8' })
  if (child.status !== 0) {
    console.log(`${name}: failed\n${child.stderr}`)
    continue
  }
  const { pages, before, after } = JSON.parse(child.stdout.trim().split('\n').at(-1)!)
  const mb = (n: number) => `${n.toFixed(0)} MiB`
  console.log(
    `${name.padEnd(8)} ${String(pages).padStart(5)} pages: RSS ${mb(before.rss)} → ${mb(after.rss)} (+${mb(after.rss - before.rss)}), ` +
      `JS heap +${mb(after.heap - before.heap)}, typed arrays +${mb(after.arrays - before.arrays)}`,
  )
}
