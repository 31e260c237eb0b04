import { describe, expect, test } from 'vitest'
import { escapeDelimiterFloods, MAX_PARAGRAPH_DELIMITERS } from './delimiter-runs.ts'
import { parsePage } from './parse-page.ts'

describe('paragraphs flooded with emphasis delimiters', () => {
  const flood = '*a'.repeat(MAX_PARAGRAPH_DELIMITERS + 1)

  test('only the flooded paragraph is escaped: other paragraphs, fenced code, list markers and frontmatter stay as written', () => {
    const page = [
      '---',
      `title: "${'*'.repeat(300)}"`,
      '---',
      '',
      'Some *emphasis* here.',
      '',
      flood,
      '',
      '```js',
      `const x = 2 ${'* 2 '.repeat(300)}`,
      '```',
      '',
      `* item ${'_'.repeat(300)}`,
      '- already \\* escaped',
    ].join('\n')
    const out = escapeDelimiterFloods(page).split('\n')
    expect(out.slice(0, 5)).toEqual(page.split('\n').slice(0, 5))
    expect(out[6]).toBe('\\*a'.repeat(MAX_PARAGRAPH_DELIMITERS + 1))
    expect(out.slice(8, 11)).toEqual(page.split('\n').slice(8, 11))
    // The list's paragraph is flooded: its marker stays a marker, the rest is escaped, an escape is not escaped twice.
    expect(out[12]).toBe(`* item ${'\\_'.repeat(300)}`)
    expect(out[13]).toBe('- already \\* escaped')
  })

  test('a page with few delimiters is returned as it is', () => {
    const page = `# T\n\n${'*a* '.repeat(MAX_PARAGRAPH_DELIMITERS / 2)}\n`
    expect(escapeDelimiterFloods(page)).toBe(page)
  })

  test('a page of nested emphasis 20,000 deep parses, its text kept as text', () => {
    // micromark paired these in quadratic time: 31 s for this page here, before.
    const page = parsePage('deep', `# Deep\n\n${'*'.repeat(10_000)}word${'*'.repeat(10_000)}\n`)
    expect(page.title).toBe('Deep')
    expect(page.markdown).toContain('word')
  })
})
