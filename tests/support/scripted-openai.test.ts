import { createOpenAI } from '@ai-sdk/openai'
import { generateText, stepCountIs, streamText, tool } from 'ai'
import { afterAll, expect, test } from 'vitest'
import { z } from 'zod'
import { startScriptedOpenAI } from './scripted-openai.ts'

const server = await startScriptedOpenAI((request) => {
  const sawToolResult = request.messages.some((message) => message.role === 'tool')
  if (request.tools) return !sawToolResult ? { toolCalls: [{ name: 'lookup', arguments: { word: 'flag' } }] } : { text: 'done after tool' }
  return { text: 'Lumen Flags evaluates flags locally.', chunkSize: 5 }
})
afterAll(() => server.close())
const model = (id: string) => createOpenAI({ baseURL: server.baseURL, apiKey: 'test' }).chat(id)

test('streams text in chunks the way @ai-sdk/openai reads them, and records the prompt', async () => {
  const result = streamText({ model: model('scripted'), prompt: 'What does Lumen do?' })
  const deltas: string[] = []
  for await (const delta of result.textStream) deltas.push(delta)
  expect(deltas.join('')).toBe('Lumen Flags evaluates flags locally.')
  expect(deltas.length).toBeGreaterThan(3)
  expect(server.promptOf(server.requests.at(-1)!)).toContain('What does Lumen do?')
})

test('answers tool calls, and sees the tool result on the next step', async () => {
  const seen: string[] = []
  const result = await generateText({
    model: model('scripted-tools'),
    prompt: 'use the tool',
    tools: {
      lookup: tool({
        inputSchema: z.object({ word: z.string() }),
        execute: async ({ word }) => (seen.push(word), `definition of ${word}`),
      }),
    },
    stopWhen: stepCountIs(3),
  })
  expect(seen).toEqual(['flag'])
  expect(result.text).toBe('done after tool')
  expect(JSON.stringify(server.requests.at(-1)!.messages)).toContain('definition of flag')
})
