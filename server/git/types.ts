/** Where a workspace clones from and pushes to. */
export interface RepositoryRef {
  /** `http(s)://...` URL, or `local:<name>` for a bare repository the embedded local host keeps under the data dir. */
  repository: string
  /** Branch to clone. */
  ref: string
  /** HTTP credentials (token), from the config's env reference; never logged. */
  token?: string
}

export interface FileChange {
  path: string
  kind: 'added' | 'modified' | 'deleted'
  /** Bytes written (new size) or removed (old size for deletes). */
  bytes: number
}

/**
 * A docs repository checked out in memory. Paths are relative to the repository root with `/` separators;
 * every method refuses paths that escape the root or touch `.git/` (WorkspacePathError).
 */
export interface Workspace {
  /** Commit id of the cloned branch head. */
  readonly baseCommit: string
  /** All file paths in the tree (with pending changes applied), sorted. */
  listFiles(): Promise<string[]>
  /**
   * File text, or null when there is no such file. A file that is not UTF-8 throws NotTextError; a symbolic link, or a
   * path under one, throws WorkspacePathError (links are not followed).
   */
  readFile(path: string): Promise<string | null>
  /** Refuses (WorkspacePathError) a new name a checkout could not hold: too long, or an alias of one in the tree. */
  writeFile(path: string, content: string): Promise<void>
  /** False when there was no such file. */
  deleteFile(path: string): Promise<boolean>
  /** Changes since the clone (or since the last commit), for limits and events. */
  changes(): FileChange[]
  /** Commits pending changes; returns the new commit id, or null when nothing changed. */
  commit(options: { message: string; author: { name: string; email: string } }): Promise<string | null>
  /** Pushes HEAD to `branch` on the remote (creating or fast-forwarding it). */
  push(branch: string, options?: { signal?: AbortSignal }): Promise<void>
  /**
   * Brings the remote branch `branch` into the workspace (commit pending changes first): nothing when its head is
   * already in; a fast-forward when the workspace has nothing of its own; else a merge commit (parents: the workspace
   * head, then the branch's) in which a file both sides changed takes the branch's version (`replaced` lists those).
   * Pushing the workspace afterwards is then a fast-forward of the workspace's own branch.
   */
  mergeBranch?(branch: string, options: MergeOptions): Promise<MergeResult>
}

export interface MergeOptions {
  message: string
  author: { name: string; email: string }
  signal?: AbortSignal
}

export interface MergeResult {
  outcome: 'up-to-date' | 'fast-forward' | 'merged'
  /** The workspace's head afterwards. */
  head: string
  /** The merged branch's head. */
  theirs: string
  /** Files both sides changed, now as the merged branch has them. */
  replaced: string[]
}

export interface OpenWorkspaceOptions extends RepositoryRef {
  /** Clone this branch instead of `ref` when it exists on the remote (follow-ups continue the job's branch). */
  preferBranch?: string
  /** Written as a `Docent-Job: <id>` trailer into every commit the workspace makes. */
  jobId?: string
  signal?: AbortSignal
}

export interface WorkspaceFactory {
  open(options: OpenWorkspaceOptions): Promise<Workspace>
}
