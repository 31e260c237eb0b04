// npm run build (after the widget): builds the console with Vite, writes a brotli and a gzip copy beside each file (the
// server sends those), and prints the first screen's size against its budget. `--if-stale` builds only when
// console/dist is missing or older than the sources (npm start).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type AppBuild, buildApp, buildAppIfStale, files, kb, sizeOf, staticClosure } from '../bin/app-build.ts'
import { isStale as isAppStale } from '../bin/build-if-stale.mjs'

const root = fileURLToPath(new URL('.', import.meta.url))
const dist = join(root, 'dist')

/** The first screen: index.html, the entry with its static imports and CSS, and the Overview chunk (the default screen). */
export const BUDGET = { firstScreenGzip: 60 * 1024 }

/** True when a console source is newer than the last build (or there is none). */
export const isStale = (): boolean => isAppStale(root)

export interface ConsoleSizes {
  firstScreenGzip: number
  totalGzip: number
  files: Array<{ file: string; gzip: number; brotli: number }>
}

export function measure(): ConsoleSizes {
  const sized = files(dist)
    .filter((file) => /\.(js|css|html)$/.test(file))
    .map((file) => sizeOf(dist, file))
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
  const linked = [...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!)
  const overview = sized.find((entry) => /^assets\/overview-[\w-]+\.js$/.test(entry.file))?.file
  const first = new Set(['index.html', ...staticClosure(dist, [...linked, ...(overview ? [overview] : [])])])
  // CSS of the screens' chunks (uPlot's) is named after the chunk that imports it.
  for (const entry of sized) if (entry.file.endsWith('.css') && overview && entry.file.startsWith('assets/overview-')) first.add(entry.file)
  const sum = (list: typeof sized) => list.reduce((total, entry) => total + entry.gzip, 0)
  return { firstScreenGzip: sum(sized.filter((entry) => first.has(entry.file))), totalGzip: sum(sized), files: sized }
}

const app: AppBuild = {
  root,
  compress: /\.(js|css|html|svg)$/,
  async vite(outDir) {
    const { build } = await import('vite')
    const config = await import('./vite.config.ts')
    await build({ ...config.default, configFile: false, build: { ...config.default.build, outDir } })
  },
}

/** Builds the console now (into a fresh folder swapped in whole) and measures it. */
export async function buildConsole(): Promise<ConsoleSizes> {
  await buildApp(app)
  return measure()
}

/** Builds when stale, once across processes. */
export const buildConsoleIfStale = (): Promise<boolean> => buildAppIfStale(app)

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
