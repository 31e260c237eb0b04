import { expect, test } from 'vitest'
import { correctSpelling } from '../models/spelling.ts'
import { closesFence, openingFence, splitFencedCode } from './code-fences.ts'

// Docs about docs show markdown inside a longer fence: the inner ``` opens and closes nothing.
const NESTED = ['Show it:', '````mdx Format', '```ts twoslash', 'type Pet = "cat"', '```', '````', 'After the example.'].join('\n')

test('a fence closes only on a run of its own character at least as long, with nothing after it', () => {
  const backticks = openingFence('````mdx Format')!
  expect(backticks.marker).toBe('````')
  expect(closesFence('```', backticks)).toBe(false)
  expect(closesFence('```ts', backticks)).toBe(false)
  expect(closesFence('~~~~', backticks)).toBe(false)
  expect(closesFence('  `````  ', backticks)).toBe(true)
  const tildes = openingFence('    ~~~ yaml')!
  expect(closesFence('```', tildes)).toBe(false)
  expect(closesFence('~~~', tildes)).toBe(true)
  // Inline code that starts a line is not a fence; neither is a run of two.
  expect(openingFence('```inline``` code')).toBeUndefined()
  expect(openingFence('`` two ``')).toBeUndefined()
})

test('a fence is found in time linear in its line, however long its run of backticks or tildes', () => {
  const backticks = '`'.repeat(100_000)
  const tildes = '~'.repeat(100_000)
  expect(openingFence(`  ${backticks} js`)).toEqual({ marker: backticks })
  expect(openingFence(`${tildes} a\`b`)).toEqual({ marker: tildes })
  expect(openingFence(`${backticks} a\`b`)).toBeUndefined()
  expect(openingFence(`${backticks}\u2028`)).toBeUndefined()
})

test('a page saved with CRLF line endings keeps its code blocks: the `\r` that ends a line is its line ending', () => {
  expect(openingFence('```js\r')).toEqual({ marker: '```' })
  expect(openingFence('~~~\r')).toEqual({ marker: '~~~' })
  expect(openingFence('```js\r\r')).toBeUndefined()
  expect(splitFencedCode('Text\r\n```js\r\nconst a = 1\r\n```\r\nAfter\r')).toEqual([
    { code: false, text: 'Text\r' },
    { code: true, text: '```js\r\nconst a = 1\r\n```\r' },
    { code: false, text: 'After\r' },
  ])
})

test('markdown cut into prose and code runs joins back to itself; an unclosed fence runs to the end', () => {
  expect(splitFencedCode(NESTED)).toEqual([
    { code: false, text: 'Show it:' },
    { code: true, text: '````mdx Format\n```ts twoslash\ntype Pet = "cat"\n```\n````' },
    { code: false, text: 'After the example.' },
  ])
  const unclosed = 'Text\n~~~\ncode\n```\nstill code'
  expect(splitFencedCode(unclosed).map((run) => run.code)).toEqual([false, true])
  for (const markdown of [NESTED, unclosed, '', '```\n```\n```\n```'])
    expect(
      splitFencedCode(markdown)
        .map((run) => run.text)
        .join('\n'),
    ).toBe(markdown)
})

test('spelling is corrected in prose around a nested example, never inside it', () => {
  const text = ['Teh intro.', '````md', '```js', 'const teh = 1', '```', 'teh inner prose is code too', '````', 'Teh end.'].join('\n')
  expect(correctSpelling(text, [['teh', 'the']])).toBe(text.replace('Teh intro', 'The intro').replace('Teh end', 'The end'))
})
