import type { LocalRepository } from '../../git/local-workspace.ts'

/** The embedded host's bare repositories (`local:<name>`), created on first use. */
export interface LocalRepositories {
  open(name: string): Promise<LocalRepository>
}

export interface LocalRepositoriesOptions {
  dataDir: string
  /** The folder a new `local:<name>` repository is made from (the project's docs directory). */
  seedDirectory: (name: string) => string | undefined
  /** Branch of the first commit. */
  branch: (name: string) => string
  now: () => Date
}

/** Repository names are folder names under the data dir: nothing that could climb out of it. */
export function checkLocalName(name: string): string {
  if (name.length > 100 || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || name.includes('..')) {
    throw new Error(`invalid local repository name "${name}": use letters, digits, ., _ or -`)
  }
  return name
}

/** Loads the disk implementation only when a local repository is used, so the portable core has no `node:` imports. */
export function lazyLocalRepositories(options: LocalRepositoriesOptions): LocalRepositories {
  let loaded: Promise<LocalRepositories> | null = null
  return {
    async open(name) {
      loaded ??= import('./local-disk.ts').then(({ createDiskRepositories }) => createDiskRepositories(options))
      return (await loaded).open(checkLocalName(name))
    },
  }
}
