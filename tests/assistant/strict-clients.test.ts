import { readFileSync } from 'node:fs'
import * as ai7 from 'ai'
import * as ai5 from 'ai-v5'
import * as ai6 from 'ai-v6'
import { describe, expect, test } from 'vitest'
import { type ChatModule, chatOf, serveTestDocent, sourcesOf, textOf } from './support.ts'

// The client strictness boundary of API.md ("Stream details"): ai 5.0.0–5.0.216, 6.0.0–6.0.230 and 7.0.0–7.0.31 parse
// UI message chunks with strict objects and reject the contract's top-level `threadId` on `finish`; later versions
// accept it. The installed clients are on the accepting side (checked below); the strict side is checked two ways:
// the chunk shapes of ai@5.0.216 (copied from its dist, `uiMessageChunkSchema`) against our real stream, always; and
// a real strict client, ai@5.0.216 (installed as `ai-v5-strict`), beside ai@5.0.217 (`ai-v5-boundary`), the first that
// accepts; DOCENT_STRICT_AI may add more (comma-separated paths to unpacked `ai@6.0.230` / `ai@7.0.31` dist entries).

const version = (name: string) => JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')).version as string
const atLeast = (v: string, min: string) => {
  const [a, b] = [v, min].map((s) => s.split('.').map(Number))
  for (let i = 0; i < 3; i++) if (a![i] !== b![i]) return a![i]! > b![i]!
  return true
}

const served = serveTestDocent()

async function streamOf(question: string) {
  const response = await fetch(`${served.url}/discovery/v2/assistant/demo/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${served.keys.assistant}` },
    body: JSON.stringify({ fp: 'anonymous', messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: question }] }] }),
  })
  return (await response.text())
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>)
}

test('the installed clients are all on the accepting side of the boundary', () => {
  expect(atLeast(version('ai-v5'), '5.0.217')).toBe(true)
  expect(atLeast(version('ai-v6'), '6.0.231')).toBe(true)
  expect(atLeast(version('ai'), '7.0.32')).toBe(true)
})

describe.each([
  ['ai@5', ai5],
  ['ai@6', ai6],
  ['ai@7', ai7],
] as const)('%s validates every chunk we send', (_name, ai) => {
  test('uiMessageChunkSchema accepts each chunk, including finish with its top-level threadId', async () => {
    const chunks = await streamOf('How do percentage rollouts work?')
    const schema = ai.uiMessageChunkSchema() as unknown as { validate(value: unknown): Promise<{ success: boolean }> }
    for (const chunk of chunks) expect({ chunk, ok: (await schema.validate(chunk)).success }).toEqual({ chunk, ok: true })
  })
})

/** The strict chunk objects of ai@5.0.216 that we use, key by key (`z.strictObject`): anything else is rejected. */
const STRICT_KEYS: Record<string, { required: string[]; optional: string[] }> = {
  start: { required: ['type'], optional: ['messageId', 'messageMetadata'] },
  'source-url': { required: ['type', 'sourceId', 'url'], optional: ['title', 'providerMetadata'] },
  'text-start': { required: ['type', 'id'], optional: ['providerMetadata'] },
  'text-delta': { required: ['type', 'id', 'delta'], optional: ['providerMetadata'] },
  'text-end': { required: ['type', 'id'], optional: ['providerMetadata'] },
  error: { required: ['type', 'errorText'], optional: [] },
  finish: { required: ['type'], optional: ['messageMetadata'] },
}
const strictlyValid = (chunk: Record<string, unknown>) => {
  const shape = STRICT_KEYS[chunk.type as string]
  if (!shape) return false
  const keys = Object.keys(chunk)
  return (
    shape.required.every((key) => keys.includes(key)) && keys.every((key) => shape.required.includes(key) || shape.optional.includes(key))
  )
}

test('for strict clients, finish is the only chunk they reject, and only for its top-level threadId; the thread id also rides in messageMetadata', async () => {
  const chunks = await streamOf('How do percentage rollouts work?')
  const rejected = chunks.filter((chunk) => !strictlyValid(chunk))
  expect(rejected).toEqual([
    { type: 'finish', threadId: expect.any(String), messageMetadata: { threadId: rejected[0]?.threadId, resolution: 'answered' } },
  ])
  const { threadId: _dropped, ...portable } = rejected[0]!
  expect(strictlyValid(portable)).toBe(true)
  expect(chunks[0]).toMatchObject({ type: 'start', messageMetadata: { threadId: rejected[0]!.threadId } })
  // ai 5.0.0–5.0.91 also reject finishReason on finish: we never send it.
  expect(chunks.some((chunk) => 'finishReason' in chunk)).toBe(false)
})

// ai@5.0.216 (the last strict 5.x) is installed as `ai-v5-strict`; DOCENT_STRICT_AI may add unpacked 6.0.230 / 7.0.31.
const strictClients = ['ai-v5-strict', ...(process.env.DOCENT_STRICT_AI ?? '').split(',').filter(Boolean)]
describe.each(strictClients)('a real strict client: %s', (path) => {
  test('gets the text, the sources and message.metadata.threadId, then fails on finish with a type validation error', async () => {
    const ai = (await import(/* @vite-ignore */ path)) as ChatModule
    const chat = chatOf(ai, {
      api: `${served.url}/discovery/v2/assistant/demo/message`,
      key: served.keys.assistant,
      body: () => ({ fp: 'anonymous' }),
    })
    await chat.sendMessage({ text: 'How do percentage rollouts work?' })
    const answer = chat.messages.at(-1)
    expect(chat.status).toBe('error')
    expect(chat.error?.name).toMatch(/TypeValidationError/)
    expect(chat.error?.message).toMatch(/threadId|Unrecognized key/)
    expect(textOf(answer)).toMatch(/percentage rollout/i)
    expect(sourcesOf(answer).length).toBeGreaterThan(0)
    expect((answer?.metadata as { threadId?: string }).threadId).toMatch(/^thr_/)
  })
})
test('the boundary: ai@5.0.216 is strict and ai@5.0.217, the first accepting release, completes the chat with the thread id', async () => {
  expect(version('ai-v5-strict')).toBe('5.0.216')
  expect(version('ai-v5-boundary')).toBe('5.0.217')
  const ai = (await import('ai-v5-boundary')) as unknown as ChatModule
  const chat = chatOf(ai, {
    api: `${served.url}/discovery/v2/assistant/demo/message`,
    key: served.keys.assistant,
    body: () => ({ fp: 'anonymous' }),
  })
  await chat.sendMessage({ text: 'How do percentage rollouts work?' })
  const answer = chat.messages.at(-1)
  expect(chat.status).toBe('ready')
  expect(textOf(answer)).toMatch(/percentage rollout/i)
  expect(sourcesOf(answer).length).toBeGreaterThan(0)
  expect((answer?.metadata as { threadId?: string }).threadId).toMatch(/^thr_/)
})
