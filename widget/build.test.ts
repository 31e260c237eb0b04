import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { BUDGET, buildIfStale, measure } from './build.ts'

describe('widget build', () => {
  beforeAll(async () => {
    await buildIfStale()
  })

  it('stays within the gzip budgets: launcher 15 KB, everything 100 KB', () => {
    const sizes = measure()
    console.log(`widget launcher ${(sizes.launcherGzip / 1024).toFixed(1)} KB gzip, total ${(sizes.totalGzip / 1024).toFixed(1)} KB gzip`)
    expect(sizes.launcherGzip).toBeLessThanOrEqual(BUDGET.launcherBytes)
    expect(sizes.totalGzip).toBeLessThanOrEqual(BUDGET.totalBytes)
  })

  it('keeps the chat client and markdown out of the launcher (they load with the panel)', () => {
    const entry = readFileSync(new URL('./dist/docent.mjs', import.meta.url), 'utf8')
    expect(entry).toMatch(/import\(["'`]\.\/chunks\/panel-[\w-]+\.mjs["'`]\)/)
    const launcher = measure().files.filter((file) => !file.file.includes('panel-'))
    for (const file of launcher) {
      const code = readFileSync(new URL(`./dist/${file.file}`, import.meta.url), 'utf8')
      expect(code, file.file).not.toContain('DefaultChatTransport')
      expect(code, file.file).not.toContain('Failed to fetch the chat response')
    }
  })

  it('ships the production builds of its libraries, whatever NODE_ENV the build ran under', () => {
    for (const file of measure().files) {
      expect(readFileSync(new URL(`./dist/${file.file}`, import.meta.url), 'utf8'), file.file).not.toContain('Lit is in dev mode')
    }
  })

  it('makes docent.js a classic script (no import/export statements) that loads docent.mjs beside it', () => {
    const loader = readFileSync(new URL('./dist/docent.js', import.meta.url), 'utf8')
    expect(loader).not.toMatch(/^\s*(import|export)\s/m)
    expect(loader).toContain('docent.mjs')
  })
})
