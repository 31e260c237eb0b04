import { editDistance } from '../search/edit-distance.ts'

/** 1 for equal strings, 0 for nothing in common: one minus the edit distance over the longer length. */
export function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length)
  return longest === 0 ? 1 : 1 - editDistance(a, b) / longest
}

/** Lower-case letters and digits only: `Quick-Start` and `quickstart` are the same name. */
export function squash(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '')
}

/** Lower-case words of a name or title (`custom-domain`, `Custom domains` → custom, domain(s)). */
export function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
}

/** Dice coefficient of two texts' word sets, a plural `s` ignored: 1 when they use the same words. */
export function wordOverlap(a: string, b: string): number {
  const left = new Set(words(a).map(singular))
  const right = new Set(words(b).map(singular))
  if (left.size === 0 || right.size === 0) return 0
  let shared = 0
  for (const word of left) if (right.has(word)) shared++
  return (2 * shared) / (left.size + right.size)
}

const singular = (word: string) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word)
