import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createRepo, git, type GitServer, startGitServer } from './git-server.ts'

let server: GitServer
beforeAll(async () => {
  server = await startGitServer()
})
afterAll(() => server.close())

test('the test git server serves clone and push over smart HTTP', async () => {
  const repo = await createRepo(server, 'docs', { files: { 'index.mdx': '# Hello\n' } })
  const clone = await mkdtemp(join(tmpdir(), 'docent-clone-'))
  await git(clone, 'clone', '-q', repo.url, '.')
  expect(await readFile(join(clone, 'index.mdx'), 'utf8')).toBe('# Hello\n')
  await git(clone, 'checkout', '-q', '-b', 'feature')
  await git(clone, 'commit', '-q', '--allow-empty', '-m', 'change')
  await git(clone, 'push', '-q', 'origin', 'feature')
  expect(await git(repo.bare, 'branch', '--list')).toContain('feature')
  expect(server.requests.some((r) => r.path.endsWith('git-receive-pack'))).toBe(true)
})
