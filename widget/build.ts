// npm run build: builds the widget with Vite, writes a brotli and a gzip copy beside each script (the server sends
// those, so nothing is compressed per request), and prints the sizes against the budgets.
// `--if-stale` builds only when widget/dist is missing or older than the sources (npm start checks with bin/build-if-stale.mjs).
import { closeSync, existsSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { isStale as isAppStale } from '../bin/build-if-stale.mjs'

/** True when a widget source is newer than the last build (or there is none). */
export const isStale = (): boolean => isAppStale(root)

const root = fileURLToPath(new URL('.', import.meta.url))
const dist = join(root, 'dist')

/**
 * Gzip budgets (launcher; launcher plus what the first open loads) and the bytes on the wire with brotli, as the
 * server sends them: before the reader opens the widget, and after.
 */
export const BUDGET = {
  launcherBytes: 15 * 1024,
  firstOpenBytes: 100 * 1024,
  wireBeforeOpenBytes: 11 * 1024,
  wireAfterOpenBytes: 80 * 1024,
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

export interface WidgetSizes {
  /** docent.js, docent.mjs and what docent.mjs imports statically: what every page loads. */
  launcherGzip: number
  /** The launcher plus the panel chunk and its static imports: what the first open loads (in English). */
  firstOpenGzip: number
  /** The same with the brotli files the server sends to browsers. */
  wireBeforeOpen: number
  wireAfterOpen: number
  files: Array<{ file: string; bytes: number; gzip: number; brotli: number }>
}

/** The scripts `entries` load before anything else: themselves and their static imports, transitively. */
function staticClosure(entries: string[]): Set<string> {
  const seen = new Set(entries)
  const pending = [...entries]
  while (pending.length) {
    const file = pending.pop()!
    const code = readFileSync(join(dist, file), 'utf8')
    // Static imports only (`import{…}from"./x.mjs"`, `import"./x.mjs"`): dynamic `import(` loads later.
    for (const match of code.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.\.?\/[^"']+)["']/g)) {
      const target = relative(dist, join(dist, file, '..', match[1]!))
      if (!seen.has(target)) {
        seen.add(target)
        pending.push(target)
      }
    }
  }
  return seen
}

/** Sizes of the built scripts, read from the compressed copies the build wrote beside them. */
export function measure(): WidgetSizes {
  const scripts = files(dist).filter((file) => /\.m?js$/.test(file))
  const size = (file: string) => (existsSync(file) ? statSync(file).size : 0)
  const sized = scripts.map((file) => ({
    file: relative(dist, file),
    bytes: size(file),
    gzip: size(`${file}.gz`) || gzipSync(readFileSync(file), { level: 9 }).length,
    brotli: size(`${file}.br`),
  }))
  const panel = sized.find((entry) => /^chunks\/panel-[\w-]+\.mjs$/.test(entry.file))?.file
  const launcher = new Set(['docent.js', ...staticClosure(['docent.mjs'])])
  const firstOpen = new Set([...launcher, ...(panel ? staticClosure([panel]) : [])])
  const sum = (set: Set<string>, key: 'gzip' | 'brotli') =>
    sized.filter((entry) => set.has(entry.file)).reduce((total, entry) => total + entry[key], 0)
  return {
    launcherGzip: sum(launcher, 'gzip'),
    firstOpenGzip: sum(firstOpen, 'gzip'),
    wireBeforeOpen: sum(launcher, 'brotli'),
    wireAfterOpen: sum(firstOpen, 'brotli'),
    files: sized,
  }
}

/** `x.mjs.br` and `x.mjs.gz` beside each script, at the strongest settings (built once, sent many times). */
function precompress(dir: string) {
  for (const file of files(dir).filter((name) => /\.m?js$/.test(name))) {
    const bytes = readFileSync(file)
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
      }),
    )
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }))
  }
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
    await build({
      ...config.default,
      configFile: false,
      build: { ...config.default.build, outDir },
    })
    await build({
      ...config.loaderConfig,
      build: { ...config.loaderConfig.build, outDir },
    })
    precompress(outDir)
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
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 60_000) {
        rmSync(lock, { force: true })
      }
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
  for (const entry of sizes.files) {
    console.log(
      `  ${entry.file.padEnd(34)} ${kb(entry.bytes).padStart(9)} ${kb(entry.gzip).padStart(9)} gzip ${kb(entry.brotli).padStart(9)} br`,
    )
  }
  const checks: Array<[string, number, number, string]> = [
    ['launcher', sizes.launcherGzip, BUDGET.launcherBytes, 'gzip'],
    ['launcher + first open', sizes.firstOpenGzip, BUDGET.firstOpenBytes, 'gzip'],
    ['on the wire before open', sizes.wireBeforeOpen, BUDGET.wireBeforeOpenBytes, 'brotli'],
    ['on the wire after open', sizes.wireAfterOpen, BUDGET.wireAfterOpenBytes, 'brotli'],
  ]
  for (const [name, bytes, budget, unit] of checks) {
    console.log(
      `widget ${`${name}:`.padEnd(25)} ${kb(bytes).padStart(8)} ${unit} (budget ${kb(budget)}) ${bytes <= budget ? 'ok' : 'OVER BUDGET'}`,
    )
  }
  if (checks.some(([, bytes, budget]) => bytes > budget)) process.exit(1)
}
