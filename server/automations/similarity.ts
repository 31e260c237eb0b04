/**
 * Edit distance with adjacent transpositions (optimal string alignment): `quickstrat` → `quickstart` is one edit,
 * as a person sees it, not two. `max` stops early: past it the exact figure does not matter and `max + 1` is returned.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0
  if (Math.abs(a.length - b.length) > max) return max + 1
  let before = new Array<number>(b.length + 1).fill(0)
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  let current = new Array<number>(b.length + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    current[0] = i
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1)
      current[j] = value
      if (value < rowMin) rowMin = value
    }
    if (rowMin > max) return max + 1
    ;[before, previous, current] = [previous, current, before]
  }
  return previous[b.length]!
}

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
