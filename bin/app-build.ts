// What building a front-end app (the widget, the console) shares: a Vite build into a fresh folder swapped in whole,
// a brotli and a gzip copy beside each file (the server sends those, so nothing is compressed per request), one build
// at a time across processes, and the static import closure that budgets are measured on.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { isStale } from './build-if-stale.mjs'

export function files(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

/** The files `entries` (paths relative to `dist`) load before anything else: themselves and their static imports. */
export function staticClosure(dist: string, entries: string[]): Set<string> {
  const seen = new Set(entries)
  const pending = [...entries]
  while (pending.length) {
    const file = pending.pop()!
    if (!/\.m?js$/.test(file)) continue
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

/** A file's size, and its precompressed copies' (gzip computed when the build wrote none). */
export function sizeOf(dist: string, file: string): { file: string; bytes: number; gzip: number; brotli: number } {
  const size = (path: string) => (existsSync(path) ? statSync(path).size : 0)
  return {
    file: relative(dist, file),
    bytes: size(file),
    gzip: size(`${file}.gz`) || gzipSync(readFileSync(file), { level: 9 }).length,
    brotli: size(`${file}.br`),
  }
}

/** `x.br` and `x.gz` beside each file `pattern` matches, at the strongest settings (built once, sent many times). */
function precompress(dir: string, pattern: RegExp) {
  for (const file of files(dir).filter((name) => pattern.test(name))) {
    const bytes = readFileSync(file)
    writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }))
  }
}

export interface AppBuild {
  /** The app's folder; the build lands in `dist/` inside it. */
  root: string
  /** Which built files get compressed copies. */
  compress: RegExp
  /** Runs Vite (once or more) into `outDir`. */
  vite(outDir: string): Promise<void>
}

/**
 * Builds into a fresh folder and swaps it in, so a server (or a parallel test file) reading `dist` never sees a
 * half-written build.
 */
export async function buildApp({ root, compress, vite }: AppBuild): Promise<void> {
  const dist = join(root, 'dist')
  const outDir = join(root, `dist.building-${process.pid}-${Date.now()}`)
  // Vite picks packages' production builds only when NODE_ENV is `production`; under vitest it is `test`, which
  // gave Lit's development build (+3.8 KB gzip in the widget's launcher, dev-mode warnings in the browser).
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await vite(outDir)
    precompress(outDir, compress)
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
}

/**
 * Builds when stale, once across processes (parallel test files, a server starting beside them): the first takes a
 * lock file, the others wait for it and then find the build fresh. True when this call built.
 */
export async function buildAppIfStale(app: AppBuild): Promise<boolean> {
  const lock = join(app.root, '.build-lock')
  for (;;) {
    if (!isStale(app.root)) return false
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
      if (!isStale(app.root)) return false
      await buildApp(app)
      return true
    } finally {
      closeSync(fd)
      rmSync(lock, { force: true })
    }
  }
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
