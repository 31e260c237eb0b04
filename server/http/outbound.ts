// What every call Docent makes to another server (git, a pull-request API, the model) does with the answer.

/** A redirect answer: its status (fetch with `redirect: 'manual'`), or an opaque one where a runtime hides it. */
export const isRedirect = (response: Response): boolean =>
  response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)

/**
 * The stream, failing with `tooLarge()` once more than `limit` bytes have passed; the source is then cancelled, which
 * closes the connection. An endless answer is refused rather than read into memory.
 */
export function boundedStream(stream: ReadableStream<Uint8Array>, limit: number, tooLarge: () => Error): ReadableStream<Uint8Array> {
  let size = 0
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength
        if (size > limit) controller.error(tooLarge())
        else controller.enqueue(chunk)
      },
    }),
  )
}
