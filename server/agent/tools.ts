import { aiSdk } from '../models/ai-sdk.ts'
import { z } from 'zod'
import { DocentError } from '../../shared/errors.ts'
import type { JobEvents } from './events.ts'
import type { WritablePaths } from './writable-paths.ts'
import { repositoryPath as confinePath } from '../git/paths.ts'
import { NotTextError } from '../git/errors.ts'
import type { Workspace } from '../git/types.ts'
import { nextTurn } from '../event-loop.ts'
import { MAX_CALLS_PER_STEP, MAX_STEP_RESULT_CHARS, MAX_SUMMARY_CHARS } from './reply-limits.ts'

const MAX_READ_CHARS = 200_000
const MAX_LIST = 5_000

/** What the tool calls of the current model reply have spent; the loop starts it anew before each reply. */
export interface StepBudget {
  calls: number
  resultChars: number
}

export interface ToolLimits {
  maxChangedBytes: number
  maxFilesTouched: number
}

/** What the tools found out during a run: the summary given to `finish`, for the commit message and the PR. */
export interface ToolState {
  summary: string | null
  /** False when the model said, through `finish`, that it could not carry out the request. */
  done?: boolean
}

export interface AgentToolsOptions {
  workspace: Workspace
  /** The files the agent may write, create or delete (the project's `agent.writablePaths`). */
  writable: WritablePaths
  limits: ToolLimits
  events: JobEvents
  state: ToolState
  step: StepBudget
  /** The run's: aborted when it is cancelled or outlives its time limit. */
  signal?: AbortSignal
}

/** An error the model sees as the tool's result; it names what went wrong so the model can correct itself. */
export class ToolError extends DocentError<'tool_refused'> {
  override name = 'ToolError'
  constructor(message: string, data: Record<string, unknown> = {}) {
    super('tool_refused', message, data)
  }
}

const byteLength = (text: string) => new TextEncoder().encode(text).length

/**
 * The agent's file tools over one workspace. Every path is confined to the repository (no `..`, no absolute
 * paths, nothing git would read as `.git`), writes to the project's writable paths (documentation files), and writes
 * are refused past the run's changed-bytes and files-touched limits.
 */
export async function agentTools({ workspace, writable, limits, events, state, step, signal }: AgentToolsOptions) {
  const [{ tool }, { WorkspaceSearch }] = await Promise.all([aiSdk(), import('./workspace-search.ts')])
  const search = new WorkspaceSearch(workspace)

  /**
   * Every tool call: first back to the event loop, so that however many calls a reply holds, the run's deadline fires
   * and the server answers other requests between them; then the run's signal and the step's budget (see
   * MAX_CALLS_PER_STEP). Only what a read returns counts against the results' characters: a change, once made, is
   * never reported as refused.
   */
  const budgeted =
    <I, O>(execute: (input: I) => Promise<O>, { reads = false } = {}) =>
    async (input: I): Promise<O> => {
      await nextTurn()
      signal?.throwIfAborted()
      if (++step.calls > MAX_CALLS_PER_STEP) {
        throw new ToolError(`refused: at most ${MAX_CALLS_PER_STEP} tool calls in one reply; make the rest in the next one`)
      }
      const output = await execute(input)
      if (!reads) return output
      const chars = JSON.stringify(output)?.length ?? 0
      if (step.resultChars + chars > MAX_STEP_RESULT_CHARS) {
        throw new ToolError(
          `refused: the tool results of one reply may hold at most ${MAX_STEP_RESULT_CHARS} characters; read less at once`,
        )
      }
      step.resultChars += chars
      return output
    }

  function checkLimits(path: string, newBytes: number): void {
    const others = workspace.changes().filter((change) => change.path !== path)
    const bytes = others.reduce((sum, change) => sum + change.bytes, 0) + newBytes
    if (bytes > limits.maxChangedBytes) {
      throw new ToolError(`refused: this change would bring the run to ${bytes} changed bytes; the limit is ${limits.maxChangedBytes}`)
    }
    if (others.length + 1 > limits.maxFilesTouched) {
      throw new ToolError(`refused: a run may touch at most ${limits.maxFilesTouched} files`)
    }
  }

  /**
   * A JSON file (docs.json, an OpenAPI spec) stays JSON: one the agent broke would fail the site's build once merged.
   * The model sees why and may write it again. A file that was not JSON before may stay so (not the agent's doing).
   */
  function checkJson(path: string, content: string, before: string | null) {
    if (!/\.json$/i.test(path)) return
    const error = jsonError(content)
    if (error && (before === null || !jsonError(before))) {
      throw new ToolError(`refused: ${path} would not be valid JSON (${error}); write the whole file again as valid JSON`)
    }
  }

  /** Writes a text file; a binary one is refused (NotTextError from the read): text cannot stand in for its bytes. */
  async function write(path: string, content: string): Promise<'added' | 'modified' | 'unchanged'> {
    const before = await workspace.readFile(path)
    if (before === content) return 'unchanged'
    checkLimits(path, byteLength(content))
    checkJson(path, content, before)
    await workspace.writeFile(path, content)
    search.changed(path, content)
    const kind = before === null ? 'added' : 'modified'
    await events.add('file.changed', `${kind} ${path}`, { path, kind, bytes: byteLength(content) })
    return kind
  }

  return {
    list_files: tool({
      description: 'Lists the files of the docs repository (paths relative to its root), optionally only those under a folder.',
      inputSchema: z.object({ prefix: z.string().optional().describe('a folder, e.g. "guides/"') }),
      execute: budgeted(
        async ({ prefix }) => {
          const folder = prefix && prefix.replace(/^\.?\/*/, '') !== '' ? `${confinePath(prefix)}/` : ''
          const files = (await workspace.listFiles()).filter((path) => path.startsWith(folder))
          return { files: files.slice(0, MAX_LIST), truncated: files.length > MAX_LIST }
        },
        { reads: true },
      ),
    }),

    read_file: tool({
      description: 'Reads one file of the docs repository.',
      inputSchema: z.object({ path: z.string().describe('relative to the repository root, e.g. "guides/webhooks.mdx"') }),
      execute: budgeted(
        async ({ path: raw }) => {
          const path = confinePath(raw)
          const content = await workspace.readFile(path)
          if (content === null) throw new ToolError(`no such file: ${path}`)
          await events.add('file.read', `read ${path}`, { path })
          const truncated = content.length > MAX_READ_CHARS
          return { path, content: truncated ? content.slice(0, MAX_READ_CHARS) : content, truncated }
        },
        { reads: true },
      ),
    }),

    search_docs: tool({
      description:
        'Full-text search over the text files of the docs repository. Ranked by relevance by default; with exact=true, ' +
        'finds every file containing the query as an exact substring (case-sensitive unless ignore_case=true).',
      inputSchema: z.object({
        query: z.string().min(1),
        exact: z.boolean().optional(),
        ignore_case: z.boolean().optional(),
        limit: z.number().int().min(1).max(500).optional(),
      }),
      execute: budgeted(
        async ({ query, exact, ignore_case, limit }) => {
          const results = await search.search(query, { exact, ignoreCase: ignore_case, limit })
          await events.add('search', `searched for "${query}": ${results.length} file(s)`, { query, files: results.length })
          return { results }
        },
        { reads: true },
      ),
    }),

    write_file: tool({
      description: 'Creates a file or replaces its whole content.',
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      execute: budgeted(async ({ path: raw, content }) => {
        const path = writable.check(confinePath(raw))
        const kind = await write(path, content)
        return { path, kind, bytes: byteLength(content) }
      }),
    }),

    edit_file: tool({
      description:
        'Replaces exact text in a file. old_text must occur exactly once (include surrounding text to make it unique), ' +
        'or set replace_all=true to replace every occurrence.',
      inputSchema: z.object({
        path: z.string(),
        old_text: z.string().min(1),
        new_text: z.string(),
        replace_all: z.boolean().optional(),
      }),
      execute: budgeted(async ({ path: raw, old_text, new_text, replace_all }) => {
        const path = writable.check(confinePath(raw))
        const content = await workspace.readFile(path)
        if (content === null) throw new ToolError(`no such file: ${path}`)
        const count = content.split(old_text).length - 1
        if (count === 0) throw new ToolError(`old_text was not found in ${path}; read the file and copy the text exactly`)
        if (count > 1 && !replace_all) {
          throw new ToolError(`old_text occurs ${count} times in ${path}; include more surrounding text, or set replace_all=true`)
        }
        // The limit before the text: twenty replace_all edits of a 1 MB file, each building a 500 MB string that the
        // limit then refused, held the server for 39 s. A character is at least one byte.
        const length = content.length + count * (new_text.length - old_text.length)
        if (length > limits.maxChangedBytes) {
          throw new ToolError(
            `refused: the file would grow to ${length} characters; the run may change at most ${limits.maxChangedBytes} bytes`,
          )
        }
        await write(path, content.split(old_text).join(new_text))
        return { path, replacements: count }
      }),
    }),

    delete_file: tool({
      description: 'Deletes a file.',
      inputSchema: z.object({ path: z.string() }),
      execute: budgeted(async ({ path: raw }) => {
        const path = writable.check(confinePath(raw))
        const bytes = await workspace.readFile(path).then(
          (before) => (before === null ? null : byteLength(before)),
          // Deleting loses no byte of a binary file: only its size is needed, for the limits.
          (error: unknown) => {
            if (error instanceof NotTextError) return error.data.bytes
            throw error
          },
        )
        if (bytes === null) throw new ToolError(`no such file: ${path}`)
        checkLimits(path, bytes)
        await workspace.deleteFile(path)
        search.changed(path, null)
        await events.add('file.deleted', `deleted ${path}`, { path })
        return { path, deleted: true }
      }),
    }),

    finish: tool({
      description:
        'Call once when the work is done: a short summary of what changed and why. Its first line becomes the commit ' +
        'title; the summary becomes the pull request description. Set done=false when the request could not be carried out ' +
        '(the summary says why): the job then fails with that reason instead of looking finished.',
      inputSchema: z.object({ summary: z.string().min(1).max(MAX_SUMMARY_CHARS), done: z.boolean().optional() }),
      execute: budgeted(async ({ summary, done }) => {
        state.summary = summary
        state.done = done ?? true
        return { ok: true }
      }),
    }),
  }
}

export type AgentTools = ReturnType<typeof agentTools>

/** Why a text is not JSON, or null when it is. */
function jsonError(text: string): string | null {
  try {
    JSON.parse(text)
    return null
  } catch (error) {
    return error instanceof Error ? error.message.slice(0, 200) : 'not JSON'
  }
}
