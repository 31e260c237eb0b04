// npm run build: builds the widget with Vite and prints its gzip sizes against the budgets.
// `--if-stale` (used by npm start) builds only when widget/dist is missing or older than the sources.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const root = fileURLToPath(new URL('.', import.meta.url))
const dist = join(root, 'dist')
const stamp = join(dist, '.built')

export const BUDGET = { launcherBytes: 15 * 1024, totalBytes: 100 * 1024 }

function files(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

/** True when a source is newer than the last build (or there is none). */
export function isStale(): boolean {
  if (!existsSync(stamp)) return true
  const built = statSync(stamp).mtimeMs
  const sources = [...files(join(root, 'src')), join(root, 'vite.config.ts'), join(root, 'build.ts')]
  return sources.some((file) => statSync(file).mtimeMs > built)
}

export interface WidgetSizes {
  launcherGzip: number
  totalGzip: number
  files: Array<{ file: string; gzip: number }>
}

/** Gzip sizes: the launcher is docent.js, docent.mjs and what docent.mjs imports statically; the total is every script. */
export function measure(): WidgetSizes {
  const scripts = files(dist).filter((file) => /\.m?js$/.test(file))
  const gzip = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length
  const sized = scripts.map((file) => ({ file: relative(dist, file), gzip: gzip(file) }))
  const launcher = new Set(['docent.js', 'docent.mjs'])
  const pending = ['docent.mjs']
  while (pending.length) {
    const file = pending.pop()!
    const code = readFileSync(join(dist, file), 'utf8')
    // Static imports only (`import{…}from"./x.mjs"`, `import"./x.mjs"`): dynamic `import(` loads later.
    for (const match of code.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.\/[^"']+)["']/g)) {
      const target = relative(dist, join(dist, file, '..', match[1]!))
      if (!launcher.has(target)) {
        launcher.add(target)
        pending.push(target)
      }
    }
  }
  const sum = (list: typeof sized) => list.reduce((total, entry) => total + entry.gzip, 0)
  return { launcherGzip: sum(sized.filter((entry) => launcher.has(entry.file))), totalGzip: sum(sized), files: sized }
}

/**
 * Builds into a fresh folder and swaps it in, so a server (or a parallel test file) reading widget/dist never sees a
 * half-written build.
 */
export async function buildWidget(): Promise<WidgetSizes> {
  const { build } = await import('vite')
  const config = await import('./vite.config.ts')
  const outDir = join(root, `dist.building-${process.pid}-${Date.now()}`)
  // Vite picks packages' production builds only when NODE_ENV is `production`; under vitest it is `test`, which
  // gave Lit's development build (+3.8 KB gzip in the launcher, dev-mode warnings in the browser).
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await build({ ...config.default, configFile: false, build: { ...config.default.build, outDir } })
    await build({ ...config.loaderConfig, build: { ...config.loaderConfig.build, outDir } })
    writeFileSync(join(outDir, '.built'), new Date().toISOString())
    const old = join(root, `dist.old-${process.pid}-${Date.now()}`)
    if (existsSync(dist)) renameSync(dist, old)
    renameSync(outDir, dist)
    rmSync(old, { recursive: true, force: true })
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
    rmSync(outDir, { recursive: true, force: true })
  }
  return measure()
}

/**
 * Builds when stale, once across processes (parallel test files, a server starting beside them): the first takes a
 * lock file, the others wait for it and then find the build fresh.
 */
export async function buildIfStale(): Promise<boolean> {
  const lock = join(root, '.build-lock')
  for (;;) {
    if (!isStale()) return false
    let fd: number | null = null
    try {
      fd = openSync(lock, 'wx')
    } catch {
      // Someone else is building; a lock left by a crashed build is taken over after a minute.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 60_000) rmSync(lock, { force: true })
      await new Promise((resolve) => setTimeout(resolve, 200))
      continue
    }
    try {
      if (!isStale()) return false
      await buildWidget()
      return true
    } finally {
      closeSync(fd)
      rmSync(lock, { force: true })
    }
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ifStale = process.argv.includes('--if-stale')
  if (ifStale && !isStale()) process.exit(0)
  const build = ifStale ? () => buildIfStale().then(measure) : buildWidget
  const sizes = await build().catch((error: Error) => {
    // npm start on an install without dev dependencies (no Vite): serve without the widget rather than not at all.
    if (!ifStale) throw error
    console.warn(`widget: not built (${error.message}); /widget/docent.js will answer 404 until \`npm run build\` works`)
    process.exit(0)
  })
  for (const entry of sizes.files) console.log(`  ${entry.file.padEnd(40)} ${kb(entry.gzip).padStart(9)} gzip`)
  const launcherOk = sizes.launcherGzip <= BUDGET.launcherBytes
  const totalOk = sizes.totalGzip <= BUDGET.totalBytes
  console.log(`widget launcher: ${kb(sizes.launcherGzip)} gzip (budget ${kb(BUDGET.launcherBytes)}) ${launcherOk ? 'ok' : 'OVER BUDGET'}`)
  console.log(`widget total:    ${kb(sizes.totalGzip)} gzip (budget ${kb(BUDGET.totalBytes)}) ${totalOk ? 'ok' : 'OVER BUDGET'}`)
  if (!launcherOk || !totalOk) process.exit(1)
}
