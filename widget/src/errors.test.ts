import { describe, expect, it } from 'vitest'
import { DocentError } from '../../shared/docent-error.ts'
import { checkedFetch, formatWait, HttpError, readableError, retryable } from './errors.ts'
import { defaultLabels } from './labels.ts'

describe('readable errors', () => {
  it('tells the reader how long to wait after a 429', () => {
    expect(readableError(new HttpError(429, 'rate limit exceeded', 42), defaultLabels)).toBe(
      'Too many questions right now. Try again in 42 seconds.',
    )
    expect(readableError(new HttpError(429, 'rate limit exceeded', 3600), defaultLabels)).toBe(
      'Too many questions right now. Try again in 60 minutes.',
    )
    expect(readableError(new HttpError(429, 'x', null), defaultLabels)).toBe('Too many questions right now.')
  })

  it('names refused keys, server failures and network failures', () => {
    expect(readableError(new HttpError(401, 'unknown API key', null), defaultLabels)).toBe(
      'This site’s assistant key was refused (401: unknown API key).',
    )
    expect(readableError(new HttpError(403, 'origin https://x.test is not allowed for this project', null), defaultLabels)).toContain(
      '(403: origin https://x.test',
    )
    expect(readableError(new HttpError(500, 'internal error', null), defaultLabels)).toBe(
      'The assistant failed to answer (500: internal error).',
    )
    expect(readableError(new TypeError('Failed to fetch'), defaultLabels)).toBe(defaultLabels.errorNetwork)
  })

  it('offers Retry only where asking again can help', () => {
    expect(retryable(new TypeError('Failed to fetch'))).toBe(true)
    expect(retryable(new HttpError(500, 'internal error', null))).toBe(true)
    expect(retryable(new HttpError(401, 'unknown API key', null))).toBe(false)
    expect(retryable(new HttpError(403, 'origin not allowed', null))).toBe(false)
    expect(retryable(new HttpError(429, 'rate limit exceeded', 30))).toBe(false)
  })

  it('formats waits in the largest sensible unit', () => {
    expect(formatWait(1)).toBe('in 1 second')
    expect(formatWait(61)).toBe('in 2 minutes')
    expect(formatWait(86_400)).toBe('in 24 hours')
    expect(formatWait(30, 'fr')).toBe('dans 30 secondes')
    expect(formatWait(300, 'de')).toBe('in 5 Minuten')
  })

  it('turns a refused response into an HttpError with the JSON error and Retry-After', async () => {
    const server = (status: number, body: string, headers: Record<string, string> = {}) => new Response(body, { status, headers })
    const original = globalThis.fetch
    try {
      globalThis.fetch = async () =>
        server(429, '{"error":"rate limit exceeded: 10000 requests per day","code":"rate_limited"}', {
          'retry-after': '120',
        })
      const error = await checkedFetch('http://x.test/').catch((e: unknown) => e)
      expect(error).toBeInstanceOf(HttpError)
      expect(error).toMatchObject({
        status: 429,
        message: 'rate limit exceeded: 10000 requests per day',
        retryAfterSeconds: 120,
        code: 'rate_limited',
      })
      expect(error).toBeInstanceOf(DocentError)
      globalThis.fetch = async () => server(200, 'ok')
      expect((await checkedFetch('http://x.test/')).status).toBe(200)
    } finally {
      globalThis.fetch = original
    }
  })
})
