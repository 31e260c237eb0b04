import { describe, expect, test } from 'vitest'
import type { PageInfo } from '../search/types.ts'
import { oneLine, withoutControlCharacters } from '../keys/control-characters.ts'
import { shownMarkdown, shownPage } from './shown-text.ts'

describe('shown text', () => {
  test('control characters are left out; tab and line feed stay where text is laid out, and become spaces on one line', () => {
    const text = 'a\u0000b\u001b[31mc\u007fd\u0085e\u009bf\u202eg\u2069h\ti\nj\rk'
    expect(withoutControlCharacters(text)).toBe('ab[31mcdefgh\ti\njk')
    expect(oneLine(text)).toBe('ab[31mcdefgh i j k')
    expect(oneLine('  one \u0000 \n two  ')).toBe('one two')
    expect(oneLine(undefined)).toBe('')
    // Other text is kept as written: right-to-left text, marks, emoji.
    expect(oneLine('שלום \u200f עולם 👋 café')).toBe('שלום \u200f עולם 👋 café')
  })

  test('a page shows its title and groups on one line and its description without control characters', () => {
    const page: PageInfo = {
      path: 'a',
      url: '/a',
      title: 'T\u0000 \u001b[1m',
      description: 'line\u0007 one\nline two',
      groups: ['G\u0000', 'H\n I'],
      hidden: false,
      inContext: true,
    }
    expect(shownPage(page)).toEqual({ ...page, title: 'T [1m', description: 'line one\nline two', groups: ['G', 'H I'] })
  })

  test('a page’s markdown: its title line and the paragraph after it are cleaned, the rest stays as written', () => {
    expect(shownMarkdown('# T\u0000 \u001b[1m\n\nDe\u0000scription\nmore.\n\nBody\u0000.\n')).toBe(
      '# T [1m\n\nDescription\nmore.\n\nBody\u0000.\n',
    )
    expect(shownMarkdown('# Only\u0007')).toBe('# Only')
    expect(shownMarkdown('No\u0000 title.')).toBe('No\u0000 title.')
  })
})
