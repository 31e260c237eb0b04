// npm run bench [name...]: runs each benchmark (bench/<name>/run.ts) in its own process, prints its output as it
// comes, and ends with a summary of every target: the lines benches print as
// `TARGET <name>: <figure> vs <target>: holds|MISSED` (bench/support.ts `reportTarget`).
import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { parseTargetLine, type TargetLine } from './support.ts'

const wanted = process.argv.slice(2)
const all = readdirSync('bench', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`bench/${entry.name}/run.ts`))
  .map((entry) => entry.name)
  .sort()
const names = wanted.length > 0 ? wanted : all
let failed = 0
const summary: Array<{ bench: string; targets: TargetLine[]; exitCode: number | null }> = []

/** Runs one bench, echoing its output, and collects its TARGET lines. */
function run(name: string): Promise<{ targets: TargetLine[]; exitCode: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `bench/${name}/run.ts`], { stdio: ['ignore', 'pipe', 'inherit'] })
    const targets: TargetLine[] = []
    let partial = ''
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk)
      const lines = (partial + chunk.toString()).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) {
        const target = parseTargetLine(line)
        if (target) targets.push(target)
      }
    })
    child.once('close', (exitCode) => {
      const target = parseTargetLine(partial)
      if (target) targets.push(target)
      resolve({ targets, exitCode })
    })
  })
}

for (const name of names) {
  if (!all.includes(name)) {
    console.error(`no benchmark "${name}" (have: ${all.join(', ')})`)
    failed++
    continue
  }
  console.log(`\n=== bench/${name} ===`)
  const result = await run(name)
  if (result.exitCode !== 0) failed++
  summary.push({ bench: name, ...result })
}

const rows = summary.flatMap(({ bench, targets, exitCode }) => {
  const failure = exitCode === 0 ? '' : ` (exit ${exitCode})`
  if (targets.length === 0) return [[bench, `(no target stated)${failure}`, '', '', exitCode === 0 ? '' : 'FAILED']]
  return targets.map((t) => [bench, t.name + failure, t.figure, t.target, t.holds ? 'holds' : 'MISSED'])
})
const header = ['bench', 'target', 'figure', 'vs', 'verdict']
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)))
const line = (cells: string[]) =>
  cells
    .map((cell, i) => cell.padEnd(widths[i]!))
    .join('  ')
    .trimEnd()
console.log(
  `\n=== summary: ${rows.filter((row) => row[4] === 'holds').length} targets hold, ${rows.filter((row) => row[4] === 'MISSED').length} missed ===`,
)
console.log(line(header))
for (const row of rows) console.log(line(row))
process.exit(failed ? 1 : 0)
