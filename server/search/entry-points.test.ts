import { expect, test } from 'vitest'
import { readDocsSite } from './docs-site.ts'
import { asksForStatus, entryPoints } from './entry-points.ts'
import { parseQuery } from './query.ts'
import { readDirectory } from './sources/directory.ts'

test('the words that ask whether the service is up: the first, and the last "down" within 30 characters of its verb', () => {
  expect(asksForStatus('is the api down right now?')).toBe('is the api down')
  expect(asksForStatus('are your servers down?')).toBe('are your servers down')
  expect(asksForStatus('is it down or down')).toBe('is it down or down')
  expect(asksForStatus('any outages today? is it down')).toBe('outages')
  expect(asksForStatus('is the status page up')).toBe('status page')
  expect(asksForStatus('this is down')).toBe('is down')
  expect(asksForStatus('is it downtime')).toBeUndefined()
  expect(asksForStatus('is the dashboard for my whole organization down')).toBeUndefined()
})

test('a long question is read in time linear in it', () => {
  expect(asksForStatus('is wcu '.repeat(100_000))).toBeUndefined()
  expect(asksForStatus(`is ${'x '.repeat(50_000)}down`)).toBeUndefined()
  expect(asksForStatus(`${'is '.repeat(100_000)}down`)).toBe(`${'is '.repeat(11)}down`)
})

test("asked what the product is, by the site's name, the introduction leads; asked about one of its parts, it does not", async () => {
  const site = readDocsSite(await readDirectory('demo/docs'))
  const entries = entryPoints(site, () => true)
  const of = (question: string) => entries.of(question, parseQuery(question))
  expect(of('what does lumen flags do')).toEqual([
    { path: 'index', strong: true },
    { path: 'quickstart', strong: true },
  ])
  expect(of("What's Lumen-Flags?")[0]).toEqual({ path: 'index', strong: true })
  // With words of its own, the introduction gains among the pages about them.
  expect(of('what is Lumen Flags exactly? someone on my team suggested it for our feature flags')[0]).toEqual({
    path: 'index',
    strong: false,
  })
  for (const question of [
    "what is Lumen Flags' API rate limit",
    "what is Lumen Flags's default rollout",
    'what does Lumen Flags send in a webhook',
  ]) {
    expect(of(question), question).toEqual([])
  }
})
