import { describe, expect, test } from 'vitest'
import { bearer, json } from '../support/app.ts'
import { limitedDocents } from '../support/limited.ts'

// The files of public docs (llms.txt, llms-full.txt, <page>.md) are fetched by crawlers and AI tools a site at a time:
// they have a per-IP hour of their own (10 × docsIpPerHour), apart from the docs budget and the organization's hour.
// The files of private docs are reads of the docs like search, and count on the docs budget.

const limited = limitedDocents()

const PUBLIC_FILES = ['/llms.txt', '/llms-full.txt', '/quickstart.md', '/nope.md', '/docs/demo/llms.txt', '/docs/demo/sdks/go.md']

describe('the files of public docs', () => {
  test('do not spend the docs budget of the IP, nor the organization’s hour', async () => {
    const { app, keys } = await limited({ docsIpPerHour: 10, organizationPerHour: 20 })
    const ip = { ip: '10.0.0.1' }
    const remaining: string[] = []
    for (let i = 0; i < 5; i++) {
      for (const path of PUBLIC_FILES) {
        const response = await app.request(path, {}, ip)
        expect(response.status, path).toBe(path.includes('nope') ? 404 : 200)
        if (response.ok) {
          expect(response.headers.get('ratelimit-limit'), path).toBe('100')
          remaining.push(response.headers.get('ratelimit-remaining')!)
        }
      }
    }
    // 30 files fetched (404s included), each counted once on the files' hour.
    expect(remaining.at(-1)).toBe('70')
    // The same IP still has all 10 of its docs hour, and the organization all 20 of its hour.
    const search = () => app.request('/discovery/v1/search/demo', json({ query: 'rollouts' }, bearer(keys.assistant)), ip)
    const first = await search()
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit-limit')).toBe('10')
    expect(first.headers.get('ratelimit-remaining')).toBe('9')
    for (let i = 0; i < 9; i++) expect((await search()).status).toBe(200)
    expect((await search()).status).toBe(429)
    // A spent docs hour does not close the public files either.
    expect((await app.request('/llms.txt', {}, ip)).status).toBe(200)
  })

  test('read with a key, spend none of the key’s month', async () => {
    const { app, keys } = await limited({ docsKeyPerMonth: 2 })
    for (let i = 0; i < 5; i++) {
      expect((await app.request('/llms.txt', { headers: bearer(keys.assistant) }, { ip: '10.0.0.2' })).status).toBe(200)
    }
    const search = await app.request('/discovery/v1/search/demo', json({ query: 'rollouts' }, bearer(keys.assistant)), { ip: '10.0.0.2' })
    expect(search.headers.get('ratelimit-remaining')).toBe('1')
  })

  test('still have a per-IP hour, so one client cannot flood them; others keep theirs', async () => {
    const { app } = await limited({ docsIpPerHour: 1 })
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await app.request(i % 2 ? '/llms.txt' : '/nope.md', {}, { ip: '10.0.0.3' })).status)
    expect(statuses.slice(0, 10).every((status) => status !== 429)).toBe(true)
    expect(statuses.slice(10)).toEqual([429, 429])
    const refused = await app.request('/quickstart.md', {}, { ip: '10.0.0.3' })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await refused.json()).error).toMatch(/files-ip-hour/)
    expect((await app.request('/quickstart.md', {}, { ip: '10.0.0.4' })).status).toBe(200)
  })
})

describe('the pages of the public docs site', () => {
  test('count on the files’ per-IP hour with the .md files, and not on the docs budget', async () => {
    const { app, keys } = await limited({ docsIpPerHour: 1 })
    const html = { headers: { accept: 'text/html' } }
    const ip = { ip: '10.0.0.6' }
    const statuses: number[] = []
    for (let i = 0; i < 9; i++) {
      const response = await app.request(i % 3 === 2 ? '/no-such-page' : '/quickstart', html, ip)
      statuses.push(response.status)
      expect(response.headers.get('ratelimit-limit')).toBe('10')
      expect(response.headers.get('ratelimit-remaining')).toBe(String(9 - i))
      expect(response.headers.get('content-type')).toMatch(/text\/html/)
    }
    expect(statuses).toEqual([200, 200, 404, 200, 200, 404, 200, 200, 404])
    expect((await app.request('/quickstart.md', {}, ip)).status).toBe(200)
    const refused = await app.request('/quickstart', html, ip)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await refused.json()).error).toMatch(/files-ip-hour/)
    expect((await app.request('/llms.txt', {}, ip)).status).toBe(429)
    // The IP's docs hour is untouched, and another IP still reads the pages.
    const search = await app.request('/discovery/v1/search/demo', json({ query: 'rollouts' }, bearer(keys.assistant)), ip)
    expect(search.status).toBe(200)
    expect((await app.request('/quickstart', html, { ip: '10.0.0.7' })).status).toBe(200)
  })
})

describe('the files of private docs', () => {
  test('are reads of the docs: they share the docs budget with search', async () => {
    const { app, keys } = await limited({ docsIpPerHour: 3 })
    const withKey = { headers: bearer(keys.otherAssistant) }
    const ip = { ip: '10.0.0.5' }
    const llms = await app.request('/docs/acme.example/llms.txt', withKey, ip)
    expect(llms.status).toBe(200)
    expect(llms.headers.get('ratelimit-limit')).toBe('3')
    expect((await app.request('/docs/acme.example/quickstart.md', withKey, ip)).status).toBe(200)
    expect((await app.request('/discovery/v1/search/acme.example', json({ query: 'rollouts' }, withKey.headers), ip)).status).toBe(200)
    const spent = await app.request('/docs/acme.example/llms-full.txt', withKey, ip)
    expect(spent.status).toBe(429)
    expect((await spent.json()).error).toMatch(/docs-ip-hour/)
  })
})
