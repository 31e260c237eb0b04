import { expect, test } from 'vitest'
import { withoutFieldDefaults } from './page-blocks.ts'
import { parsePage } from './parse-page.ts'

test("a field's default is left out after the start of a line or a space, and only there", () => {
  expect(withoutFieldDefaults('limit integer\n\n1–200. Default: `50`.')).toBe('limit integer\n\n1–200. ')
  expect(withoutFieldDefaults('Default: `2`.\nNoDefault: `x`.')).toBe('\nNoDefault: `x`.')
  // Side by side, each keeps the space before it.
  expect(withoutFieldDefaults(' Default: `a`.'.repeat(100_000))).toBe(' '.repeat(100_000))
  const unclosed = `t${'\tDefault: `D'.repeat(100_000)}\n`
  expect(withoutFieldDefaults(unclosed)).toBe(unclosed)
})

test('a quoted expression is read as its text, whatever the spaces around it', () => {
  expect(parsePage('p', 'Before\n\n{ \'Single quoted\' }\n\n{"a" + b}\n\nAfter').markdown).toBe('# P\n\nBefore\n\nSingle quoted\n\nAfter\n')
  const spaces = ' '.repeat(100_000)
  expect(parsePage('p', `{${spaces}"Hello"${spaces}}`).markdown).toBe('# P\n\nHello\n')
})
