// `npm start` runs this before the server: it builds the widget only when widget/dist is missing or older than the
// widget's sources. Plain JavaScript, so the usual case (nothing to do) costs one bare Node start, not a TypeScript
// loader and Vite's import graph (0.6 s before, measured with farm-bench).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('.', import.meta.url))

/** @param {string} dir @returns {string[]} */
function files(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

/** True when a source of the widget is newer than the last build (or there is none). */
export function isStale() {
  const stamp = join(root, 'dist', '.built')
  if (!existsSync(stamp)) return true
  const built = statSync(stamp).mtimeMs
  const sources = [...files(join(root, 'src')), join(root, 'vite.config.ts'), join(root, 'build.ts'), join(root, 'stale.mjs')]
  return sources.some((file) => statSync(file).mtimeMs > built)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && isStale()) {
  const build = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'build.ts'), '--if-stale'], { stdio: 'inherit' })
  process.exit(build.status ?? 1)
}
