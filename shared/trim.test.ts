import { describe, expect, test } from 'vitest'
import { beforeFirst, C0_CONTROL_OR_SPACE, trimBoth, trimEnd, trimStart, WHITESPACE } from './trim.ts'

describe('trimming', () => {
  test('cuts the given characters off the ends, and only those', () => {
    expect(trimEnd('https://docs.test///', '/')).toBe('https://docs.test')
    expect(trimEnd('eyJhIjoxfQ==', '=')).toBe('eyJhIjoxfQ')
    expect(trimStart('//guides/a/', '/')).toBe('guides/a/')
    expect(trimBoth('/docs/', '/')).toBe('docs')
    expect(trimBoth('///', '/')).toBe('')
    expect(trimBoth('', '/')).toBe('')
    expect(trimBoth(' \u0000 a b \t', ' \t\u0000')).toBe('a b')
  })

  test('a URL without its query and fragment', () => {
    expect(beforeFirst('/guides/a?x=1#top', '?#')).toBe('/guides/a')
    expect(beforeFirst('/guides/a#top?x', '?#')).toBe('/guides/a')
    expect(beforeFirst('/guides/a', '?#')).toBe('/guides/a')
    expect(beforeFirst('#top', '#')).toBe('')
  })

  test('long runs that do not end the text are read once (the regular expressions these replace backtracked over them)', () => {
    const slashes = '/'.repeat(200_000)
    expect(trimEnd(`${slashes}a/`, '/')).toBe(`${slashes}a`)
    expect(trimBoth(`a${slashes}b`, '/')).toBe(`a${slashes}b`)
    expect(beforeFirst(`a${'#'.repeat(200_000)}\n#`, '?#')).toBe('a')
  })

  test('the character sets are those the regular expression and the URL parser use', () => {
    const units = Array.from({ length: 0x10000 }, (_, code) => String.fromCharCode(code))
    expect(units.filter((unit) => /\s/.test(unit)).join('')).toBe(WHITESPACE)
    expect(units.filter((unit) => unit <= ' ').join('')).toBe(C0_CONTROL_OR_SPACE)
  })
})
