// A worker thread of parse-workers.ts: takes the files pages import, then parses the batches of pages it is sent and
// posts back the parsed pages and the imported files it looked up.
import { parentPort } from 'node:worker_threads'
import { parsePage } from './parse-page.ts'
import { snippetResolver } from './snippets.ts'
import type { WorkerReply, WorkerRequest } from './parse-workers.ts'

let snippet: ReturnType<typeof snippetResolver> | undefined
let resolved: string[] = []

parentPort!.on('message', (request: WorkerRequest) => {
  if ('imported' in request) {
    const files = new Map(request.imported)
    snippet = snippetResolver(
      (file) => files.get(file),
      (file) => resolved.push(file),
    )
    return
  }
  const pages = request.batch.map(([file, path, text]) => {
    try {
      return parsePage(path, text, { snippet: snippet!(file) })
    } catch {
      // A page that cannot be read is left out (see readDocsSite): null says so, where throwing failed every batch.
      return null
    }
  })
  const reply: WorkerReply = { pages, imports: resolved }
  resolved = []
  parentPort!.postMessage(reply)
})
