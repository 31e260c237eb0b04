import { describe, expect, it } from 'vitest'
import { DocentError } from '../../shared/docent-error.ts'
import { checkedFetch, formatWait, HttpError, logError, readableError, retryable, WidgetError } from './errors.ts'
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

  it('names refused keys, server failures and network failures in plain sentences, without the server’s text', () => {
    expect(readableError(new HttpError(401, 'missing or malformed Authorization header', null), defaultLabels)).toBe(
      'This site’s assistant key was refused (401).',
    )
    expect(readableError(new HttpError(403, 'origin https://x.test is not allowed for this project', null), defaultLabels)).toBe(
      'This site’s assistant key was refused (403).',
    )
    expect(readableError(new HttpError(500, 'internal error (request id req_1)', null), defaultLabels)).toBe(
      'The assistant failed to answer (500).',
    )
    expect(readableError(new HttpError(502, 'text/html response: <html><h1>502 Bad Gateway</h1>', null), defaultLabels)).toBe(
      'The assistant failed to answer (502).',
    )
    expect(readableError(new TypeError('Failed to fetch'), defaultLabels)).toBe(defaultLabels.errorNetwork)
    // An AI SDK validation error of a garbled stream: its message runs to tens of kilobytes.
    expect(readableError(new Error(`Type validation failed: ${'x'.repeat(60_000)}`), defaultLabels)).toBe('The assistant failed to answer.')
  })

  it('says what the widget itself concluded: not set up, too long, cut off', () => {
    expect(readableError(new WidgetError('not_set_up', 'refused this origin'), defaultLabels)).toBe(
      'The assistant is not set up for this site yet.',
    )
    expect(readableError(new WidgetError('question_too_long', 'too long', { max: 100_000 }), defaultLabels)).toBe(
      'Your question is too long: at most 100,000 characters. Shorten it to send it.',
    )
    expect(readableError(new WidgetError('cut_off', 'the model failed'), defaultLabels)).toBe('This answer was cut off.')
  })

  it('offers Retry only where asking again can help', () => {
    expect(retryable(new TypeError('Failed to fetch'))).toBe(true)
    expect(retryable(new HttpError(500, 'internal error', null))).toBe(true)
    expect(retryable(new HttpError(503, 'restarting', 5))).toBe(true)
    expect(retryable(new Error('Type validation failed'))).toBe(true)
    expect(retryable(new HttpError(401, 'unknown API key', null))).toBe(false)
    expect(retryable(new HttpError(403, 'origin not allowed', null))).toBe(false)
    expect(retryable(new HttpError(429, 'rate limit exceeded', 30))).toBe(false)
    // The same request gets the same refusal.
    expect(retryable(new HttpError(400, 'messages: must have at most 100 items', null))).toBe(false)
    expect(retryable(new HttpError(413, 'request body must be at most 1048576 bytes', null))).toBe(false)
    expect(retryable(new WidgetError('not_set_up', 'refused this origin'))).toBe(false)
    expect(retryable(new WidgetError('question_too_long', 'too long'))).toBe(false)
  })

  it('gives the details to the console, prefixed and bounded, with what to check', () => {
    const warnings: string[] = []
    const original = console.warn
    console.warn = (message: string) => warnings.push(message)
    try {
      logError(new HttpError(401, 'missing or malformed Authorization header', null, 'unauthorized'))
      logError(new WidgetError('not_set_up', 'refused this origin', { hint: 'add the origin to allowedOrigins' }))
      logError(new Error(`Type validation failed: ${'x'.repeat(60_000)}`))
    } finally {
      console.warn = original
    }
    expect(warnings[0]).toMatch(/^Docent: .*\(401 unauthorized\): missing or malformed Authorization header\. Check: data-api-key/)
    expect(warnings[1]).toMatch(/^Docent: .*refused this origin\. Check: add the origin to allowedOrigins$/)
    expect(warnings[2]!.length).toBeLessThan(1200)
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
      globalThis.fetch = async () => server(500, '<html><body><h1>502 Bad Gateway</h1></body></html>', { 'content-type': 'text/html' })
      expect(await checkedFetch('http://x.test/').catch((e: unknown) => e)).toMatchObject({ status: 500, code: 'internal' })
      // A 404 that is not Docent's JSON: another server answers at that address (data-api-base is missing or wrong).
      globalThis.fetch = async () => server(404, '<html>Not found</html>', { 'content-type': 'text/html' })
      expect(await checkedFetch('http://x.test/').catch((e: unknown) => e)).toMatchObject({ code: 'not_set_up' })
      globalThis.fetch = async () => server(200, 'ok')
      expect((await checkedFetch('http://x.test/')).status).toBe(200)
    } finally {
      globalThis.fetch = original
    }
  })
})
