import * as fs from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import process from 'node:process'
import { git } from '../../git/isomorphic.ts'
import type { LocalRepository } from '../../git/local-workspace.ts'
import { gitFs } from '../../git/git-fs.ts'
import { checkLocalName, type LocalRepositories, type LocalRepositoriesOptions } from './local-repositories.ts'

// Disk access for the embedded git host; imported lazily by local-repositories.ts.

/** Bare repositories under `<dataDir>/git/<name>.git`, each made from its seed directory as one commit on first use. */
export function createDiskRepositories(options: LocalRepositoriesOptions): LocalRepositories {
  const opened = new Map<string, Promise<LocalRepository>>()
  let swept: Promise<void> | null = null
  return {
    open(name) {
      checkLocalName(name)
      let repo = opened.get(name)
      if (!repo) {
        swept ??= removeAbandonedBuilds(join(options.dataDir, 'git'))
        repo = swept.then(() => ensureRepository(name, options))
        opened.set(name, repo)
        repo.catch(() => opened.delete(name))
      }
      return repo
    },
  }
}

async function ensureRepository(name: string, options: LocalRepositoriesOptions): Promise<LocalRepository> {
  const gitdir = join(options.dataDir, 'git', `${name}.git`)
  const repo = { fs: atomicFs, gitdir }
  if (await exists(join(gitdir, 'HEAD'))) return repo
  const source = options.seedDirectory(name)
  if (!source || !(await exists(source))) {
    throw new Error(`local:${name}: no repository yet and no docs directory to make it from${source ? ` (${source} not found)` : ''}`)
  }
  // Built in a temporary folder and renamed, so a crash halfway never leaves a half-made repository behind; the
  // folder is named for this process, so the next start can tell an abandoned build from one in progress.
  const temp = `${gitdir}${TEMP_MARK}pid${process.pid}-${crypto.randomUUID()}`
  await fs.promises.mkdir(temp, { recursive: true })
  const branch = options.branch(name)
  await git.init({ fs, gitdir: temp, bare: true, defaultBranch: branch })
  const tree = (await writeDirectory(temp, source)) ?? (await git.writeTree({ fs, gitdir: temp, tree: [] }))
  const when = Math.floor(options.now().getTime() / 1000)
  const person = { name: 'Docent', email: 'docent@localhost', timestamp: when, timezoneOffset: 0 }
  const commit = await git.writeCommit({
    fs,
    gitdir: temp,
    commit: { message: `Docs from ${source}\n`, tree, parent: [], author: person, committer: person },
  })
  await git.writeRef({ fs, gitdir: temp, ref: `refs/heads/${branch}`, value: commit, force: true })
  try {
    await fs.promises.rename(temp, gitdir)
  } catch (error) {
    // Another process made it first.
    await fs.promises.rm(temp, { recursive: true, force: true })
    if (!(await exists(join(gitdir, 'HEAD')))) throw error
  }
  return repo
}

const TEMP_MARK = '.tmp-'
/** Builds from an older version (no process id in the name) are left alone this long before they count as abandoned. */
const UNOWNED_GRACE_MS = 10 * 60_000

/**
 * Removes `<name>.git.tmp-pid<pid>-<uuid>` folders whose process is gone: a server killed (kill -9, power loss) while it
 * made a repository leaves one, and nothing else would ever delete it.
 */
async function removeAbandonedBuilds(dir: string): Promise<void> {
  const entries = await readdir(dir).catch(() => [] as string[])
  await Promise.all(
    entries.map(async (entry) => {
      const mark = entry.indexOf(`.git${TEMP_MARK}`)
      if (mark < 0) return
      const path = join(dir, entry)
      const owner = entry.slice(mark + 4 + TEMP_MARK.length).split('-')[0]!
      const pid = owner.startsWith('pid') ? Number(owner.slice(3)) : Number.NaN
      const abandoned =
        Number.isInteger(pid) && pid > 0
          ? pid !== process.pid && !alive(pid)
          : Date.now() -
              (await stat(path).then(
                (info) => info.mtimeMs,
                () => Date.now(),
              )) >
            UNOWNED_GRACE_MS
      if (abandoned) await fs.promises.rm(path, { recursive: true, force: true })
    }),
  )
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // Only "no such process" says it is gone (EPERM: someone else's; anything else: the runtime would not say).
    return (error as { code?: string }).code !== 'ESRCH'
  }
}

/** Writes the folder as a tree; null when it holds no files (git keeps no empty folders). */
async function writeDirectory(gitdir: string, dir: string): Promise<string | null> {
  const entries: Array<{ mode: string; path: string; oid: string; type: 'blob' | 'tree' }> = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === '.git' || entry.name === 'node_modules' || entry.name === '.DS_Store') continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      const oid = await writeDirectory(gitdir, path)
      if (oid) entries.push({ mode: '040000', path: entry.name, oid, type: 'tree' })
    } else if (entry.isFile()) {
      entries.push({ mode: '100644', path: entry.name, oid: await git.writeBlob({ fs, gitdir, blob: await readFile(path) }), type: 'blob' })
    }
  }
  return entries.length === 0 ? null : git.writeTree({ fs, gitdir, tree: entries })
}

/**
 * node:fs for isomorphic-git, except that files are written to a temporary name and renamed into place: a server
 * killed mid-write must not leave a truncated object behind (isomorphic-git never rewrites an object that exists).
 */
const atomicFs = gitFs({
  ...fs.promises,
  async writeFile(path: string, data: Uint8Array | string, options?: fs.WriteFileOptions) {
    const temp = `${path}.tmp-${crypto.randomUUID()}`
    try {
      await fs.promises.writeFile(temp, data, options)
      await fs.promises.rename(temp, path)
    } catch (error) {
      await fs.promises.rm(temp, { force: true })
      throw error
    }
  },
})

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}
