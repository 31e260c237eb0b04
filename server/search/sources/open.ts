import type { Env, ProjectConfig } from '../../config.ts'
import type { DocsSource } from './types.ts'

export interface SourceDeps {
  fetch: typeof fetch
  env: Env
}

/** Opens a project's docs source. Each kind is imported only when configured, so the filesystem module stays optional. */
export async function openDocsSource(docs: ProjectConfig['docs'], deps: SourceDeps): Promise<DocsSource> {
  if ('directory' in docs) {
    const { directorySource } = await import('./directory.ts')
    return directorySource(docs.directory)
  }
  const token = docs.token ? deps.env[docs.token.env] : undefined
  if (docs.token && !token) throw new Error(`docs token: environment variable ${docs.token.env} is not set`)
  const { gitSource } = await import('./git.ts')
  return gitSource({ url: docs.repository, ref: docs.ref, root: docs.root, token, fetch: deps.fetch })
}
