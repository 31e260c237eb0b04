import { Errors } from 'isomorphic-git'
import { describe, expect, it } from 'vitest'
import { checkBranchName } from './branch.ts'
import { withTrailer } from './object-workspace.ts'
import { gitError } from './errors.ts'
import { scrubSecrets } from './scrub.ts'

describe('secrets never reach messages', () => {
  it('removes tokens and URL credentials', () => {
    expect(scrubSecrets('GET https://x-access-token:ghp_abc123@github.com/a/b.git failed with ghp_abc123', ['ghp_abc123'])).toBe(
      'GET https://github.com/a/b.git failed with ***',
    )
  })
  it('removes a token as a server that echoes the request writes it back: base64, base64url, basic-auth credentials', () => {
    const token = 'ghp_abc123>?xyz'
    const echoed = [
      `Authorization: Basic ${btoa(`x-access-token:${token}`)}`,
      `basic ${btoa(`oauth2:${token}`)}`,
      `token=${btoa(token)}`,
      `token=${btoa(token).replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_')}!`,
    ].join('\n')
    expect(scrubSecrets(echoed, [token])).toBe('Authorization: Basic ***\nbasic ***\ntoken=***\ntoken=***!')
  })
  it('removes the credentials of every URL, whatever its scheme or what stands before it, and leaves the rest', () => {
    expect(scrubSecrets('clone 1https://u:p@h/x and git+ssh://git:tok@host/r, then (https://a:b@c.d)', [])).toBe(
      'clone 1https://h/x and git+ssh://host/r, then (https://c.d)',
    )
    expect(scrubSecrets('https://a:b@https://c:d@host', [])).toBe('https://https://host')
    expect(scrubSecrets('mail me@example.com or see https://example.com/@user', [])).toBe(
      'mail me@example.com or see https://example.com/@user',
    )
    const run = '+A://A'.repeat(50_000)
    expect(scrubSecrets(`${run}\t`, [])).toBe(`${run}\t`)
  })
  it("says in words what a non-fast-forward push means, not isomorphic-git's advice to force it", () => {
    const error = gitError('cannot push docent/x', new Errors.PushRejectedError('not-fast-forward'), [])
    expect(error.code).toBe('push_rejected')
    expect(error.message).toBe(
      'cannot push docent/x: the branch on the remote has commits this run did not start from (something pushed to it meanwhile), and Docent does not overwrite them; send a follow-up, which starts from the branch as it is now',
    )
    expect(error.message).not.toContain('force')
  })
  it('removes key-shaped strings no configuration names: sk- and svc_ keys, bearer tokens', () => {
    expect(scrubSecrets('sk-abcdefghijklmnop svc_abcdefghijklmnop Bearer abcdefghij', [])).toBe('*** *** Bearer ***')
  })
  it('wraps errors with a scrubbed message and keeps the code', () => {
    const error = gitError('cannot push x', Object.assign(new Error('HTTP 403 for token tok_secret_1'), { code: 'HttpError' }), [
      'tok_secret_1',
    ])
    expect(error.message).toBe('cannot push x: HTTP 403 for token ***')
    expect(error.code).toBe('git_failed')
    expect(error.data.gitCode).toBe('HttpError')
  })
})

describe('commit trailer and branch names', () => {
  it('adds the Docent-Job trailer once, after a blank line', () => {
    expect(withTrailer('Fix typo\n', 'abc')).toBe('Fix typo\n\nDocent-Job: abc\n')
    expect(withTrailer('Fix typo\n\nDocent-Job: abc', 'abc')).toBe('Fix typo\n\nDocent-Job: abc\n')
    expect(withTrailer('  ', undefined)).toBe('Docent edit\n')
  })
  it('accepts docent branches and refuses names git would not take', () => {
    expect(checkBranchName('docent/fix-typo-1a2b3c')).toBe('docent/fix-typo-1a2b3c')
    for (const bad of ['', '-x', 'a..b', 'a/', 'a//b', 'x.lock', 'a/.hidden', 'a b', 'a~1', 'refs:x']) {
      expect(() => checkBranchName(bad)).toThrow(/invalid branch name/)
    }
  })
})
