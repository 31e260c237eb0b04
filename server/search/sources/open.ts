import type { Env, ProjectConfig } from '../../config.ts'
import type { GitTreeLocation } from './git-tree.ts'
import type { DocsSource } from './types.ts'

export interface SourceDeps {
  fetch: typeof fetch
  env: Env
  /** Opens a `local:<name>` repository of the embedded git host; absent where there is none. */
  openLocalRepository?: (name: string) => Promise<GitTreeLocation>
}

/** Opens a project's docs source. Each kind is imported only when configured, so the filesystem module stays optional. */
export async function openDocsSource(docs: ProjectConfig['docs'], deps: SourceDeps): Promise<DocsSource> {
  if ('directory' in docs) {
    const { directorySource } = await import('./directory.ts')
    return directorySource(docs.directory)
  }
  if (docs.repository.startsWith('local:')) {
    const open = deps.openLocalRepository
    if (!open) throw new Error(`docs ${docs.repository}: local repositories need the embedded git host (a data directory)`)
    const name = docs.repository.slice('local:'.length)
    const { localRepositorySource } = await import('./local-repository.ts')
    return localRepositorySource({ open: () => open(name), ref: docs.ref, root: docs.root })
  }
  const token = docs.token ? deps.env[docs.token.env] : undefined
  if (docs.token && !token) throw new Error(`docs token: environment variable ${docs.token.env} is not set`)
  const { gitSource } = await import('./git.ts')
  return gitSource({ url: docs.repository, ref: docs.ref, root: docs.root, token, fetch: deps.fetch })
}
