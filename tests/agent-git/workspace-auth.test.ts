import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GitOperationError } from '../../server/git/errors.ts'
import { createWorkspaceFactory } from '../../server/git/factory.ts'
import { createRepo, type GitServer, startGitServer } from '../support/git-server.ts'

const TOKEN = 'ghp_secretTokenValue123'
let server: GitServer
beforeAll(async () => {
  server = await startGitServer({ password: TOKEN })
})
afterAll(() => server.close())

describe('workspace credentials', () => {
  it('sends the token as HTTP basic auth and pushes', async () => {
    const repo = await createRepo(server, 'auth', { files: { 'a.md': 'a\n' } })
    const workspace = await createWorkspaceFactory({ fetch }).open({ repository: repo.url, ref: 'main', token: TOKEN })
    await workspace.writeFile('a.md', 'b\n')
    await workspace.commit({ message: 'edit', author: { name: 'D', email: 'd@example.com' } })
    await workspace.push('docent/auth')
    const authorized = server.requests.filter((r) => r.authorization?.startsWith('Basic '))
    expect(authorized.length).toBeGreaterThan(0)
    expect(Buffer.from(authorized[0]!.authorization!.slice(6), 'base64').toString()).toBe(`x-access-token:${TOKEN}`)
  })

  it('a wrong token fails with an error that does not contain it', async () => {
    const repo = await createRepo(server, 'auth2', { files: { 'a.md': 'a\n' } })
    const wrong = 'ghp_wrongTokenValue456'
    const error = await createWorkspaceFactory({ fetch })
      .open({ repository: repo.url, ref: 'main', token: wrong })
      .then(
        () => null,
        (e: unknown) => e as Error,
      )
    // An authentication failure that names the repository, not "cannot clone <branch>".
    expect(error).toBeInstanceOf(GitOperationError)
    expect((error as GitOperationError).code).toBe('authentication_failed')
    expect(error!.message).toBe(
      `authentication failed for ${repo.url}: the remote answered 401 (cannot clone main); check that the token is set and may read this repository`,
    )
    expect(error!.message).not.toContain(wrong)
    expect(JSON.stringify(error)).not.toContain(wrong)
  })

  it('credentials written into the URL never appear in errors', async () => {
    const url = `${server.url.replace('http://', 'http://user:ghp_inUrlSecret999@')}/missing.git`
    const error = await createWorkspaceFactory({ fetch })
      .open({ repository: url, ref: 'main' })
      .then(
        () => null,
        (e: unknown) => e as Error,
      )
    expect(error).toBeInstanceOf(Error)
    expect(error!.message).not.toContain('ghp_inUrlSecret999')
    expect(String(error!.stack)).not.toContain('ghp_inUrlSecret999')
  })
})
