// npm run bench [name...]: runs each benchmark (bench/<name>/run.ts) in its own process and prints its figures.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'

const wanted = process.argv.slice(2)
const all = readdirSync('bench', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`bench/${entry.name}/run.ts`))
  .map((entry) => entry.name)
  .sort()
const names = wanted.length > 0 ? wanted : all
let failed = 0
for (const name of names) {
  if (!all.includes(name)) {
    console.error(`no benchmark "${name}" (have: ${all.join(', ')})`)
    failed++
    continue
  }
  console.log(`\n=== bench/${name} ===`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', `bench/${name}/run.ts`], { stdio: 'inherit' })
  if (result.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
