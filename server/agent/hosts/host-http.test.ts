import { describe, expect, test } from 'vitest'
import { HostApiError, hostRequest } from './host-http.ts'

const TOKEN = 'ghp_hostHttpSecret42'

/** The host's answer, through the fetch capability hostRequest is given (as every host gets the context's fetch). */
const answering =
  (status: number, body: unknown): typeof fetch =>
  async () =>
    new Response(JSON.stringify(body), { status })

const call = (fetchImpl: typeof fetch) =>
  hostRequest({ fetch: fetchImpl, method: 'POST', url: 'https://api.example/repos/a/b/pulls', headers: {}, secret: TOKEN, host: 'GitHub' })

describe('host API errors carry a stable code, and never the token', () => {
  test.each([
    [401, 'authentication_failed'],
    [403, 'authentication_failed'],
    [404, 'not_found'],
    [409, 'conflict'],
    [422, 'conflict'],
    [500, 'host_failed'],
  ])('%i → %s', async (status, code) => {
    const error = await call(answering(status, { message: `no, ${TOKEN}` })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HostApiError)
    expect(error).toMatchObject({ code, data: { status, where: 'GitHub POST /repos/a/b/pulls' } })
    expect((error as Error).message).toMatch(new RegExp(`^GitHub POST /repos/a/b/pulls answered ${status}: no, \\*\\*\\*`))
    expect(JSON.stringify(error) + (error as Error).message).not.toContain(TOKEN)
  })

  test('a host that does not answer is host_failed', async () => {
    const error = await call(async () => {
      throw new TypeError(`fetch failed for ${TOKEN}`)
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'host_failed', message: 'GitHub POST /repos/a/b/pulls failed: fetch failed for ***' })
  })
})
