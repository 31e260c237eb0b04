import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { BUDGET, buildIfStale, isStale, measure } from './build.ts'

describe('widget build', () => {
  beforeAll(async () => {
    await buildIfStale()
  })

  it('stays within the budgets: launcher 15 KB gzip, first open 100 KB gzip; on the wire (brotli) 11 KB before open, 80 KB after', () => {
    const sizes = measure()
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
    console.log(
      `widget launcher ${kb(sizes.launcherGzip)} gzip, first open ${kb(sizes.firstOpenGzip)} gzip; wire ${kb(
        sizes.wireBeforeOpen,
      )} before open, ${kb(sizes.wireAfterOpen)} after (brotli)`,
    )
    expect(sizes.launcherGzip).toBeLessThanOrEqual(BUDGET.launcherBytes)
    expect(sizes.firstOpenGzip).toBeLessThanOrEqual(BUDGET.firstOpenBytes)
    expect(sizes.wireBeforeOpen).toBeLessThanOrEqual(BUDGET.wireBeforeOpenBytes)
    expect(sizes.wireAfterOpen).toBeLessThanOrEqual(BUDGET.wireAfterOpenBytes)
  })

  it('writes a brotli and a gzip copy beside every script, which decompress to it', () => {
    for (const { file } of measure().files) {
      const original = readFileSync(new URL(`./dist/${file}`, import.meta.url))
      expect(brotliDecompressSync(readFileSync(new URL(`./dist/${file}.br`, import.meta.url))).equals(original), file).toBe(true)
      expect(gunzipSync(readFileSync(new URL(`./dist/${file}.gz`, import.meta.url))).equals(original), file).toBe(true)
    }
  })

  it('finds a fresh build fresh (the check npm start runs)', () => {
    expect(isStale()).toBe(false)
  })

  it('keeps the chat client and markdown out of the launcher (they load with the panel)', () => {
    const entry = readFileSync(new URL('./dist/docent.mjs', import.meta.url), 'utf8')
    expect(entry).toMatch(/import\(["'`]\.\/chunks\/panel-[\w-]+\.mjs["'`]\)/)
    const launcher = measure().files.filter((file) => !/panel-|\/(fr|es|de|ja|zh)-/.test(file.file))
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
