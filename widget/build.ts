// npm run build: builds the widget with Vite, writes a brotli and a gzip copy beside each script (the server sends
// those, so nothing is compressed per request), and prints the sizes against the budgets.
// `--if-stale` builds only when widget/dist is missing or older than the sources (npm start checks with bin/build-if-stale.mjs).
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type AppBuild, buildApp, buildAppIfStale, files, kb, sizeOf, staticClosure } from '../bin/app-build.ts'
import { isStale as isAppStale } from '../bin/build-if-stale.mjs'

const root = fileURLToPath(new URL('.', import.meta.url))
const dist = join(root, 'dist')

/** True when a widget source is newer than the last build (or there is none). */
export const isStale = (): boolean => isAppStale(root)

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

/** Sizes of the built scripts, read from the compressed copies the build wrote beside them. */
export function measure(): WidgetSizes {
  const sized = files(dist)
    .filter((file) => /\.m?js$/.test(file))
    .map((file) => sizeOf(dist, file))
  const panel = sized.find((entry) => /^chunks\/panel-[\w-]+\.mjs$/.test(entry.file))?.file
  const launcher = new Set(['docent.js', ...staticClosure(dist, ['docent.mjs'])])
  const firstOpen = new Set([...launcher, ...(panel ? staticClosure(dist, [panel]) : [])])
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

const widget: AppBuild = {
  root,
  compress: /\.m?js$/,
  async vite(outDir) {
    const { build } = await import('vite')
    const config = await import('./vite.config.ts')
    await build({ ...config.default, configFile: false, build: { ...config.default.build, outDir } })
    await build({ ...config.loaderConfig, build: { ...config.loaderConfig.build, outDir } })
  },
}

/** Builds the widget now (into a fresh folder swapped in whole) and measures it. */
export async function buildWidget(): Promise<WidgetSizes> {
  await buildApp(widget)
  return measure()
}

/** Builds when stale, once across processes. */
export const buildIfStale = (): Promise<boolean> => buildAppIfStale(widget)

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
