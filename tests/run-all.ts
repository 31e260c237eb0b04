// npm test: every test, on every runtime. Vitest runs the Node suites (which also drive the Deno and Bun servers,
// the real git server, PostgreSQL and Chromium); Deno-only suites (Deno KV) run under `deno test`.
// Ends with one plain "N passed, N failed, N skipped" line summed over all runners.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

let passed = 0
let failed = 0
let skipped = 0
let runnerFailed = false

const report = join(mkdtempSync(join(tmpdir(), 'docent-test-')), 'vitest.json')
const vitest = spawnSync('node_modules/.bin/vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], { stdio: 'inherit' })
if (existsSync(report)) {
  const summary = JSON.parse(readFileSync(report, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number; numFailedTestSuites: number }
  passed += summary.numPassedTests
  failed += summary.numFailedTests
  skipped += summary.numPendingTests + summary.numTodoTests
  if (summary.numFailedTestSuites > 0 && summary.numFailedTests === 0) failed += summary.numFailedTestSuites
}
if (vitest.status !== 0) runnerFailed = true

const denoTests = existsSync('tests/deno') ? readdirSync('tests/deno').filter((name) => name.endsWith('.test.ts')) : []
if (denoTests.length > 0 && process.argv.length <= 2) {
  const deno = spawnSync('node_modules/.bin/deno', ['test', '--allow-all', '--unstable-kv', 'tests/deno/'], { encoding: 'utf8' })
  process.stdout.write(deno.stdout)
  process.stderr.write(deno.stderr)
  // deno test ends with: "ok | 12 passed | 0 failed (1s)"
  const match = /(\d+) passed \((?:\d+) steps?\) \| (\d+) failed|(\d+) passed \| (\d+) failed(?: \| (\d+) ignored)?/.exec(deno.stdout)
  if (match) {
    passed += Number(match[1] ?? match[3])
    failed += Number(match[2] ?? match[4])
    skipped += Number(match[5] ?? 0)
  }
  if (deno.status !== 0) runnerFailed = true
}

console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(runnerFailed || failed > 0 ? 1 : 0)
