import { describe, expect, test } from 'vitest'
import { linkPieces, readerText } from './format.ts'

describe('reader text', () => {
  test('direction overrides, embeddings and isolates are left out, so the text shows as typed; right-to-left script stays', () => {
    // "gnp.exe" after RIGHT-TO-LEFT OVERRIDE displays as "exe.png": a question could pass for another.
    expect(readerText('kayak \u202egnp.exe\u202c rental')).toBe('kayak gnp.exe rental')
    expect(readerText('\u2067isolated\u2069 \u202aembedded\u202c \u202doverride\u202c')).toBe('isolated embedded override')
    expect(readerText('כיצד מתקינים את ה-SDK?')).toBe('כיצד מתקינים את ה-SDK?')
    // Marks that only say which way a neutral character goes reorder nothing: they stay.
    expect(readerText('a\u200fb\u200ec')).toBe('a\u200fb\u200ec')
  })
})

describe('answer links', () => {
  test('markdown links become label and address; only http(s) ones are links; other text is kept as written', () => {
    expect(linkPieces('See [Flags](https://docs.acme.com/flags#list) and [x](javascript:alert(1)) or [y](/local).')).toEqual([
      'See ',
      { label: 'Flags', href: 'https://docs.acme.com/flags#list' },
      ' and [x](javascript:alert(1)) or ',
      'y',
      '.',
    ])
    expect(linkPieces('no links [here] (really)')).toEqual(['no links [here] (really)'])
    expect(linkPieces('[](https://a.example/b)')).toEqual([{ label: 'https://a.example/b', href: 'https://a.example/b' }])
    expect(linkPieces('[run](javascript:void0)')).toEqual(['run'])
  })
})
