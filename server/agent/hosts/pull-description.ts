/** `body` with `addition` appended after a blank line, unless it is already there (a retried run appends nothing). */
export function appendOnce(body: string, addition: string | null): string {
  if (!addition || body.includes(addition.trim())) return body
  return body.trim() ? `${body.trimEnd()}\n\n${addition.trim()}` : addition.trim()
}
