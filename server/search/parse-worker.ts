// A worker thread of parse-workers.ts: takes the files pages import, says it is ready, then parses the pages it is
// sent and posts back each parsed page with the imported files it looked up, one message per page (the main thread
// times each page: see PAGE_PARSE_BUDGET_MS).
import { parentPort } from 'node:worker_threads'
import { parsePage } from './parse-page.ts'
import { snippetResolver } from './snippets.ts'
import { couldNotRead, type LeftOut, type WorkerReply, type WorkerRequest } from './parse-workers.ts'
import type { ParsedPage } from './parse-page.ts'

let snippet: ReturnType<typeof snippetResolver> | undefined
let resolved: string[] = []
const reply = (message: WorkerReply) => parentPort!.postMessage(message)

parentPort!.on('message', (request: WorkerRequest) => {
  if ('imported' in request) {
    const files = new Map(request.imported)
    snippet = snippetResolver(
      (file) => files.get(file),
      (file) => resolved.push(file),
    )
    return reply({ ready: true })
  }
  for (const [file, path, text] of request.batch) {
    let page: ParsedPage | LeftOut
    try {
      page = parsePage(path, text, { snippet: snippet!(file) })
    } catch (error) {
      // A page that cannot be read is left out (see readDocsSite), where throwing failed every page after it.
      page = couldNotRead(error)
    }
    reply({ page, imports: resolved })
    resolved = []
  }
})
