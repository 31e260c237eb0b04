import { expect, test } from 'vitest'
import { internalLinks, withoutInternalLinks } from './markdown-links.ts'

test('links to pages of the same docs are found and left out; links elsewhere stay', () => {
  const text =
    'Configure [Cursor](/guides/cursor), [Codex](../codex) and [the steps below](#install). See [ReadMe docs](https://docs.readme.com/main) or [mail us](mailto:help@example.com).'
  expect(internalLinks(text)).toEqual(['[Cursor](/guides/cursor)', '[Codex](../codex)', '[the steps below](#install)'])
  const left = withoutInternalLinks(text)
  expect(left).not.toMatch(/Cursor|Codex|steps below/)
  expect(left).toContain('[ReadMe docs](https://docs.readme.com/main)')
  expect(left).toContain('[mail us](mailto:help@example.com)')
  // Prose in brackets is not a link, and a text with no link is returned as is.
  expect(withoutInternalLinks('a [note] (see below)')).toBe('a [note] (see below)')
  expect(internalLinks('no links here')).toEqual([])
})

test('reading links stays linear on a long run of openings', () => {
  const hostile = '[a]('.repeat(50_000) + ']('.repeat(50_000)
  expect(internalLinks(hostile)).toEqual([])
  expect(withoutInternalLinks(hostile)).toBe(hostile)
})
