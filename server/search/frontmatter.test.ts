import { expect, test } from 'vitest'
import { readFrontmatter, simpleYaml } from './frontmatter.ts'

test('simple frontmatter is read without the YAML parser, the blanks after a value cut', () => {
  expect(simpleYaml('title: Hello \t\ndescription: "Quoted"  \nhidden: true \ntags: ["a", "b"]\t')).toEqual({
    title: 'Hello',
    description: 'Quoted',
    hidden: true,
    tags: ['a', 'b'],
  })
  // Nothing but blanks after the colon, or a line break in the value: left to the YAML parser.
  expect(simpleYaml('title:   ')).toBeUndefined()
  expect(simpleYaml('title: a\u2028b')).toBeUndefined()
})

test('a line of 100,000 tabs is read in time linear in it', () => {
  // The pattern this replaces tried every split of the tabs between its parts: 3,000 and a `\r` took 12 s.
  const tabs = '\t'.repeat(100_000)
  expect(simpleYaml(`title:${tabs}\r`)).toBeUndefined()
  expect(simpleYaml(`title: Intro${tabs}`)).toEqual({ title: 'Intro' })
  expect(simpleYaml(`title:${tabs}x${tabs}#`)).toBeUndefined()
})

test("a page's search boost is a positive number up to 10, written as a number or as text; anything else is none", () => {
  expect(readFrontmatter('boost: 3').boost).toBe(3)
  expect(readFrontmatter('boost: "0.5"').boost).toBe(0.5)
  expect(readFrontmatter('title: A\nboost: 10').boost).toBe(10)
  for (const value of ['0', '-2', '11', 'high', '""', 'true', '[2]']) expect(readFrontmatter(`boost: ${value}`).boost).toBeUndefined()
  expect(readFrontmatter('title: A').boost).toBeUndefined()
})
