import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ApiKey, ApiKeyList, CONSOLE_HEADER, ConsoleSession, CreatedKey, ProjectStatus } from '../../shared/console.ts'
import { SIGN_IN_PER_IP_PER_HOUR } from '../../server/console/session-routes.ts'
import { createKey } from '../../server/keys/keys.ts'
import { bearer, json, testDocent } from '../support/app.ts'
import { consoleHeaders, signIn } from './support.ts'

// The console's sign-in and what a session may do, through the app as a browser would call it.

/** What the console's own sign-in sends beside its JSON body. */
const SIGN_IN_HEADERS = { [CONSOLE_HEADER]: '1' }

describe('console sessions', () => {
  test('a key that expires within 12 hours opens a session that ends with it, and says so', async () => {
    const t = await testDocent()
    const expiresAt = new Date(Date.now() + 4 * 60_000)
    const shortLived = (await createKey(t.store, { kind: 'admin', organization: 'demo', expiresAt })).secret
    const { cookie, response } = await signIn(t.app, shortLived)
    const maxAge = Number(/Max-Age=(\d+)/.exec(response.headers.get('set-cookie')!)![1])
    expect(maxAge).toBeGreaterThan(230)
    expect(maxAge).toBeLessThanOrEqual(240)
    expect(ConsoleSession.parse(await response.json()).expiresAt).toBe(expiresAt.toISOString())
    const now = ConsoleSession.parse(await (await t.app.request('/console/session', { headers: consoleHeaders(cookie) })).json())
    expect(now.expiresAt).toBe(expiresAt.toISOString())
  })

  test('an admin key opens a session: an HttpOnly SameSite=Strict cookie for 12 hours; the key is not in the answer', async () => {
    const t = await testDocent()
    const { cookie, response } = await signIn(t.app, t.keys.admin)
    const setCookie = response.headers.get('set-cookie')!
    expect(setCookie).toMatch(/^docent_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = await response.text()
    expect(body).not.toContain(t.keys.admin)
    const session = ConsoleSession.parse(JSON.parse(body))
    expect(session).toMatchObject({ organization: 'demo', scope: 'write', projects: [{ id: 'demo', agent: true }] })
    expect(session.key.hint).toBe(`svc_…${t.keys.admin.slice(-4)}`)
    // The store keeps only the id's hash.
    const id = cookie.split('=')[1]!
    expect(await t.store.findSession(id)).toBeNull()

    expect((await t.app.request('/v2/agent/demo/jobs', { headers: consoleHeaders(cookie) })).status).toBe(200)
    expect(ConsoleSession.parse(await (await t.app.request('/console/session', { headers: consoleHeaders(cookie) })).json())).toEqual(
      session,
    )
  })

  test('over HTTPS the cookie is Secure (request URL, or a trusted proxy, or an https publicUrl)', async () => {
    const t = await testDocent()
    const cookieOf = async (app: typeof t.app, url: string, key: string, headers: Record<string, string> = {}) =>
      (await app.request(url, json({ key }, { ...SIGN_IN_HEADERS, ...headers }))).headers.get('set-cookie')!
    expect(await cookieOf(t.app, 'https://docs.example/console/session', t.keys.admin)).toMatch(/; Secure$/)
    // An untrusted proxy header changes nothing.
    expect(await cookieOf(t.app, 'http://docs.example/console/session', t.keys.admin, { 'x-forwarded-proto': 'https' })).not.toMatch(
      /Secure/,
    )
    const proxied = await testDocent({ trustProxy: true })
    expect(await cookieOf(proxied.app, '/console/session', proxied.keys.admin, { 'x-forwarded-proto': 'https' })).toMatch(/; Secure$/)
    const published = await testDocent({ publicUrl: 'https://docent.example' })
    expect(await cookieOf(published.app, '/console/session', published.keys.admin)).toMatch(/; Secure$/)
  })

  test('a wrong key is a 401 that does not say which part was wrong; attempts are rate-limited per address', async () => {
    const t = await testDocent()
    const revoked = await createKey(t.store, { kind: 'admin', organization: 'demo' })
    await t.store.revokeKey(revoked.record.id, new Date())
    const expired = await createKey(t.store, { kind: 'admin', organization: 'demo', expiresAt: new Date(Date.now() - 1000) })
    const wrong = ['nonsense', 'svc_unknownunknownunknownunknown', t.keys.assistant, revoked.secret, expired.secret, `${t.keys.admin}x`]
    const bodies = new Set<string>()
    for (const key of wrong) {
      const response = await t.app.request('/console/session', json({ key }, SIGN_IN_HEADERS))
      expect(response.status, key).toBe(401)
      expect(response.headers.get('set-cookie')).toBeNull()
      bodies.add(await response.text())
    }
    expect([...bodies]).toEqual(['{"error":"this key does not open the console","code":"unauthorized"}'])
    // A body that is no sign-in is a 400, and no attempt at a key: as many as one likes spend none of the limit.
    for (let i = 0; i < SIGN_IN_PER_IP_PER_HOUR; i++) {
      expect((await t.app.request('/console/session', json({}, SIGN_IN_HEADERS))).status).toBe(400)
    }

    const sent = wrong.length
    for (let i = sent; i < SIGN_IN_PER_IP_PER_HOUR; i++)
      await t.app.request('/console/session', json({ key: 'svc_guessguessguessguess' }, SIGN_IN_HEADERS))
    const limited = await t.app.request('/console/session', json({ key: t.keys.admin }, SIGN_IN_HEADERS))
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  test('a cross-site sign-in is refused (login CSRF): no console header, or fields beyond the key', async () => {
    const t = await testDocent()
    // What a form on another site can send: text/plain whose name=value reads as JSON, no custom header.
    const forged = await t.app.request('/console/session', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
      body: `{"key":"${t.keys.otherAdmin}","x":"="}`,
    })
    expect(forged.status).toBe(403)
    expect(forged.headers.get('set-cookie')).toBeNull()
    expect((await forged.json()).error).toMatch(/x-docent-console/)
    const noHeader = await t.app.request('/console/session', json({ key: t.keys.otherAdmin }))
    expect(noHeader.status).toBe(403)
    expect(noHeader.headers.get('set-cookie')).toBeNull()
    // A preflight from another origin gets no grant, so no script there can add the header either.
    const preflight = await t.app.request('/console/session', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://attacker.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': CONSOLE_HEADER,
      },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()

    const padded = await t.app.request('/console/session', json({ key: t.keys.otherAdmin, x: '=' }, SIGN_IN_HEADERS))
    expect(padded.status).toBe(400)
    expect((await padded.json()).error).toMatch(/unknown field\(s\) x/)
    expect(padded.headers.get('set-cookie')).toBeNull()
    // Forged sign-ins spend none of the address's attempts: a hostile page cannot lock its visitor out of the console.
    for (let i = 0; i < SIGN_IN_PER_IP_PER_HOUR; i++) await t.app.request('/console/session', json({ key: 'svc_guessguessguessguess' }))
    expect((await signIn(t.app, t.keys.admin)).response.status).toBe(200)
  })

  test('changes through a session need the console header (CSRF); reads do not', async () => {
    const t = await testDocent()
    const { cookie } = await signIn(t.app, t.keys.admin)
    const body = JSON.stringify({ prompt: 'Fix misspellings' })
    const bare = await t.app.request('/v2/agent/demo/job', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body,
    })
    expect(bare.status).toBe(403)
    expect((await bare.json()).error).toMatch(/x-docent-console/)
    const withHeader = await t.app.request('/v2/agent/demo/job', { method: 'POST', headers: consoleHeaders(cookie, true), body })
    expect(withHeader.status).toBe(200)
  })

  test('sign-out ends the session: the old cookie is refused afterwards', async () => {
    const t = await testDocent()
    const { cookie } = await signIn(t.app, t.keys.admin)
    expect((await t.app.request('/console/session', { method: 'DELETE', headers: { cookie } })).status).toBe(403)
    const out = await t.app.request('/console/session', { method: 'DELETE', headers: consoleHeaders(cookie, true) })
    expect(out.status).toBe(204)
    expect(out.headers.get('set-cookie')).toMatch(/^docent_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0$/)
    const after = await t.app.request('/v2/agent/demo/jobs', { headers: consoleHeaders(cookie) })
    expect(after.status).toBe(401)
    expect((await after.json()).error).toMatch(/session has ended/)
  })

  test('a session expires after 12 hours; revoking its key ends it at once', async () => {
    let now = new Date('2026-03-01T08:00:00Z')
    const t = await testDocent({}, { now: () => now })
    const { cookie } = await signIn(t.app, t.keys.admin)
    now = new Date('2026-03-01T19:59:00Z')
    expect((await t.app.request('/v2/agent/demo/jobs', { headers: consoleHeaders(cookie) })).status).toBe(200)
    now = new Date('2026-03-01T20:00:00Z')
    expect((await t.app.request('/v2/agent/demo/jobs', { headers: consoleHeaders(cookie) })).status).toBe(401)

    const second = await signIn(t.app, t.keys.admin)
    const [key] = (await t.store.listKeys('demo')).filter((k) => k.kind === 'admin')
    await t.store.revokeKey(key!.id, now)
    expect((await t.app.request('/v2/agent/demo/jobs', { headers: consoleHeaders(second.cookie) })).status).toBe(401)
  })

  test("a session is its key's organization's: another organization's project is 403", async () => {
    const t = await testDocent()
    const { cookie } = await signIn(t.app, t.keys.otherAdmin)
    expect((await t.app.request('/v2/agent/other/jobs', { headers: consoleHeaders(cookie) })).status).toBe(200)
    const foreign = await t.app.request('/v2/agent/demo/jobs', { headers: consoleHeaders(cookie) })
    expect(foreign.status).toBe(403)
    expect((await t.app.request('/v2/projects/demo', { headers: consoleHeaders(cookie) })).status).toBe(403)
    const session = ConsoleSession.parse(await (await t.app.request('/console/session', { headers: consoleHeaders(cookie) })).json())
    expect(session.projects.map((p) => p.id)).toEqual(['other'])
  })
})

describe('key scopes', () => {
  test('a read key sees everything and changes nothing, by Bearer and by session; it may still sign out', async () => {
    const t = await testDocent()
    const read = await createKey(t.store, { kind: 'admin', organization: 'demo', scope: 'read', name: 'viewer' })
    const job = await t.app.request('/v2/agent/demo/job', json({ prompt: 'Fix misspellings' }, bearer(t.keys.admin)))
    const { id } = (await job.json()) as { id: string }

    for (const path of [
      '/v2/agent/demo/jobs',
      `/v2/agent/demo/job/${id}`,
      `/v2/agent/demo/job/${id}/events`,
      '/v2/keys',
      '/v2/projects/demo',
    ]) {
      expect((await t.app.request(path, { headers: bearer(read.secret) })).status, path).toBe(200)
    }
    const changes: Array<[string, unknown]> = [
      ['/v2/agent/demo/job', { prompt: 'x' }],
      [`/v2/agent/demo/job/${id}/message`, { prompt: 'x' }],
      [`/v2/agent/demo/job/${id}/archive`, {}],
      ['/v2/keys', { name: 'mine' }],
      [`/v2/keys/${read.record.id}/revoke`, {}],
    ]
    for (const [path, body] of changes) {
      const response = await t.app.request(path, json(body, bearer(read.secret)))
      expect(response.status, path).toBe(403)
      expect((await response.json()).error).toMatch(/read-only/)
    }
    const { cookie, response } = await signIn(t.app, read.secret)
    expect(ConsoleSession.parse(await response.json()).scope).toBe('read')
    expect((await t.app.request('/v2/agent/demo/jobs', { headers: consoleHeaders(cookie) })).status).toBe(200)
    for (const [path, body] of changes) {
      const response = await t.app.request(path, { method: 'POST', headers: consoleHeaders(cookie, true), body: JSON.stringify(body) })
      expect(response.status, path).toBe(403)
    }
    expect((await t.store.getJob('demo', id))?.status).toBe('active')
    expect((await t.app.request('/console/session', { method: 'DELETE', headers: consoleHeaders(cookie, true) })).status).toBe(204)
  })
})

describe('keys endpoints', () => {
  test('create shows the key once; the list never shows it; revoke stops it at once', async () => {
    const t = await testDocent()
    const { cookie } = await signIn(t.app, t.keys.admin)
    const post = (path: string, body: unknown) =>
      t.app.request(path, { method: 'POST', headers: consoleHeaders(cookie, true), body: JSON.stringify(body) })
    const created = CreatedKey.parse(await (await post('/v2/keys', { name: 'CI deploys', scope: 'read', expiresInDays: 30 })).json())
    expect(created.secret).toMatch(/^svc_[A-Za-z0-9]{32}$/)
    expect(created.key).toMatchObject({ kind: 'admin', name: 'CI deploys', scope: 'read', status: 'active', projectId: null })
    expect(new Date(created.key.expiresAt!).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000)

    const assistant = CreatedKey.parse(await (await post('/v2/keys', { kind: 'assistant', name: 'site', projectId: 'demo' })).json())
    expect(assistant.secret).toMatch(/^svc_dsc_/)
    expect((await post('/v2/keys', { kind: 'assistant', name: 'x', projectId: 'other' })).status).toBe(400)
    expect((await post('/v2/keys', { kind: 'assistant', name: 'x', projectId: 'demo', scope: 'read' })).status).toBe(400)
    // An admin key is organization-wide: a project with it is refused, not dropped.
    for (const projectId of ['demo', 'other']) {
      const scoped = await post('/v2/keys', { kind: 'admin', name: 'x', projectId })
      expect(scoped.status, projectId).toBe(400)
      expect((await scoped.json()).error).toMatch(/^projectId: an admin key is organization-wide/)
    }
    expect((await post('/v2/keys', { name: '' })).status).toBe(400)

    const listText = await (await t.app.request('/v2/keys', { headers: consoleHeaders(cookie) })).text()
    expect(listText).not.toContain(created.secret)
    expect(listText).not.toContain(assistant.secret)
    const list = ApiKeyList.parse(JSON.parse(listText))
    expect(list.keys[0]!.id).toBe(assistant.key.id)
    expect(list.keys).toHaveLength(4)

    expect((await t.app.request('/v2/agent/demo/jobs', { headers: bearer(created.secret) })).status).toBe(200)
    const revoked = ApiKey.parse(await (await post(`/v2/keys/${created.key.id}/revoke`, {})).json())
    expect(revoked).toMatchObject({ status: 'revoked' })
    expect((await t.app.request('/v2/agent/demo/jobs', { headers: bearer(created.secret) })).status).toBe(401)
    // Another organization's key is not this organization's to revoke.
    const foreign = (await t.store.listKeys('acme'))[0]!
    expect((await post(`/v2/keys/${foreign.id}/revoke`, {})).status).toBe(404)
    expect((await t.store.listKeys('acme'))[0]!.revokedAt).toBeNull()
  })
})

describe('project endpoint', () => {
  test('docs source and revision, pages and sections, last load, models, agent host', async () => {
    const t = await testDocent()
    const response = await t.app.request('/v2/projects/demo', { headers: bearer(t.keys.admin) })
    expect(response.status).toBe(200)
    const project = ProjectStatus.parse(await response.json())
    expect(project).toMatchObject({
      id: 'demo',
      organization: 'demo',
      docs: { kind: 'directory', location: 'demo/docs', error: null },
      model: { provider: 'offline', answer: 'offline-answer', agent: 'offline-editor', embedding: null },
      agent: { repository: 'local:demo', ref: 'main', host: 'local', target: null },
      mcp: { path: '/mcp/demo' },
    })
    expect(project.docs.pages).toBeGreaterThan(5)
    expect(project.docs.sections).toBeGreaterThan(project.docs.pages)
    expect(project.docs.revision).toMatch(/^\w+$/)
    expect(project.docs.loadedAt).not.toBeNull()
    expect(project.docs.problems).toEqual([])
    const list = await (await t.app.request('/v2/projects', { headers: bearer(t.keys.admin) })).json()
    expect(list).toEqual({ projects: [{ id: 'demo', name: 'demo', domain: 'demo', agent: true }] })
  })

  test('where the pages source links point to are served, and whether the docs and MCP need a key, as they really are', async () => {
    const t = await testDocent({
      projects: [
        // Public docs without a siteUrl, first: Docent's own docs site.
        { id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs', public: true } },
        { id: 'private', organization: 'demo', domain: 'private.example', docs: { directory: 'demo/docs' } },
        { id: 'second', organization: 'demo', domain: 'second.example', docs: { directory: 'demo/docs', public: true } },
        {
          id: 'hosted',
          organization: 'demo',
          domain: 'hosted.example',
          siteUrl: 'https://docs.hosted.example',
          docs: { directory: 'demo/docs' },
        },
      ],
    })
    const status = async (id: string) =>
      ProjectStatus.parse(await (await t.app.request(`/v2/projects/${id}`, { headers: bearer(t.keys.admin) })).json())
    expect(await status('demo')).toMatchObject({ site: { servedBy: 'docent', url: '/', why: null }, mcp: { public: true } })
    expect(await status('private')).toMatchObject({ site: { servedBy: 'none', url: null, why: 'private' }, mcp: { public: false } })
    expect(await status('second')).toMatchObject({ site: { servedBy: 'none', url: null, why: 'another-project' }, mcp: { public: true } })
    expect(await status('hosted')).toMatchObject({
      site: { servedBy: 'external', url: 'https://docs.hosted.example', why: null },
      mcp: { public: false },
    })
    // What the screen says is what a reader gets: the demo's pages and its MCP server answer without a key.
    expect((await t.app.request('/', { headers: { accept: 'text/html' } })).status).toBe(200)
    const mcp = await t.app.request('/mcp/demo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(mcp.status).toBe(200)
    expect(
      (await t.app.request('/mcp/private.example', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status,
    ).toBe(401)
  })

  test('files left out of the index are listed with why', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docent-project-problems-'))
    try {
      await writeFile(join(dir, 'guide.mdx'), '# Guide\n\nThe guide.\n')
      await writeFile(join(dir, 'guide.md'), '# Guide, older\n')
      await symlink('/etc/passwd', join(dir, 'passwd.md'))
      const t = await testDocent({ projects: [{ id: 'odd', organization: 'demo', domain: 'odd', docs: { directory: dir } }] })
      const project = ProjectStatus.parse(await (await t.app.request('/v2/projects/odd', { headers: bearer(t.keys.admin) })).json())
      expect(project.docs).toMatchObject({ pages: 1, error: null })
      // In any order the folder lists them, guide.mdx is the page served.
      expect(project.docs.problems).toEqual(
        expect.arrayContaining([
          { file: 'passwd.md', problem: 'left out: a symbolic link (links are not followed)' },
          { file: 'guide.md', problem: 'left out: guide.mdx is the same page (/guide)' },
        ]),
      )
      expect(project.docs.problems).toHaveLength(2)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  test('docs that fail to load: the error is reported, with no revision', async () => {
    const t = await testDocent({
      projects: [
        { id: 'broken', organization: 'demo', domain: 'broken', docs: { repository: 'https://127.0.0.1:9/none.git', ref: 'main' } },
      ],
    })
    const project = ProjectStatus.parse(await (await t.app.request('/v2/projects/broken', { headers: bearer(t.keys.admin) })).json())
    expect(project.docs).toMatchObject({ kind: 'git', location: 'https://127.0.0.1:9/none.git', ref: 'main', revision: null, pages: 0 })
    expect(project.docs.error).toBeTruthy()
    expect(project.agent).toBeNull()
  })
})
