// A worker thread of parse-workers.ts: parses the batches of pages it is sent and posts the parsed pages back.
import { parentPort } from 'node:worker_threads'
import { parsePage } from './parse-page.ts'

parentPort!.on('message', (batch: Array<[path: string, text: string]>) => {
  parentPort!.postMessage(batch.map(([path, text]) => parsePage(path, text)))
})
