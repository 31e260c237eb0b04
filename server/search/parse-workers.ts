// Parsing is the slow part of loading a large site (micromark: about 1 ms a page, 10 s for 10,000 pages). Worker
// threads spread it over the cores and leave the event loop free to answer queries meanwhile. Like the directory
// source, this module imports `node:` modules, lazily: Node, Deno and Bun all have worker_threads; where a runtime
// has none (Deno Deploy), the caller parses in its own thread.
import type { ParsedPage } from './parse-page.ts'

/** Sites with fewer pages to parse are parsed in the calling thread (but for long pages): starting workers costs more. */
export const PARALLEL_PARSE_MIN_PAGES = 300
const MAX_WORKERS = 4
const BATCH_PAGES = 100
/**
 * A page that takes longer is left out, and its worker replaced: Mintlify's longest page parses in about a second, and
 * shapes micromark is slow on (a table thousands of columns wide) took minutes, holding the site's load that long.
 */
export const PAGE_PARSE_BUDGET_MS = 20_000
/** A worker that has not loaded the parser by then counts as failed (the caller then parses in its own thread). */
const WORKER_START_MS = 60_000

type WorkerThread = import('node:worker_threads').Worker
type PageToParse = [file: string, path: string, text: string]
/** A page that was not parsed, and why, in words for the docs team. */
export type LeftOut = { leftOut: string }

/** A page whose parse threw (nesting deeper than the parser's stack, snippets expanded past MAX_PAGE_BLOCKS). */
export const couldNotRead = (error: unknown): LeftOut => ({
  leftOut: `left out: could not be read (${error instanceof Error ? error.message : String(error)})`,
})

/** What parse-worker.ts is sent: first the files pages import, then the pages to parse. */
export type WorkerRequest = { imported: Array<[file: string, text: string]> } | { batch: PageToParse[] }
/** What it answers: that it is ready (the parser loaded), then one reply per page, in order. */
export type WorkerReply =
  | { ready: true }
  | {
      page: ParsedPage | LeftOut
      /** Imported files looked up for this page (each file once per worker). */
      imports: string[]
    }

/**
 * Parses pages in worker threads, in order, as parsePage would here with the snippet resolver of `imported` (the
 * files pages import). Each worker is sent all of its pages at once, so it never waits for the main thread. A page
 * that takes longer than `pageBudgetMs` is left out: its worker is ended and a new one goes on with the pages after it.
 * Also returns every imported file that was looked up.
 */
export async function parseInWorkers(
  pages: PageToParse[],
  imported: Map<string, string>,
  options: { workers?: number; pageBudgetMs?: number } = {},
): Promise<{ pages: Array<ParsedPage | LeftOut>; imports: string[] }> {
  const { availableParallelism } = await import('node:os')
  const batches: number[][] = []
  for (let from = 0; from < pages.length; from += BATCH_PAGES) {
    batches.push(Array.from({ length: Math.min(BATCH_PAGES, pages.length - from) }, (_, i) => from + i))
  }
  const count = Math.max(1, Math.min(options.workers ?? availableParallelism(), MAX_WORKERS, batches.length))
  const parsed: Array<ParsedPage | LeftOut> = new Array(pages.length)
  const imports = new Set<string>()
  const budget = options.pageBudgetMs ?? PAGE_PARSE_BUDGET_MS
  // Worker w takes batches w, w + count, …: neighbouring pages (often alike in length) spread over the workers.
  const queues = Array.from({ length: count }, (_, w) => batches.filter((_, b) => b % count === w).flat())
  await Promise.all(
    queues.map(async (queue) => {
      let next = 0
      while (next < queue.length) {
        const worker = await startWorker()
        try {
          next = await parseQueue(worker, [...imported], queue, next, pages, budget, (index, page, looked) => {
            parsed[index] = page
            for (const file of looked) imports.add(file)
          })
        } finally {
          void worker.terminate()
        }
      }
    }),
  )
  return { pages: parsed, imports: [...imports] }
}

/**
 * Sends a worker the pages of `queue` from `from` on and takes in its replies; resolves with where the next worker
 * goes on: the end of the queue, or past a page that overran the budget (left out).
 */
function parseQueue(
  worker: WorkerThread,
  imported: Array<[string, string]>,
  queue: number[],
  from: number,
  pages: PageToParse[],
  budget: number,
  onPage: (index: number, page: ParsedPage | LeftOut, imports: string[]) => void,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let next = from
    let timer: ReturnType<typeof setTimeout> | undefined
    const settle = () => {
      clearTimeout(timer)
      worker.off('message', onMessage).off('error', onError).off('exit', onExit)
    }
    const wait = (ms: number, onLate: () => void) => {
      clearTimeout(timer)
      timer = setTimeout(onLate, ms)
    }
    const overran = () => {
      settle()
      onPage(queue[next]!, { leftOut: `left out: took longer than ${budget / 1000} s to parse` }, [])
      resolve(next + 1)
    }
    const onMessage = (reply: WorkerReply) => {
      if ('ready' in reply) return wait(budget, overran)
      onPage(queue[next]!, reply.page, reply.imports)
      next += 1
      if (next < queue.length) return wait(budget, overran)
      settle()
      resolve(next)
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
    wait(WORKER_START_MS, () => onError(new Error(`a parser thread did not start within ${WORKER_START_MS / 1000} s`)))
    worker.postMessage({ imported } satisfies WorkerRequest)
    worker.postMessage({ batch: queue.slice(from).map((index) => pages[index]!) } satisfies WorkerRequest)
  })
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
