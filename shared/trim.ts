/**
 * Cutting characters off a text's ends, in time linear in the text. The regular expressions these replace are not:
 * `/\/+$/` is tried at every slash of a run that does not end the text and reads the rest of the run each time, so
 * 16,000 slashes and a letter took 0.23 s (V8, Node 20), and `/[?#].*$/` on 16,000 `#` and a newline 0.33 s. Paths,
 * URLs and cursors come from requests, so each of those was a way to hold the server.
 */

/** `text` without the characters of `characters` at its end (`trimEnd(url, '/')`). */
export function trimEnd(text: string, characters: string): string {
  let end = text.length
  while (end > 0 && characters.includes(text[end - 1]!)) end--
  return text.slice(0, end)
}

/** `text` without the characters of `characters` at its start. */
export function trimStart(text: string, characters: string): string {
  let start = 0
  while (start < text.length && characters.includes(text[start]!)) start++
  return text.slice(start)
}

/** `text` without the characters of `characters` at either end (`trimBoth(path, '/')`). */
export function trimBoth(text: string, characters: string): string {
  return trimStart(trimEnd(text, characters), characters)
}

/** The characters of a regular expression's `\s`: the whitespace `String.prototype.trim` also removes. */
export const WHITESPACE =
  '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'

/** What the URL parser strips from a URL's ends: the C0 controls and the space (U+0000 to U+0020). */
export const C0_CONTROL_OR_SPACE = Array.from({ length: 0x21 }, (_, code) => String.fromCharCode(code)).join('')

/** `text` up to the first of `characters`, or all of it (`beforeFirst(url, '?#')`: a URL without query and fragment). */
export function beforeFirst(text: string, characters: string): string {
  for (let index = 0; index < text.length; index++) if (characters.includes(text[index]!)) return text.slice(0, index)
  return text
}
