import { describe, expect, test } from 'vitest'
import { citedSources, DECLINE_PHRASE, isDecline, resolutionOf } from './decline.ts'

const sources = [
  { title: 'Flags', path: 'concepts/flags', url: 'https://d/concepts/flags' },
  { title: 'SDKs', path: 'sdks/overview', url: 'https://d/sdks/overview' },
]

describe('whether the docs answered', () => {
  test('the fixed phrase (the offline model’s, and the one the LLM is told to start with) and close paraphrases decline', () => {
    expect(DECLINE_PHRASE).toBe('The docs do not cover this question.')
    expect(isDecline(`${DECLINE_PHRASE} I found nothing about "ruby".`)).toBe(true)
    expect(isDecline('**The docs do not cover this question**; the closest page is [1].')).toBe(true)
    expect(isDecline('The Lumen Flags documentation doesn’t cover Ruby.')).toBe(true)
    expect(isDecline('Sorry, the docs do not mention a Ruby SDK.')).toBe(true)
    // Up to four words name the docs; more, and the sentence is about something else.
    expect(isDecline('The docs do not cover Ruby.')).toBe(true)
    expect(isDecline('The Acme Lumen Flags Pro documentation does not describe Ruby.')).toBe(true)
    expect(isDecline('The old v1 Lumen Flags Pro docs do not describe Ruby.')).toBe(false)
    expect(isDecline('Flags are evaluated on the server [1]. The docs do not cover this question in more depth.')).toBe(false)
    expect(isDecline('From the docs: install with npm [1]')).toBe(false)
  })

  test('citations are the [n] of the sources; an answer citing none is unanswered once complete', () => {
    expect(citedSources('See [2] and [2], also [7].', sources).map((s) => s.path)).toEqual(['sdks/overview'])
    expect(resolutionOf('Install it with npm [1].', sources, true)).toBe('answered')
    expect(resolutionOf('Install it with npm.', sources, true)).toBe('unanswered')
    expect(resolutionOf('Install it with npm.', sources, false)).toBe('answered')
    expect(resolutionOf('', sources, false)).toBe('unanswered')
    expect(resolutionOf(`${DECLINE_PHRASE} The closest page is [1].`, sources, true)).toBe('unanswered')
  })
})
