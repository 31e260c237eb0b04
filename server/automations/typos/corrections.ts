import type { Speller } from './speller.ts'

const VOWELS = new Set('aeiouy')
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'

/** Vowels written for one another in unstressed syllables (`seperate`, `dependancy`, `definately`, `privelege`). */
const CONFUSED = new Set(['ae', 'ea', 'ei', 'ie', 'ai', 'ia'])

/**
 * How unlikely a slip turns `intended` into `written`, in edits weighted by how people misspell: swapped neighbours
 * (`recieve`), a doubled or undoubled letter (`occured`, `untill`) cost 0.5; a vowel left out or added (`truely`,
 * `happend`) or written for a vowel it sounds like (`seperate`) 0.75; any other letter 1.
 */
export function slipCost(written: string, intended: string): number {
  const a = written
  const b = intended
  const rows: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = 1; i <= a.length; i++) rows[i]![0] = rows[i - 1]![0]! + extraCost(a, i - 1)
  for (let j = 1; j <= b.length; j++) rows[0]![j] = rows[0]![j - 1]! + extraCost(b, j - 1)
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const x = a[i - 1]!
      const y = b[j - 1]!
      const substitution = x === y ? 0 : CONFUSED.has(x + y) ? 0.75 : 1
      let cost = Math.min(
        rows[i - 1]![j]! + extraCost(a, i - 1),
        rows[i]![j - 1]! + extraCost(b, j - 1),
        rows[i - 1]![j - 1]! + substitution,
      )
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y && x !== y) cost = Math.min(cost, rows[i - 2]![j - 2]! + 0.5)
      rows[i]![j] = cost
    }
  }
  return rows[a.length]![b.length]!
}

/** Cost of the letter at `index` being one too many in `word` (or, seen from the other word, one missing). */
function extraCost(word: string, index: number): number {
  const letter = word[index]!
  if (word[index - 1] === letter || word[index + 1] === letter) return 0.5
  return VOWELS.has(letter) ? 0.75 : 1
}

/** Dictionary words one edit (delete, swap, replace, insert) from a lower-case word. */
export function oneEditAway(word: string, speller: Speller): Set<string> {
  const found = new Set<string>()
  const check = (candidate: string) => {
    if (candidate.length > 1 && candidate !== word && !found.has(candidate) && speller.correct(candidate)) found.add(candidate)
  }
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i)
    const tail = word.slice(i)
    if (tail) check(head + tail.slice(1))
    if (tail.length > 1) check(head + tail[1] + tail[0] + tail.slice(2))
    for (const letter of LETTERS) {
      if (tail && letter !== tail[0]) check(head + letter + tail.slice(1))
      check(head + letter + tail)
    }
  }
  return found
}
