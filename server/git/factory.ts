import type { OpenWorkspaceOptions, Workspace, WorkspaceFactory } from './types.ts'
import { openHttpWorkspace } from './clone.ts'
import { memoryFs } from './memory-fs.ts'
import type { GitFs } from './object-workspace.ts'

export interface WorkspaceFactoryOptions {
  fetch: typeof fetch
  now?: () => Date
  /** A fresh in-memory fs per workspace; memfs by default. */
  fs?: () => GitFs
  /** Opens `local:<name>` repositories (the embedded host); absent when no project uses one. */
  openLocal?: (name: string, options: OpenWorkspaceOptions) => Promise<Workspace>
  /** HTTP user name sent with tokens. */
  username?: string
}

/** Workspaces over HTTP(S) remotes (in memory) and, when given, the embedded `local:` repositories. */
export function createWorkspaceFactory(options: WorkspaceFactoryOptions): WorkspaceFactory {
  const now = options.now ?? (() => new Date())
  return {
    async open(open: OpenWorkspaceOptions): Promise<Workspace> {
      if (open.repository.startsWith('local:')) {
        if (!options.openLocal) throw new Error(`no local git host for ${open.repository}`)
        return options.openLocal(open.repository.slice('local:'.length), open)
      }
      if (!/^https?:\/\//i.test(open.repository)) {
        throw new Error('agent repository must be an http(s) URL or local:<name>')
      }
      return openHttpWorkspace(open, { fs: options.fs ?? memoryFs, fetch: options.fetch, now, username: options.username })
    },
  }
}
