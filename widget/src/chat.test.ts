import { describe, expect, it } from 'vitest'
import { characters, fitConversation } from './chat.ts'

const turn = (n: number, text: string) => ({
  id: `m${n}`,
  role: n % 2 === 0 ? ('user' as const) : ('assistant' as const),
  parts: [{ type: 'text' as const, text }],
})
const totalText = (messages: Array<{ parts: Array<{ text: string }> }>) =>
  messages.reduce((sum, m) => sum + characters(m.parts[0]!.text), 0)

describe('the conversation a request carries', () => {
  it('is the whole conversation while it is within the API’s bounds', () => {
    const messages = [turn(0, 'What is a flag?'), turn(1, 'A switch.'), turn(2, 'And a segment?')]
    expect(fitConversation(messages)).toEqual(messages)
  })

  it('keeps the newest 100 messages at most, opening with a question', () => {
    const messages = Array.from({ length: 121 }, (_, n) => turn(n, `turn ${n}`))
    const sent = fitConversation(messages)
    expect(sent.length).toBeLessThanOrEqual(100)
    expect(sent[0]!.role).toBe('user')
    expect(sent.at(-1)).toEqual(messages.at(-1))
    expect(sent).toEqual(messages.slice(messages.length - sent.length))
  })

  it('keeps at most 100,000 characters (code points, as the API counts), dropping the oldest turns', () => {
    const messages = [turn(0, 'a'.repeat(60_000)), turn(1, 'b'.repeat(1000)), turn(2, 'c'.repeat(45_000)), turn(3, 'd'), turn(4, 'Short?')]
    const sent = fitConversation(messages)
    expect(sent.map((m) => m.id)).toEqual(['m2', 'm3', 'm4'])
    expect(totalText(sent)).toBeLessThanOrEqual(100_000)
    // Emoji are two UTF-16 units but one character: 60,000 of them fit.
    expect(fitConversation([turn(0, '😀'.repeat(60_000))])).toHaveLength(1)
  })

  it('sends the question alone when the turns before it do not fit with it (the server brings its stored turns back)', () => {
    const messages = [turn(0, 'a'.repeat(10)), turn(1, 'b'.repeat(20_000)), turn(2, 'c'.repeat(90_000))]
    expect(fitConversation(messages).map((m) => m.id)).toEqual(['m2'])
  })

  it('refuses a question that is over the bound by itself', () => {
    expect(() => fitConversation([turn(0, 'x'.repeat(100_001))])).toThrow(expect.objectContaining({ code: 'question_too_long' }))
  })
})
