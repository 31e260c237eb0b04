import { generateText, streamText } from 'ai'
import { describe, expect, test } from 'vitest'
import { systemPrompt } from '../assistant/system-prompt.ts'
import { NOT_COVERED } from './extractive-answer.ts'
import { offlineAnswerModel } from './offline-answer.ts'
import { parseSourceBlocks, type SourceBlock } from './source-blocks.ts'

const sources: SourceBlock[] = [
  {
    id: 1,
    title: 'Contexts › Anatomy of a context',
    url: 'https://docs.example.com/concepts/contexts#anatomy',
    content:
      'A context is the subject of a flag evaluation.\n\nA context can have at most **100 attributes**, and each string value can be at most 1 KB.',
  },
  {
    id: 2,
    title: 'Percentage rollouts',
    url: 'https://docs.example.com/guides/percentage-rollouts',
    content:
      'A **percentage rollout** serves variations to a share of your contexts.\n\nTo start a rollout, run:\n\n```bash\nlumen flags rollout new-checkout --percent 10\n```\n\nRamping up is sticky.',
  },
]

const ask = (question: string, blocks = sources, extra: Partial<Parameters<typeof systemPrompt>[0]> = {}) =>
  streamText({
    model: offlineAnswerModel(),
    instructions: systemPrompt({ docsName: 'Lumen Flags', sources: blocks, ...extra }),
    messages: [{ role: 'user', content: question }],
  })

describe('offline-answer model', () => {
  test('is an AI SDK v4-spec language model', () => {
    const model = offlineAnswerModel()
    expect(model.specificationVersion).toBe('v4')
    expect(model.modelId).toBe('offline-answer')
  })

  test('answers with the most relevant sentence of the sources, cited, streamed in several deltas', async () => {
    const result = ask('How many attributes can a context have?')
    const deltas: string[] = []
    for await (const delta of result.textStream) deltas.push(delta)
    const text = deltas.join('')
    expect(deltas.length).toBeGreaterThan(3)
    expect(text).toContain('A context can have at most **100 attributes**, and each string value can be at most 1 KB. [1]')
    expect(text).not.toContain('rollout')
    expect(text).toContain('[1] [Contexts › Anatomy of a context](https://docs.example.com/concepts/contexts#anatomy)')
    expect(await result.finishReason).toBe('stop')
  })

  test('quotes the code a "how do I" sentence introduces', async () => {
    const { text } = await generateText({
      model: offlineAnswerModel(),
      instructions: systemPrompt({ docsName: 'Lumen Flags', sources }),
      prompt: 'How do I start a percentage rollout?',
    })
    expect(text).toContain('To start a rollout, run: [2]')
    expect(text).toContain('```bash\nlumen flags rollout new-checkout --percent 10\n```')
  })

  test('says the docs do not cover a question the sources miss, and when there are no sources', async () => {
    expect(await ask('How do I bake a chocolate cake?').text).toMatch(
      new RegExp(`^${NOT_COVERED} I found nothing about "bake chocolate cake"`),
    )
    const none = await ask('How many attributes can a context have?', []).text
    expect(none.startsWith(NOT_COVERED)).toBe(true)
  })

  test('uses the standalone question of a follow-up instead of the bare last message', async () => {
    const text = await ask('and its limit?', sources, { standalone: 'How many attributes can a context have? and its limit?' }).text
    expect(text).toContain('100 attributes')
  })

  test('stops when aborted', async () => {
    let total = 0
    for await (const _ of ask('How many attributes can a context have?').textStream) total++
    const abort = new AbortController()
    const result = streamText({
      model: offlineAnswerModel(),
      instructions: systemPrompt({ docsName: 'Lumen Flags', sources }),
      prompt: 'How many attributes can a context have?',
      abortSignal: abort.signal,
    })
    let deltas = 0
    for await (const part of result.stream) {
      if (part.type === 'text-delta' && ++deltas === 2) abort.abort()
    }
    // streamText reads a little ahead; what matters is that the model stopped well before its end.
    expect(deltas).toBeLessThan(total - 2)
  })
})

test('source blocks survive the round trip through the prompt, including quotes and a literal </source>', () => {
  const tricky: SourceBlock[] = [
    {
      id: 1,
      title: 'Say "hi" & <b>',
      url: 'https://x.test/a?b="c"',
      content: 'Text with </source> inside.\nSecond line.',
    },
  ]
  expect(parseSourceBlocks(systemPrompt({ docsName: 'X', sources: tricky }))).toEqual(tricky)
})
