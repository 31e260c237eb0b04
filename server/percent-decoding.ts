/**
 * A text percent-decoded once (`a%20b` → `a b`), or as it is when it is not valid percent-encoding (`100%`): what a
 * path, an anchor or a header value that may be encoded is compared as.
 */
export function decodedOnce(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
