import { createServer, type ServerResponse } from 'node:http'
import { closeServer, listenLocal } from '../support/local-http.ts'

/**
 * An OpenAI-compatible chat-completions server whose streamed replies the test writes by hand, chunk by chunk, so a
 * test can fail or stall the model at an exact point of the answer (after the client has seen some text).
 */
export interface GatedTurn {
  /** The chat request the model received. */
  request: { messages: Array<{ role: string; content: unknown }> }
  write(text: string): void
  /** Writes these bytes as they are: a garbled stream. */
  writeRaw(data: string): void
  /** Drops the connection mid-answer, as a crashing model server would. */
  drop(): void
  /** Ends the answer with this finish reason (`length`: the model reached max_tokens). */
  end(finishReason?: string): void
  /** Resolves when the caller (Docent) closes the connection. */
  closed: Promise<void>
}

export async function startGatedModel() {
  const turns: GatedTurn[] = []
  const waiting: Array<(turn: GatedTurn) => void> = []
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      const base = { id: 'chatcmpl-gated', object: 'chat.completion.chunk', created: 0, model: 'gated' }
      const send = (delta: Record<string, unknown>, finish: string | null = null) =>
        res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`)
      send({ role: 'assistant', content: '' })
      const turn: GatedTurn = {
        request: JSON.parse(body),
        write: (text) => void send({ content: text }),
        writeRaw: (data) => void res.write(data),
        drop: () => void res.socket?.destroy(),
        end: (finishReason = 'stop') => {
          send({}, finishReason)
          end(res)
        },
        closed: new Promise((resolve) => res.on('close', () => resolve())),
      }
      const waiter = waiting.shift()
      if (waiter) waiter(turn)
      else turns.push(turn)
    })
  })
  const url = await listenLocal(server)
  return {
    baseURL: `${url}/v1`,
    /** The next request the model receives. */
    nextTurn: () => new Promise<GatedTurn>((resolve) => (turns.length > 0 ? resolve(turns.shift()!) : waiting.push(resolve))),
    close: () => closeServer(server),
  }
}

function end(res: ServerResponse) {
  res.end('data: [DONE]\n\n')
}

/** Reads the response until `seen` matches what was read so far (or until it ends). */
export async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, seen: (text: string) => boolean): Promise<string> {
  const decoder = new TextDecoder()
  let text = ''
  while (!seen(text)) {
    const { done, value } = await reader.read()
    if (done) break
    text += decoder.decode(value, { stream: true })
  }
  return text
}
