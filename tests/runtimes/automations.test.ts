import { spawnSync } from 'node:child_process'
import { describe, expect, test } from 'vitest'

const COMMANDS = {
  node: [process.execPath, '--import', 'tsx'],
  deno: ['node_modules/.bin/deno', 'run', '--allow-read', '--allow-env'],
  bun: ['node_modules/.bin/bun'],
}

/** The same answers on each runtime: a DST slot in Berlin, a misspelling corrected, a moved page's link fixed. */
describe('automation engines on each runtime', () => {
  for (const [runtime, command] of Object.entries(COMMANDS)) {
    test(runtime, () => {
      const [bin, ...args] = command
      const result = spawnSync(bin!, [...args, 'tests/runtimes/automations-smoke.ts'], {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      })
      expect(result.stderr).not.toMatch(/error/i)
      expect(JSON.parse(result.stdout.trim().split('\n').at(-1)!)).toEqual({
        next: '2026-03-29T01:00:00.000Z',
        typos: ['recieve>receive'],
        links: ['/guide/setup>/guides/setup'],
      })
    }, 120_000)
  }
})
