import { describe, expect, test } from 'vitest'
import { ApiKeyList, ConsoleSession } from '../../shared/console.ts'
import { createKey } from '../../server/keys/keys.ts'
import { bearer, testDocent } from '../support/app.ts'
import { consoleHeaders, signIn } from './support.ts'

// The console names the organization it shows in X-Docent-Organization; a session of another organization (another
// tab signed in as someone else, the cookie being the browser's) is refused on the organization's own routes.

const shows = (organization: string) => ({ 'x-docent-organization': encodeURIComponent(organization) })

describe('a console request naming another organization than its session', () => {
  test("is refused (409) on the keys: nothing is listed, made or revoked in the session's organization", async () => {
    const t = await testDocent()
    // Tab A showed demo; tab B then signed the browser in to acme.
    const { cookie } = await signIn(t.app, t.keys.otherAdmin)
    const acmeKeys = await t.store.listKeys('acme')
    const victim = acmeKeys[0]!

    const list = await t.app.request('/v2/keys', { headers: { ...consoleHeaders(cookie), ...shows('demo') } })
    expect(list.status).toBe(409)
    expect(await list.json()).toEqual({
      error: 'this browser is now signed in to organization acme, not the one this page shows (another tab signed in): reload the page',
      code: 'conflict',
    })
    const create = await t.app.request('/v2/keys', {
      method: 'POST',
      headers: { ...consoleHeaders(cookie, true), ...shows('demo') },
      body: JSON.stringify({ name: 'made in the wrong organization', kind: 'admin' }),
    })
    expect(create.status).toBe(409)
    const revoke = await t.app.request(`/v2/keys/${victim.id}/revoke`, {
      method: 'POST',
      headers: { ...consoleHeaders(cookie, true), ...shows('demo') },
    })
    expect(revoke.status).toBe(409)
    expect((await t.app.request('/v2/projects', { headers: { ...consoleHeaders(cookie), ...shows('demo') } })).status).toBe(409)
    expect(await t.store.listKeys('acme')).toEqual(acmeKeys)

    // Who is signed in is always answered: that is how the tab finds out.
    const session = await t.app.request('/console/session', { headers: { ...consoleHeaders(cookie), ...shows('demo') } })
    expect(ConsoleSession.parse(await session.json()).organization).toBe('acme')
  })

  test('naming its own organization (encoded, whatever its name), or none, goes through; CSRF checks are unchanged', async () => {
    const t = await testDocent()
    const { cookie } = await signIn(t.app, t.keys.otherAdmin)
    const listed = await t.app.request('/v2/keys', { headers: { ...consoleHeaders(cookie), ...shows('acme') } })
    expect(listed.status).toBe(200)
    ApiKeyList.parse(await listed.json())
    const made = await t.app.request('/v2/keys', {
      method: 'POST',
      headers: { ...consoleHeaders(cookie, true), ...shows('acme') },
      body: JSON.stringify({ name: 'made where shown', kind: 'admin' }),
    })
    expect(made.status).toBe(200)
    // A session's change without the console header is still refused first (403), organization or not.
    const forged = await t.app.request('/v2/keys', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', ...shows('acme') },
      body: JSON.stringify({ name: 'forged', kind: 'admin' }),
    })
    expect(forged.status).toBe(403)
    // API clients send no such header.
    expect((await t.app.request('/v2/keys', { headers: bearer(t.keys.admin) })).status).toBe(200)

    const accented = await createKey(t.store, { kind: 'admin', organization: 'Équipe docs' })
    const { cookie: accentedCookie } = await signIn(t.app, accented.secret)
    expect((await t.app.request('/v2/keys', { headers: { ...consoleHeaders(accentedCookie), ...shows('Équipe docs') } })).status).toBe(200)
    expect((await t.app.request('/v2/keys', { headers: { ...consoleHeaders(accentedCookie), ...shows('Equipe docs') } })).status).toBe(409)
  })
})
