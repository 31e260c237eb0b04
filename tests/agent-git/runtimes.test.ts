import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo, git, type GitServer, startGitServer } from '../support/git-server.ts'

const run = promisify(execFile)
const commands = {
  deno: ['node_modules/.bin/deno', 'run', '-A', 'tests/agent-git/support/roundtrip.ts'],
  bun: ['node_modules/.bin/bun', 'tests/agent-git/support/roundtrip.ts'],
}

let server: GitServer
beforeAll(async () => {
  server = await startGitServer()
})
afterAll(() => server.close())

/** The same workspace code on Deno and Bun: clone, edit, commit, push; checked with the git CLI. */
describe.each(Object.keys(commands) as Array<keyof typeof commands>)('workspace on %s', (runtime) => {
  it('clones, commits with the trailer and pushes; a second run continues the branch', async () => {
    const repo = await createRepo(server, `rt-${runtime}`, { files: { 'index.mdx': '# Home\n', 'docs.json': '{}\n' } })
    const base = (await git(repo.bare, 'rev-parse', 'main')).trim()
    const [bin, ...args] = commands[runtime]
    const branch = `docent/runtime-${runtime}`
    const once = async (jobId: string) => {
      const { stdout } = await run(bin!, [...args, repo.url, branch, jobId], { env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 })
      return /COMMIT ([0-9a-f]{40})/.exec(stdout)![1]
    }
    const first = await once('job-a')
    const second = await once('job-b')
    expect((await git(repo.bare, 'rev-list', branch)).trim().split('\n')).toEqual([second, first, base])
    expect(await git(repo.bare, 'show', `${branch}:index.mdx`)).toBe(`# Home\n\nEdited on ${runtime}.\n\nEdited on ${runtime}.\n`)
    expect(await git(repo.bare, 'log', '-1', '--format=%(trailers:key=Docent-Job,valueonly)', branch)).toContain('job-b')
    expect((await git(repo.bare, 'ls-tree', '--name-only', branch)).trim().split('\n').sort()).toEqual([
      'added-job-a.mdx',
      'added-job-b.mdx',
      'docs.json',
      'index.mdx',
    ])
    expect((await git(repo.bare, 'rev-parse', 'main')).trim()).toBe(base)
  }, 180_000)
})
