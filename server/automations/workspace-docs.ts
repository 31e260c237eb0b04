import { DocentError } from '../../shared/errors.ts'
import type { JobEvents } from '../agent/events.ts'
import { writablePaths } from '../agent/writable-paths.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import type { Workspace } from '../git/types.ts'
import { trimBoth } from '../../shared/trim.ts'
import { applyFileEdits, type FileEdit } from './edits.ts'

// An engine automation's view of the docs in the agent's workspace: what it reads, and how its edits go back in.

/** Files an engine reads: pages, snippets and the site configuration. The rest of the tree is only listed (assets). */
const DOCS_TEXT = /\.(mdx?|json)$/i

/** The docs' folder inside the agent's repository: a git source's `root` when the agent works in the docs repository. */
export function docsRoot(project: ProjectConfig): string {
  const docs = project.docs
  if (!('repository' in docs) || !docs.root || docs.repository !== project.agent?.repository) return ''
  return trimBoth(docs.root, '/')
}

export async function readDocs(workspace: Workspace, root: string): Promise<{ files: Map<string, string>; assets: string[] }> {
  const prefix = root ? `${root}/` : ''
  const files = new Map<string, string>()
  const assets: string[] = []
  for (const path of await workspace.listFiles()) {
    if (!path.startsWith(prefix)) continue
    const relative = path.slice(prefix.length)
    if (!DOCS_TEXT.test(relative) || relative.split('/').some((part) => part === 'node_modules' || part.startsWith('.'))) {
      assets.push(relative)
      continue
    }
    const text = await workspace.readFile(path)
    if (text !== null) files.set(relative, text)
  }
  return { files, assets }
}

/** Writes an engine's edits into the workspace, within the project's writable paths and the run's limits. */
export async function applyEdits(
  ctx: DocentContext,
  project: ProjectConfig,
  workspace: Workspace,
  root: string,
  files: Map<string, string>,
  edits: FileEdit[],
  events: JobEvents,
): Promise<void> {
  if (edits.length === 0) return
  const writable = writablePaths(project.agent!.writablePaths)
  const texts = applyFileEdits(files, edits)
  const { agentMaxFilesTouched, agentMaxChangedBytes } = ctx.config.limits
  if (texts.size > agentMaxFilesTouched) {
    throw new DocentError(
      'conflict',
      `the fixes touch ${texts.size} files, more than a run may (${agentMaxFilesTouched}); nothing was changed`,
    )
  }
  let bytes = 0
  for (const [relative, text] of texts) {
    const path = (root ? `${root}/` : '') + relative
    writable.check(path)
    bytes += new TextEncoder().encode(text).byteLength
    if (bytes > agentMaxChangedBytes)
      throw new DocentError('conflict', `the fixes change more than ${agentMaxChangedBytes} bytes; nothing was changed`)
    await workspace.writeFile(path, text)
    await events.add('file.changed', `${files.has(relative) ? 'edited' : 'created'} ${path}`, { path })
  }
}
