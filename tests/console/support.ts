import { CONSOLE_HEADER } from '../../shared/console.ts'

/** Signs in to the console of a test Docent and returns the session cookie (`docent_session=...`). */
export async function signIn(app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> }, key: string) {
  const response = await app.request('/console/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CONSOLE_HEADER]: '1' },
    body: JSON.stringify({ key }),
  })
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`)
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!
  return { cookie, response }
}

/** Headers of a console request: the cookie, and for changes the console header. */
export const consoleHeaders = (cookie: string, change = false): Record<string, string> => ({
  cookie,
  ...(change ? { [CONSOLE_HEADER]: '1', 'content-type': 'application/json' } : {}),
})

export interface SseFrame {
  event: string
  id?: string
  data: unknown
}

/** Reads server-sent events from a response body, handing each frame to `onFrame` until it returns true or the stream ends. */
export async function readSse(response: Response, onFrame: (frame: SseFrame) => boolean | Promise<boolean>): Promise<SseFrame[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const frames: SseFrame[] = []
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return frames
    buffer += value
    let end = buffer.indexOf('\n\n')
    while (end >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      end = buffer.indexOf('\n\n')
      const fields = Object.fromEntries(
        block
          .split('\n')
          .filter((line) => line && !line.startsWith(':'))
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trimStart()]),
      )
      if (fields.data === undefined) continue
      const frame: SseFrame = { event: fields.event ?? 'message', ...(fields.id ? { id: fields.id } : {}), data: JSON.parse(fields.data) }
      frames.push(frame)
      if (await onFrame(frame)) {
        await reader.cancel()
        return frames
      }
    }
  }
}
