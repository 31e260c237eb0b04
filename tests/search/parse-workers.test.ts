import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const SCRIPT = 'tests/search/support/parse-in-workers.ts'
const commands = {
  node: ['node', '--import', 'tsx', SCRIPT],
  deno: ['node_modules/.bin/deno', 'run', '--allow-read', '--allow-env', '--allow-sys', SCRIPT],
  bun: ['node_modules/.bin/bun', SCRIPT],
}

/**
 * Large sites are parsed in worker threads; on every runtime the site is the same as parsed in one thread, and a page
 * over the parse budget is left out without holding up the rest.
 */
describe.each(Object.keys(commands) as Array<keyof typeof commands>)('parsing in worker threads on %s', (runtime) => {
  it('gives the pages one thread gives, snippets included', async () => {
    const [bin, ...args] = commands[runtime]
    const { stdout } = await run(bin!, args, { env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 })
    expect(stdout).toContain('PAGES 402 SAME true SNIPPET true IMPORTS 4')
    expect(stdout).toContain('BUDGET after,first,short table.mdx: left out: took longer than 2 s to parse')
  }, 150_000)
})
