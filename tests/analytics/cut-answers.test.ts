import { afterAll, expect, test } from 'vitest'
import { bearer, json, testDocent } from '../support/app.ts'
import { readUntil, startGatedModel } from '../assistant/gated-model.ts'

// Answers that were cut off: not answered, whatever they said before the cut (the widget offers its hand-off, gaps
// take them in), and recorded even when the cut is the server stopping.

const gated = await startGatedModel()
afterAll(() => gated.close())

const question = 'How do percentage rollouts work?'
const body = { fp: 'anonymous', messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: question }] }] }
type Chunk = { type: string; messageId?: string; messageMetadata?: { resolution?: string } }
const chunksOf = (stream: string): Chunk[] =>
  stream
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)))

/** Asks, lets the model write `written`, and returns once the client has read the first text. */
async function answerUnderWay(t: Awaited<ReturnType<typeof testDocent>>, written: string) {
  const pending = t.app.request('/discovery/v2/assistant/demo/message', json(body, bearer(t.keys.assistant)))
  const turn = await gated.nextTurn()
  turn.write(written)
  const reader = (await pending).body!.getReader()
  // The model fails only once the client has its text: a failure before any text would be retried by the AI SDK.
  const before = await readUntil(reader, (text) => text.includes('"text-delta"'))
  return { turn, reader, before, messageId: chunksOf(before)[0]!.messageId! }
}

test('an answer the model failed mid-way, though it cites a source, is unanswered on finish and in analytics', async () => {
  const t = await testDocent({ model: { provider: 'openai', id: 'gated', baseURL: gated.baseURL } })
  try {
    const { turn, reader, before, messageId } = await answerUnderWay(t, 'Rollouts are sticky [1] and')
    turn.drop()
    const chunks = chunksOf(before + (await readUntil(reader, () => false)))
    expect(chunks.map((chunk) => chunk.type)).toContain('error')
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', messageMetadata: { resolution: 'unanswered' } })
    await t.docent.context.analytics.flush()
    expect(await t.store.getTurn('demo', messageId)).toMatchObject({ response: 'Rollouts are sticky [1] and', resolution: 'unanswered' })
  } finally {
    await t.docent.stop()
  }
})

test('an answer the reader left mid-way keeps what it said: answered when it cites a source', async () => {
  const t = await testDocent({ model: { provider: 'openai', id: 'gated', baseURL: gated.baseURL } })
  try {
    const { turn, reader, messageId } = await answerUnderWay(t, 'Rollouts are sticky per user [1].')
    await reader.cancel()
    await turn.closed
    await t.docent.context.analytics.flush()
    expect(await t.store.getTurn('demo', messageId)).toMatchObject({
      response: 'Rollouts are sticky per user [1].',
      resolution: 'answered',
    })
  } finally {
    await t.docent.stop()
  }
})

test('an answer cut off by the server stopping keeps its analytics row, unanswered', async () => {
  const t = await testDocent({ model: { provider: 'openai', id: 'gated', baseURL: gated.baseURL } })
  const { reader, before, messageId } = await answerUnderWay(t, 'Rollouts are ')
  // The reader reads on while the server stops, as a live connection would.
  const rest = readUntil(reader, () => false)
  await t.docent.stop()
  expect(before + (await rest)).toContain('restarting')
  expect(await t.store.getTurn('demo', messageId)).toMatchObject({ response: 'Rollouts are ', resolution: 'unanswered' })
})
