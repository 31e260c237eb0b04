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

/**
 * Parses pages (path and text; pages that import snippets stay with the caller) in worker threads, in order. Each
 * worker is sent all of its batches at once, so it never waits for the main thread, which takes in one small batch
 * at a time.
 */
export async function parseInWorkers(pages: Array<[path: string, text: string]>, workerCount?: number): Promise<ParsedPage[]> {
  const { availableParallelism } = await import('node:os')
  const batches: Array<Array<[string, string]>> = []
  for (let from = 0; from < pages.length; from += BATCH_PAGES) batches.push(pages.slice(from, from + BATCH_PAGES))
  const count = Math.max(1, Math.min(workerCount ?? availableParallelism(), MAX_WORKERS, batches.length))
  const workers: WorkerThread[] = []
  try {
    for (let i = 0; i < count; i++) workers.push(await startWorker())
    const parsed = await Promise.all(workers.map((worker, w) => parseBatches(worker, batches.filter((_, b) => b % count === w))))
    // Batch b went to worker b % count, as its (b / count)th.
    return batches.flatMap((_, b) => parsed[b % count]![Math.floor(b / count)]!)
  } finally {
    for (const worker of workers) void worker.terminate()
  }
}

async function startWorker(): Promise<WorkerThread> {
  const { Worker } = await import('node:worker_threads')
  const url = new URL('./parse-worker.ts', import.meta.url)
  // Node runs our TypeScript through tsx, whose loader a worker thread does not inherit: the worker loads it first.
  const viaTsx = url.pathname.endsWith('.ts') && !('Deno' in globalThis) && !('Bun' in globalThis)
  const worker = viaTsx
    ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ tsImport }) => tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(url.href)}))`, { eval: true })
    : new Worker(url)
  // A server stopping mid-parse is not held open by its parser threads.
  worker.unref()
  return worker
}

function parseBatches(worker: WorkerThread, batches: Array<Array<[string, string]>>): Promise<ParsedPage[][]> {
  return new Promise((resolve, reject) => {
    const results: ParsedPage[][] = []
    const settle = () => worker.off('message', onMessage).off('error', onError).off('exit', onExit)
    const onMessage = (pages: ParsedPage[]) => {
      results.push(pages)
      if (results.length < batches.length) return
      settle()
      resolve(results)
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
    for (const batch of batches) worker.postMessage(batch)
  })
}
