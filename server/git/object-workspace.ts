import { git } from './isomorphic.ts'
import type { FileChange, MergeOptions, MergeResult, Workspace } from './types.ts'
import { checkBranchName } from './branch.ts'
import { newPathProblem, repositoryPath, writablePath } from './paths.ts'
import { NotTextError, WorkspacePathError } from './errors.ts'
import { pacer } from '../event-loop.ts'

// isomorphic-git's FsClient type, without importing its internals.
export type GitFs = Parameters<typeof git.readBlob>[0]['fs']

interface BaseEntry {
  oid: string
  mode: string
}

interface PendingChange {
  /** New text, or null for a delete. */
  content: string | null
  kind: FileChange['kind']
  bytes: number
}

export interface ObjectWorkspaceOptions {
  fs: GitFs
  gitdir: string
  /** The commit the workspace starts from. */
  head: string
  /** Local ref that follows the workspace's commits (what an HTTP push sends); none for a shared bare repository. */
  localRef?: string
  /** Appended to every commit message as a trailer (`Docent-Job: <id>`). */
  jobId?: string
  now: () => Date
  /** Sends the workspace's head commit to `branch` on the remote. */
  push: (branch: string, head: string, signal?: AbortSignal) => Promise<void>
  /** Makes the remote branch's head (and enough of its history for a merge base) available here; null when there is none. */
  fetchBranch?: (branch: string, signal?: AbortSignal) => Promise<string | null>
}

const encoder = new TextEncoder()
// Fatal: bytes that are not UTF-8 are refused (NotTextError), never read as U+FFFD and written back. ignoreBOM keeps a
// byte order mark in the text, so a file written back keeps it too.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The bytes as text, or null when they are not UTF-8. */
function textOf(bytes: Uint8Array): string | null {
  try {
    return decoder.decode(bytes)
  } catch {
    return null
  }
}

/**
 * A workspace that never checks the tree out: files are read lazily from the object store, edits are kept in memory,
 * and a commit writes only the changed blobs and the trees above them. Works on any isomorphic-git object store,
 * an in-memory clone or a bare repository on disk.
 */
export class ObjectWorkspace implements Workspace {
  private head: string
  private tree: Map<string, BaseEntry> | null = null
  private directories: Set<string> | null = null
  /** The base tree's symbolic links, which the agent neither follows nor replaces. */
  private links: Set<string> | null = null
  private pending = new Map<string, PendingChange>()
  private readonly cache = {}

  constructor(private readonly options: ObjectWorkspaceOptions) {
    this.head = options.head
  }

  get baseCommit(): string {
    return this.head
  }

  async listFiles(): Promise<string[]> {
    const tree = await this.baseTree()
    const files = new Set(tree.keys())
    for (const [path, change] of this.pending) {
      if (change.content === null) files.delete(path)
      else files.add(path)
    }
    return [...files].sort()
  }

  async readFile(raw: string): Promise<string | null> {
    const path = repositoryPath(raw)
    const change = this.pending.get(path)
    if (change) return change.content
    await this.refuseLinks(path)
    const bytes = await this.readBase(path)
    if (bytes === null) return null
    const text = textOf(bytes)
    if (text === null) throw new NotTextError(path, bytes.byteLength)
    return text
  }

  async writeFile(raw: string, content: string): Promise<void> {
    const path = writablePath(raw)
    if (typeof content !== 'string') throw new TypeError('content must be a string')
    // Not text UTF-8 can hold: it would be written as U+FFFD.
    if (/\p{Cs}/u.test(content)) throw new Error('the content holds a lone UTF-16 surrogate, which UTF-8 cannot encode')
    const tree = await this.baseTree()
    if (this.hasFilesUnder(path)) throw new Error(`"${path}" is a directory`)
    const parents = path
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/'))
    for (const parent of parents) {
      const isFile = this.pending.has(parent) ? this.pending.get(parent)!.content !== null : tree.has(parent)
      if (isFile) throw new Error(`"${parent}" is a file, so "${path}" cannot be created under it`)
    }
    // Writing at a link, or under a link to a folder, would replace the link with a file or a folder of its own: a
    // change to the repository no event would name (the commit said "2 files" and deleted the link besides).
    await this.refuseLinks(path)
    const before = await this.readBase(path)
    if (before === null && !this.pending.has(path)) {
      const problem = newPathProblem(path, await this.listFiles())
      if (problem) throw new WorkspacePathError(path, problem)
    }
    if (before !== null && textOf(before) === content) {
      this.pending.delete(path)
      return
    }
    this.pending.set(path, { content, kind: before === null ? 'added' : 'modified', bytes: encoder.encode(content).byteLength })
  }

  async deleteFile(raw: string): Promise<boolean> {
    const path = repositoryPath(raw)
    await this.refuseLinks(path)
    const change = this.pending.get(path)
    const before = await this.readBase(path)
    if (change?.content === null) return false
    if (before === null) {
      if (!change) return false
      this.pending.delete(path)
      return true
    }
    this.pending.set(path, { content: null, kind: 'deleted', bytes: before.byteLength })
    return true
  }

  changes(): FileChange[] {
    return [...this.pending]
      .map(([path, change]) => ({ path, kind: change.kind, bytes: change.bytes }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  }

  async commit(options: { message: string; author: { name: string; email: string } }): Promise<string | null> {
    if (this.pending.size === 0) return null
    const { fs, gitdir } = this.options
    const { tree: baseTreeOid } = (await git.readCommit({ fs, gitdir, oid: this.head, cache: this.cache })).commit
    const treeOid = (await this.writeTree('', baseTreeOid)) ?? (await git.writeTree({ fs, gitdir, tree: [] }))
    const when = this.options.now()
    const person = {
      name: options.author.name,
      email: options.author.email,
      timestamp: Math.floor(when.getTime() / 1000),
      timezoneOffset: 0,
    }
    const oid = await git.writeCommit({
      fs,
      gitdir,
      commit: {
        message: withTrailer(options.message, this.options.jobId),
        tree: treeOid,
        parent: [this.head],
        author: person,
        committer: person,
      },
    })
    if (this.options.localRef) await git.writeRef({ fs, gitdir, ref: this.options.localRef, value: oid, force: true })
    this.head = oid
    this.tree = null
    this.directories = null
    this.pending.clear()
    return oid
  }

  async push(branch: string, options?: { signal?: AbortSignal }): Promise<void> {
    await this.options.push(checkBranchName(branch), this.head, options?.signal)
  }

  async mergeBranch(branch: string, options: MergeOptions): Promise<MergeResult> {
    if (this.pending.size > 0) throw new Error('commit the pending changes before merging')
    const theirs = this.options.fetchBranch ? await this.options.fetchBranch(checkBranchName(branch), options.signal) : null
    if (!theirs) throw new Error(`cannot merge ${branch}: no such branch`)
    if (theirs === this.head) return { outcome: 'up-to-date', head: this.head, theirs, replaced: [] }
    const { fs, gitdir } = this.options
    const when = this.options.now()
    const person = { ...options.author, timestamp: Math.floor(when.getTime() / 1000), timezoneOffset: 0 }
    const replaced: string[] = []
    const merge = (allowUnrelatedHistories: boolean) =>
      git.merge({
        fs,
        gitdir,
        cache: this.cache,
        ours: this.head,
        theirs,
        noUpdateBranch: true,
        message: withTrailer(options.message, this.options.jobId),
        author: person,
        committer: person,
        allowUnrelatedHistories,
        // Both sides changed the file: the branch merged in wins. Our side's work is redone by whoever merges.
        mergeDriver: ({ contents, path }) => {
          replaced.push(path)
          return { cleanMerge: true, mergedText: contents[2] ?? '' }
        },
      })
    let result: Awaited<ReturnType<typeof git.merge>>
    try {
      result = await merge(false)
    } catch (error) {
      // No merge base within the history at hand (a shallow clone): merge as if from an empty tree.
      if ((error as { code?: string }).code !== 'MergeNotSupportedError') throw error
      replaced.length = 0
      result = await merge(true)
    }
    if (result.alreadyMerged) return { outcome: 'up-to-date', head: this.head, theirs, replaced: [] }
    this.head = result.oid!
    if (this.options.localRef) await git.writeRef({ fs, gitdir, ref: this.options.localRef, value: this.head, force: true })
    this.tree = null
    this.directories = null
    return { outcome: result.fastForward ? 'fast-forward' : 'merged', head: this.head, theirs, replaced: [...new Set(replaced)].sort() }
  }

  /** Writes the tree at `dir` with pending changes applied; null when it ends up empty (git has no empty trees). */
  private async writeTree(dir: string, baseOid: string | null): Promise<string | null> {
    const { fs, gitdir } = this.options
    const entries = new Map<string, { mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' }>()
    if (baseOid) {
      for (const entry of (await git.readTree({ fs, gitdir, oid: baseOid, cache: this.cache })).tree) entries.set(entry.path, entry)
    }
    const prefix = dir === '' ? '' : `${dir}/`
    const childDirs = new Set<string>()
    for (const [path, change] of this.pending) {
      if (!path.startsWith(prefix)) continue
      const rest = path.slice(prefix.length)
      const slash = rest.indexOf('/')
      if (slash >= 0) {
        childDirs.add(rest.slice(0, slash))
        continue
      }
      if (change.content === null) {
        entries.delete(rest)
        continue
      }
      const oid = await git.writeBlob({ fs, gitdir, blob: encoder.encode(change.content) })
      // Keeps the executable bit; anything else (a symlink) becomes a regular file.
      const mode = entries.get(rest)?.mode === '100755' ? '100755' : '100644'
      entries.set(rest, { mode, path: rest, oid, type: 'blob' })
    }
    for (const name of childDirs) {
      // A file now stands where a folder was: every file under it was deleted (writeFile checks), so drop the folder.
      if (typeof this.pending.get(prefix + name)?.content === 'string') continue
      const existing = entries.get(name)
      const oid = await this.writeTree(prefix + name, existing?.type === 'tree' ? existing.oid : null)
      if (oid === null) entries.delete(name)
      else entries.set(name, { mode: '040000', path: name, oid, type: 'tree' })
    }
    if (entries.size === 0) return null
    return git.writeTree({ fs, gitdir, tree: [...entries.values()] })
  }

  private async readBase(path: string): Promise<Uint8Array | null> {
    const entry = (await this.baseTree()).get(path)
    if (!entry) return null
    const { fs, gitdir } = this.options
    return (await git.readBlob({ fs, gitdir, oid: entry.oid, cache: this.cache })).blob
  }

  /**
   * Refuses a path that is a symbolic link of the base tree or lies under one: a link is neither followed (it could
   * lead out of the repository) nor replaced (writing there would turn it into a file, a change no event would name).
   */
  private async refuseLinks(path: string): Promise<void> {
    await this.baseTree()
    const parts = path.split('/')
    const link = parts.map((_, i) => parts.slice(0, i + 1).join('/')).find((prefix) => this.links!.has(prefix))
    if (link !== undefined) throw new WorkspacePathError(path, `"${link}" is a symbolic link, which Docent does not follow or replace`)
  }

  /** True when `dir` is a folder that still holds a file (from the base tree or pending). */
  private hasFilesUnder(dir: string): boolean {
    const prefix = `${dir}/`
    for (const [path, change] of this.pending) if (path.startsWith(prefix) && change.content !== null) return true
    if (!this.directories!.has(dir)) return false
    for (const path of this.tree!.keys()) {
      if (path.startsWith(prefix) && this.pending.get(path)?.content !== null) return true
    }
    return false
  }

  /** Every file of the head commit's tree: reads tree objects only, never blobs. */
  private async baseTree(): Promise<Map<string, BaseEntry>> {
    if (this.tree) return this.tree
    const { fs, gitdir } = this.options
    const files = new Map<string, BaseEntry>()
    const directories = new Set<string>()
    const links = new Set<string>()
    const { tree } = (await git.readCommit({ fs, gitdir, oid: this.head, cache: this.cache })).commit
    // In memory, every read settles at once: the walk gives the event loop turns (see pacer).
    const pace = pacer()
    const walk = async (oid: string, prefix: string): Promise<void> => {
      const { tree: entries } = await git.readTree({ fs, gitdir, oid, cache: this.cache })
      for (const entry of entries) {
        await pace()
        const path = prefix + entry.path
        if (entry.type === 'tree') {
          directories.add(path)
          await walk(entry.oid, `${path}/`)
        } else if (entry.type === 'blob' && entry.mode === '120000') {
          // Symlinks are left alone: following them could leave the repository.
          links.add(path)
        } else if (entry.type === 'blob') {
          files.set(path, { oid: entry.oid, mode: entry.mode })
        }
      }
    }
    await walk(tree, '')
    this.tree = files
    this.directories = directories
    this.links = links
    return files
  }
}

/** Adds `Docent-Job: <id>` as a git trailer (a blank line, then `Key: value`), once. */
export function withTrailer(message: string, jobId: string | undefined): string {
  const body = message.trim() || 'Docent edit'
  if (!jobId) return `${body}\n`
  const trailer = `Docent-Job: ${jobId}`
  if (body.split('\n').includes(trailer)) return `${body}\n`
  return `${body}\n\n${trailer}\n`
}
