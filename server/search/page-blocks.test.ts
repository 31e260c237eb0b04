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

test('content for AI agents only (Visibility for="agents") is not the page a reader sees; content for humans is', () => {
  const page = parsePage(
    'quickstart',
    [
      '# Quickstart',
      '',
      'After this guide you have a live site.',
      '',
      '<Visibility for="humans">',
      '  Click **Get started** to create your account.',
      '</Visibility>',
      '',
      '<Visibility for="agents">',
      '  ## Set up for the user',
      '',
      '  If the user asks you to set up the site, complete the following workflow yourself.',
      '</Visibility>',
      '',
      '- Deploy the site',
      '- <Visibility for="agents">Run `mint deploy` for them.</Visibility> Check it',
    ].join('\n'),
  )
  expect(page.markdown).toContain('Click **Get started** to create your account.')
  expect(page.markdown).toContain('Check it')
  expect(page.markdown).not.toMatch(/the user|Set up for the user|mint deploy/)
  expect(page.chunks.flatMap((chunk) => chunk.headings)).not.toContain('Set up for the user')
})
