// npm run build (after the widget): builds the console with Vite, writes a brotli and a gzip copy beside each file (the
// server sends those), and prints the first screen's size against its budget. `--if-stale` builds only when
// console/dist is missing or older than the sources (npm start).
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isStale as isAppStale } from '../bin/build-if-stale.mjs'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const root = fileURLToPath(new URL('.', import.meta.url))
const dist = join(root, 'dist')

/** The first screen: index.html, the entry with its static imports and CSS, and the Overview chunk (the default screen). */
export const BUDGET = { firstScreenGzip: 60 * 1024 }

function files(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

/** True when a console source is newer than the last build (or there is none). */
export const isStale = (): boolean => isAppStale(root)

export interface ConsoleSizes {
  firstScreenGzip: number
  totalGzip: number
  files: Array<{ file: string; gzip: number; brotli: number }>
}

/** The files a module loads before it runs: itself, its static imports (transitively) and the CSS Vite links to it. */
function staticClosure(entries: string[]): Set<string> {
  const seen = new Set(entries)
  const pending = [...entries]
  while (pending.length) {
    const file = pending.pop()!
    if (!file.endsWith('.js')) continue
    const code = readFileSync(join(dist, file), 'utf8')
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

export function measure(): ConsoleSizes {
  const sized = files(dist)
    .filter((file) => /\.(js|css|html)$/.test(file))
    .map((file) => ({
      file: relative(dist, file),
      gzip: existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : gzipSync(readFileSync(file), { level: 9 }).length,
      brotli: existsSync(`${file}.br`) ? statSync(`${file}.br`).size : 0,
    }))
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
  const linked = [...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!)
  const overview = sized.find((entry) => /^assets\/overview-[\w-]+\.js$/.test(entry.file))?.file
  const first = new Set(['index.html', ...staticClosure([...linked, ...(overview ? [overview] : [])])])
  // CSS of the screens' chunks (uPlot's) is named after the chunk that imports it.
  for (const entry of sized) if (entry.file.endsWith('.css') && overview && entry.file.startsWith('assets/overview-')) first.add(entry.file)
  const sum = (list: typeof sized) => list.reduce((total, entry) => total + entry.gzip, 0)
  return { firstScreenGzip: sum(sized.filter((entry) => first.has(entry.file))), totalGzip: sum(sized), files: sized }
}

function precompress(dir: string) {
  for (const file of files(dir).filter((name) => /\.(js|css|html|svg)$/.test(name))) {
    const bytes = readFileSync(file)
    writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }))
  }
}

/** Builds into a fresh folder and swaps it in, so a running server never serves half a build. */
export async function buildConsole(): Promise<ConsoleSizes> {
  const { build } = await import('vite')
  const config = await import('./vite.config.ts')
  const outDir = join(root, `dist.building-${process.pid}-${Date.now()}`)
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await build({ ...config.default, configFile: false, build: { ...config.default.build, outDir } })
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

/** Builds when stale, once across processes (parallel test files): the first takes a lock, the others wait. */
export async function buildConsoleIfStale(): Promise<boolean> {
  const lock = join(root, '.build-lock')
  const { openSync, closeSync } = await import('node:fs')
  for (;;) {
    if (!isStale()) return false
    let fd: number | null = null
    try {
      fd = openSync(lock, 'wx')
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 60_000) rmSync(lock, { force: true })
      await new Promise((resolve) => setTimeout(resolve, 200))
      continue
    }
    try {
      if (!isStale()) return false
      await buildConsole()
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
  const sizes = await (ifStale ? buildConsoleIfStale().then(measure) : buildConsole()).catch((error: Error) => {
    if (!ifStale) throw error
    console.warn(`console: not built (${error.message}); /console will answer 404 until \`npm run build\` works`)
    process.exit(0)
  })
  for (const entry of sizes.files)
    console.log(`  ${entry.file.padEnd(44)} ${kb(entry.gzip).padStart(9)} gzip ${kb(entry.brotli).padStart(9)} br`)
  const ok = sizes.firstScreenGzip <= BUDGET.firstScreenGzip
  console.log(`console first screen: ${kb(sizes.firstScreenGzip)} gzip (budget ${kb(BUDGET.firstScreenGzip)}) ${ok ? 'ok' : 'OVER BUDGET'}`)
  console.log(`console total:        ${kb(sizes.totalGzip)} gzip (every screen)`)
  if (!ok) process.exit(1)
}
