import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { FILLS, promptOfShape, VERBS } from '../../tests/agent/support/prompt-shapes.ts'
import { parseInstruction } from './edit-instructions.ts'

describe('offline editor instructions', () => {
  test.each([
    ['Replace "Lumen Flags" with "Lumen Toggles" everywhere', { kind: 'replace', from: 'Lumen Flags', to: 'Lumen Toggles', page: null }],
    [
      'please replace “Lumen Flags” with “Lumen Toggles” across the docs.',
      {
        kind: 'replace',
        from: 'Lumen Flags',
        to: 'Lumen Toggles',
        page: null,
      },
    ],
    ["Change 'sign in' to 'log in' in quickstart.mdx", { kind: 'replace', from: 'sign in', to: 'log in', page: 'quickstart.mdx' }],
    ['Replace "flag" with "toggle" in the "Quickstart" page', { kind: 'replace', from: 'flag', to: 'toggle', page: 'Quickstart' }],
    ['Rename Lumen with Lumina', { kind: 'replace', from: 'Lumen', to: 'Lumina', page: null }],
    ['Add a page titled "Rollback plans"', { kind: 'add-page', title: 'Rollback plans', group: null, body: null }],
    [
      'Create a new page called "FAQ" in the "Support" group with the text "Ask us."',
      {
        kind: 'add-page',
        title: 'FAQ',
        group: 'Support',
        body: 'Ask us.',
      },
    ],
    ['Append a section "Next steps" to quickstart', { kind: 'append-section', heading: 'Next steps', page: 'quickstart', body: null }],
    [
      'Add a section "Limits" to "Webhooks" saying: at most 10 per second',
      {
        kind: 'append-section',
        heading: 'Limits',
        page: 'Webhooks',
        body: 'at most 10 per second',
      },
    ],
    ['Fix the misspelling "recieve"', { kind: 'fix-spelling', word: 'recieve', correction: null, page: null }],
    [
      'Fix the typo "teh" -> "the" in guides/webhooks.mdx',
      {
        kind: 'fix-spelling',
        word: 'teh',
        correction: 'the',
        page: 'guides/webhooks.mdx',
      },
    ],
    ['Fix all misspellings', { kind: 'fix-spelling', word: null, correction: null, page: null }],
    ['Fix typos in quickstart', { kind: 'fix-spelling', word: null, correction: null, page: 'quickstart' }],
    ['Make the docs friendlier', { kind: 'unknown' }],
    ['Replace "a" with "b" in some page somewhere', { kind: 'unknown' }],
    ['', { kind: 'unknown' }],
  ])('%j', (prompt, intent) => {
    expect(parseInstruction(prompt)).toEqual(intent)
  })
})

// Prompts of up to 20,000 characters reach the parser on the server's event loop: whatever their shape, it reads them
// in one pass (a backtracking pattern once took 11.5 s on "replace" and 4,000 spaces).
describe('offline editor instructions: any 20,000-character prompt', () => {
  const kinds = ['replace', 'add-page', 'append-section', 'fix-spelling', 'unknown']

  test.each(VERBS.flatMap((verb) => FILLS.map((fill) => [verb, fill])))('%j followed by %j', (verb, fill) => {
    expect(kinds).toContain(parseInstruction(promptOfShape(verb!, fill!)).kind)
  })

  test('random prompts (fast-check): every one parses', () => {
    const text = fc.string({
      unit: fc.constantFrom(' ', '\t', '\n', '"', "'", '“', '”', '‘', '’', '`', 'a', 'in', 'with', 'to', ',', ':', '->'),
    })
    fc.assert(
      fc.property(fc.constantFrom(...VERBS), text, fc.integer({ min: 1_000, max: 20_000 }), (verb, fill, length) => {
        expect(kinds).toContain(parseInstruction(promptOfShape(verb, fill || ' ', length)).kind)
      }),
      { numRuns: 300 },
    )
    fc.assert(
      fc.property(fc.string({ minLength: 0, maxLength: 20_000, unit: 'binary' }), (prompt) => {
        expect(kinds).toContain(parseInstruction(prompt).kind)
      }),
      { numRuns: 100 },
    )
  })
})
