/**
 * A 64-bit fingerprint of a text (two 32-bit FNV-1a style hashes and the length): what the parse cache keeps of each
 * file instead of the file itself, to tell on the next load whether it changed. A changed file that kept its
 * fingerprint would go unparsed until it changed again: with 64 bits and the length, about 1 in 10^19 per change.
 */
export function fingerprint(text: string): string {
  let a = 0x811c9dc5
  let b = 0x01000193
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    a = Math.imul(a ^ code, 0x01000193)
    b = Math.imul(b ^ code, 0x5bd1e995) ^ (b >>> 15)
  }
  return `${text.length.toString(36)}.${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}`
}
