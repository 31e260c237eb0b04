import { splitFencedCode } from '../search/code-fences.ts'

/** Corrects whole-word misspellings outside fenced code, keeping the capitalization of each occurrence. */
export function correctSpelling(content: string, words: Array<[string, string]>): string {
  return splitFencedCode(content)
    .map(({ code, text }) => {
      if (code) return text
      let out = text
      for (const [wrong, right] of words) {
        const pattern = new RegExp(`(?<![\\p{L}\\p{N}_/.-])${escapeRegExp(wrong)}(?![\\p{L}\\p{N}_])`, 'giu')
        out = out.replace(pattern, (found) => matchCase(found, right))
      }
      return out
    })
    .join('\n')
}

function matchCase(found: string, right: string): string {
  if (found.length > 1 && found === found.toUpperCase()) return right.toUpperCase()
  if (found[0] === found[0]!.toUpperCase()) return right.charAt(0).toUpperCase() + right.slice(1)
  return right
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
