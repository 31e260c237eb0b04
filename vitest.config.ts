import { defineConfig } from 'vitest/config'

// `*.deno.test.ts` suites run the stores under Deno: npm test runs them with vitest under Deno, and Node skips them.
const onDeno = 'Deno' in globalThis

export default defineConfig({
  test: {
    include: onDeno ? ['**/*.deno.test.ts'] : ['server/**/*.test.ts', 'shared/**/*.test.ts', 'widget/**/*.test.ts', 'console/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'tests/fixtures/**', ...(onDeno ? [] : ['**/*.deno.test.ts'])],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores here: more workers only thrash.
    maxWorkers: 2,
  },
})
