import type { FileChange, OpenWorkspaceOptions, Workspace, WorkspaceFactory } from '../../../server/git/types.ts'
import { repositoryPath as confinePath } from '../../../server/git/paths.ts'

/**
 * A test double of the Workspace interface over a Map: the agent loop and tools are tested against it without git.
 * Commits are kept in memory; `pushed` records branch → files snapshot.
 */
export class MemoryWorkspace implements Workspace {
  readonly baseCommit = 'base'
  private files: Map<string, string>
  private base: Map<string, string>
  commits: Array<{ id: string; message: string; author: { name: string; email: string }; files: Map<string, string> }> = []
  pushed = new Map<string, Map<string, string>>()

  constructor(files: Record<string, string>) {
    this.files = new Map(Object.entries(files))
    this.base = new Map(this.files)
  }

  /** Puts a file in the base tree, past the path checks (a repository may hold any file). */
  seed(path: string, content: string) {
    this.files.set(path, content)
    this.base.set(path, content)
  }
  async listFiles() {
    return [...this.files.keys()].sort()
  }
  async readFile(path: string) {
    return this.files.get(confinePath(path)) ?? null
  }
  async writeFile(path: string, content: string) {
    this.files.set(confinePath(path), content)
  }
  async deleteFile(path: string) {
    return this.files.delete(confinePath(path))
  }
  changes(): FileChange[] {
    const out: FileChange[] = []
    for (const [path, content] of this.files) {
      const before = this.base.get(path)
      if (before === undefined) out.push({ path, kind: 'added', bytes: new TextEncoder().encode(content).length })
      else if (before !== content) out.push({ path, kind: 'modified', bytes: new TextEncoder().encode(content).length })
    }
    for (const [path, content] of this.base) {
      if (!this.files.has(path)) out.push({ path, kind: 'deleted', bytes: new TextEncoder().encode(content).length })
    }
    return out.sort((a, b) => a.path.localeCompare(b.path))
  }
  async commit(options: { message: string; author: { name: string; email: string } }) {
    if (this.changes().length === 0) return null
    const id = `commit${this.commits.length + 1}`
    this.commits.push({ id, ...options, files: new Map(this.files) })
    this.base = new Map(this.files)
    return id
  }
  async push(branch: string) {
    this.pushed.set(branch, new Map(this.files))
  }
  snapshot(): Record<string, string> {
    return Object.fromEntries(this.files)
  }
}

/** Opens MemoryWorkspaces: the job's branch when it was pushed before, else the initial files. */
export class MemoryWorkspaceFactory implements WorkspaceFactory {
  opened: OpenWorkspaceOptions[] = []
  last: MemoryWorkspace | null = null
  branches = new Map<string, Record<string, string>>()
  constructor(private readonly files: Record<string, string>) {}
  async open(options: OpenWorkspaceOptions) {
    this.opened.push(options)
    const start = (options.preferBranch && this.branches.get(options.preferBranch)) || this.files
    const workspace = new MemoryWorkspace(start)
    const push = workspace.push.bind(workspace)
    workspace.push = async (branch: string) => {
      await push(branch)
      this.branches.set(branch, workspace.snapshot())
    }
    this.last = workspace
    return workspace
  }
}
