import { readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { expect, test } from 'vitest'

// The core's rule (DESIGN.md): `createDocent` runs on Web standards alone, so Deno Deploy can load it. A `node:` module
// is allowed only in runtime entries (server/serve/, the CLI) and in adapters the core loads with import() when a
// feature needs a filesystem (local git repositories, docs directories, parse workers, the PGlite driver), each with a
// Web-only path beside it. This walks the static imports from server/mod.ts and fails on any `node:` one it reaches.

/** Static value imports and re-exports of a module (type-only ones are erased and never load). */
function staticImports(file: string): string[] {
  const source = readFileSync(file, 'utf8')
  const specifiers: string[] = []
  for (const match of source.matchAll(/^(?:import|export)\s+(?!type\b)[^'"]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
    specifiers.push((match[1] ?? match[2])!)
  }
  return specifiers
}

function staticGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  const pending = [normalize(entry)]
  while (pending.length > 0) {
    const file = pending.pop()!
    if (graph.has(file)) continue
    const specifiers = staticImports(file)
    graph.set(file, specifiers)
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) pending.push(normalize(join(dirname(file), specifier)))
    }
  }
  return graph
}

test('createDocent statically imports no node: module (entries and lazily loaded adapters aside)', () => {
  const graph = staticGraph('server/mod.ts')
  const offenders = [...graph].flatMap(([file, specifiers]) =>
    specifiers.filter((specifier) => specifier.startsWith('node:')).map((specifier) => `${file} imports ${specifier}`),
  )
  expect(offenders).toEqual([])
  // The walk really covers the core: the app, the assistant, the agent, search and the stores' shared code.
  for (const file of [
    'server/app.ts',
    'server/assistant/pipeline.ts',
    'server/agent/worker.ts',
    'server/search/service.ts',
    'server/store/open.ts',
  ]) {
    expect(graph.has(file), file).toBe(true)
  }
  // And the adapters that do import node: stay outside it (reached through import() only).
  for (const adapter of ['server/agent/hosts/local-disk.ts', 'server/search/sources/directory.ts', 'server/store/sql/pglite.ts']) {
    expect(graph.has(adapter), adapter).toBe(false)
  }
})
