// Parsing is the slow part of loading a large site (micromark: about 1 ms a page, 10 s for 10,000 pages). Worker
// threads spread it over the cores and leave the event loop free to answer queries meanwhile. Like the directory
// source, this module imports `node:` modules, lazily: Node, Deno and Bun all have worker_threads; where a runtime
// has none (Deno Deploy), the caller parses in its own thread.
import type { ParsedPage } from './parse-page.ts'

/** Sites with fewer pages to parse are parsed in the calling thread: starting workers costs more than it saves. */
export const PARALLEL_PARSE_MIN_PAGES = 300
const MAX_WORKERS = 4
const BATCH_PAGES = 100

type WorkerThread = import('node:worker_threads').Worker
type PageToParse = [file: string, path: string, text: string]

/** What parse-worker.ts is sent: first the files pages import, then batches of pages. */
export type WorkerRequest = { imported: Array<[file: string, text: string]> } | { batch: PageToParse[] }
export interface WorkerReply {
  /** Null for a page that cannot be read. */
  pages: Array<ParsedPage | null>
  /** Imported files looked up for this batch (each file once per worker). */
  imports: string[]
}

/**
 * Parses pages in worker threads, in order, as parsePage would here with the snippet resolver of `imported` (the
 * files pages import). Each worker is sent all of its batches at once, so it never waits for the main thread, which
 * takes in one small batch at a time. Also returns every imported file that was looked up.
 */
export async function parseInWorkers(
  pages: PageToParse[],
  imported: Map<string, string>,
  workerCount?: number,
): Promise<{ pages: Array<ParsedPage | null>; imports: string[] }> {
  const { availableParallelism } = await import('node:os')
  const batches: PageToParse[][] = []
  for (let from = 0; from < pages.length; from += BATCH_PAGES) batches.push(pages.slice(from, from + BATCH_PAGES))
  const count = Math.max(1, Math.min(workerCount ?? availableParallelism(), MAX_WORKERS, batches.length))
  const workers: WorkerThread[] = []
  try {
    for (let i = 0; i < count; i++) workers.push(await startWorker())
    const replies = await Promise.all(
      workers.map((worker, w) =>
        parseBatches(
          worker,
          [...imported],
          batches.filter((_, b) => b % count === w),
        ),
      ),
    )
    // Batch b went to worker b % count, as its (b / count)th.
    return {
      pages: batches.flatMap((_, b) => replies[b % count]![Math.floor(b / count)]!.pages),
      imports: [...new Set(replies.flat().flatMap((reply) => reply.imports))],
    }
  } finally {
    for (const worker of workers) void worker.terminate()
  }
}

/** Workers stay referenced while they parse (a CLI run must not exit before its pages are in); they end after. */
async function startWorker(): Promise<WorkerThread> {
  const { Worker } = await import('node:worker_threads')
  // From the TypeScript sources, the worker is parse-worker.ts; from the built server (server/dist), its own entry.
  const url = new URL(import.meta.url.endsWith('.ts') ? './parse-worker.ts' : './parse-worker.mjs', import.meta.url)
  // Node runs our TypeScript through tsx, whose loader a worker thread does not inherit: the worker loads it first.
  const viaTsx = url.pathname.endsWith('.ts') && !('Deno' in globalThis) && !('Bun' in globalThis)
  return viaTsx
    ? new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ tsImport }) => tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(
          url.href,
        )}))`,
        { eval: true },
      )
    : new Worker(url)
}

function parseBatches(worker: WorkerThread, imported: Array<[string, string]>, batches: PageToParse[][]): Promise<WorkerReply[]> {
  return new Promise((resolve, reject) => {
    const replies: WorkerReply[] = []
    const settle = () => worker.off('message', onMessage).off('error', onError).off('exit', onExit)
    const onMessage = (reply: WorkerReply) => {
      replies.push(reply)
      if (replies.length < batches.length) return
      settle()
      resolve(replies)
    }
    const onError = (error: unknown) => {
      settle()
      reject(error)
    }
    const onExit = (code: number) => {
      settle()
      reject(new Error(`a parser thread exited (code ${code})`))
    }
    worker.on('message', onMessage).on('error', onError).on('exit', onExit)
    const send = (request: WorkerRequest) => worker.postMessage(request)
    send({ imported })
    for (const batch of batches) send({ batch })
  })
}
