// npm test: every test, on every runtime. Vitest on Node runs the main suites (which also drive the Deno and Bun
// servers, the real git server, PostgreSQL and Chromium); vitest on Deno runs the PGlite and PostgreSQL stores under
// Deno (`*.deno.test.ts`); `deno test` runs the store conformance suite on Deno KV (`*_test.ts`). Before them: formatting,
// lint and types (a full run only). Ends with one plain
// "N passed, N failed, N skipped" line over all three.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const filters = process.argv.slice(2)
const totals = { passed: 0, failed: 0, skipped: 0 }
let runnerFailed = false

function runVitest(label: string, command: string[]) {
  console.log(`\n::: ${label}`)
  const report = join(mkdtempSync(join(tmpdir(), 'docent-test-')), 'vitest.json')
  const [bin, ...args] = command
  const result = spawnSync(bin!, [...args, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...filters], {
    stdio: 'inherit',
  })
  if (existsSync(report)) {
    const summary = JSON.parse(readFileSync(report, 'utf8')) as {
      numPassedTests: number
      numFailedTests: number
      numPendingTests: number
      numTodoTests: number
      numFailedTestSuites: number
    }
    totals.passed += summary.numPassedTests
    totals.failed += summary.numFailedTests + (summary.numFailedTests === 0 ? summary.numFailedTestSuites : 0)
    totals.skipped += summary.numPendingTests + summary.numTodoTests
  } else if (result.status !== 0) {
    totals.failed += 1
  }
  // Vitest exits 1 when a filter matches no file; that is not a failure of the filtered run.
  if (result.status !== 0 && existsSync(report)) runnerFailed = true
}

function runDenoTest(label: string, files: string[]) {
  console.log(`\n::: ${label}`)
  const result = spawnSync('node_modules/.bin/deno', ['test', '--allow-all', '--no-check', ...files], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  process.stdout.write(result.stdout)
  process.stderr.write(result.stderr)
  const summary = /(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed(?: \| (\d+) ignored)?/.exec(result.stdout)
  totals.passed += Number(summary?.[1] ?? 0)
  totals.failed += summary ? Number(summary[2]) : 1
  totals.skipped += Number(summary?.[3] ?? 0)
  if (result.status !== 0) runnerFailed = true
}

/** A check that is one command (formatting, lint, types): one passed or failed test each. */
function runCheck(label: string, command: string[]) {
  console.log(`\n::: ${label}`)
  const [bin, ...args] = command
  const result = spawnSync(bin!, args, { stdio: 'inherit', env: { ...process.env, NO_COLOR: '1' } })
  if (result.status === 0) totals.passed += 1
  else {
    totals.failed += 1
    runnerFailed = true
  }
}

if (filters.length === 0) {
  runCheck('format and lint (biome check)', ['node_modules/.bin/biome', 'check', '--error-on-warnings', '.'])
  runCheck('types (tsc --noEmit)', ['node_modules/.bin/tsc', '--noEmit', '-p', '.'])
}
runVitest('vitest on Node', ['node_modules/.bin/vitest'])
if (filters.length === 0 || filters.some((filter) => filter.includes('deno'))) {
  runVitest('vitest on Deno (stores under Deno)', [
    'node_modules/.bin/deno',
    'run',
    '--allow-all',
    '--unstable-kv',
    'node_modules/vitest/vitest.mjs',
  ])
  runDenoTest('deno test (Deno KV store)', ['server/store/denokv_test.ts'])
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(runnerFailed || totals.failed > 0 ? 1 : 0)
