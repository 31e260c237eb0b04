import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createWorkspaceFactory } from '../../server/git/factory.ts'
import { WorkspacePathError } from '../../server/git/errors.ts'
import { createRepo, git, type GitServer, startGitServer } from '../support/git-server.ts'

const files = {
  'docs.json': '{"name":"Acme","navigation":[{"group":"Start","pages":["index","guides/setup"]}]}\n',
  'index.mdx': '---\ntitle: Welcome\n---\n\nAcme Cloud is great.\n',
  'guides/setup.mdx': '---\ntitle: Setup\n---\n\nInstall Acme Cloud.\n',
  'guides/old.mdx': 'old page\n',
  'reference/api/keys.mdx': 'keys\n',
}
const author = { name: 'Docent Bot', email: 'bot@example.com' }

let server: GitServer
const temps: string[] = []
beforeAll(async () => {
  server = await startGitServer()
})
afterAll(async () => {
  await server.close()
  for (const dir of temps) await rm(dir, { recursive: true, force: true })
})

async function cloneWithCli(url: string, branch: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docent-check-'))
  temps.push(dir)
  await git(dir, 'clone', '-q', '-b', branch, url, 'repo')
  return join(dir, 'repo')
}

describe('in-memory git workspace', () => {
  it('clones, edits, commits with the job trailer and pushes a branch; the base branch is untouched', async () => {
    const repo = await createRepo(server, 'edit', { files })
    const baseHead = (await git(repo.bare, 'rev-parse', 'main')).trim()
    const factory = createWorkspaceFactory({ fetch })
    const workspace = await factory.open({ repository: repo.url, ref: 'main', jobId: 'job123' })
    expect(workspace.baseCommit).toBe(baseHead)
    expect(await workspace.listFiles()).toEqual(['docs.json', 'guides/old.mdx', 'guides/setup.mdx', 'index.mdx', 'reference/api/keys.mdx'])
    expect(await workspace.readFile('guides/setup.mdx')).toBe(files['guides/setup.mdx'])
    expect(await workspace.readFile('missing.mdx')).toBeNull()

    await workspace.writeFile('index.mdx', files['index.mdx'].replace('Acme Cloud', 'Acme Platform'))
    await workspace.writeFile('guides/new/page.mdx', '# New\n')
    expect(await workspace.deleteFile('guides/old.mdx')).toBe(true)
    expect(await workspace.deleteFile('guides/old.mdx')).toBe(false)
    await workspace.writeFile('guides/setup.mdx', files['guides/setup.mdx']) // same text: no change
    expect(workspace.changes()).toEqual([
      { path: 'guides/new/page.mdx', kind: 'added', bytes: 6 },
      { path: 'guides/old.mdx', kind: 'deleted', bytes: 9 },
      { path: 'index.mdx', kind: 'modified', bytes: files['index.mdx'].length + 3 },
    ])
    expect(await workspace.listFiles()).toContain('guides/new/page.mdx')
    expect(await workspace.listFiles()).not.toContain('guides/old.mdx')

    const commit = await workspace.commit({ message: 'Rename Acme Cloud', author })
    expect(commit).toMatch(/^[0-9a-f]{40}$/)
    expect(workspace.changes()).toEqual([])
    expect(await workspace.commit({ message: 'nothing', author })).toBeNull()
    await workspace.push('docent/rename-job123')

    const work = await cloneWithCli(repo.url, 'docent/rename-job123')
    expect((await git(work, 'rev-parse', 'HEAD')).trim()).toBe(commit)
    expect((await git(work, 'diff', '--name-status', `${baseHead}..HEAD`)).trim().split('\n').sort()).toEqual([
      'A\tguides/new/page.mdx',
      'D\tguides/old.mdx',
      'M\tindex.mdx',
    ])
    const message = await git(work, 'log', '-1', '--format=%B')
    expect(message).toContain('Rename Acme Cloud')
    expect(await git(work, 'log', '-1', '--format=%(trailers:key=Docent-Job,valueonly)')).toContain('job123')
    expect((await git(work, 'log', '-1', '--format=%an <%ae>')).trim()).toBe('Docent Bot <bot@example.com>')
    expect((await git(repo.bare, 'rev-parse', 'main')).trim()).toBe(baseHead)
    await git(repo.bare, 'fsck', '--strict')
  })

  it('a follow-up clones the job branch and adds a commit on top', async () => {
    const repo = await createRepo(server, 'follow', { files })
    const factory = createWorkspaceFactory({ fetch })
    const first = await factory.open({ repository: repo.url, ref: 'main', preferBranch: 'docent/x-1', jobId: 'j1' })
    await first.writeFile('index.mdx', 'first\n')
    const c1 = await first.commit({ message: 'first', author })
    await first.push('docent/x-1')

    const second = await factory.open({ repository: repo.url, ref: 'main', preferBranch: 'docent/x-1', jobId: 'j1' })
    expect(second.baseCommit).toBe(c1)
    expect(await second.readFile('index.mdx')).toBe('first\n')
    await second.writeFile('guides/setup.mdx', 'second\n')
    const c2 = await second.commit({ message: 'second', author })
    await second.push('docent/x-1')

    const work = await cloneWithCli(repo.url, 'docent/x-1')
    expect((await git(work, 'log', '--format=%H', '-2')).trim().split('\n')).toEqual([c2, c1])
    expect(await git(work, 'show', 'HEAD:index.mdx')).toBe('first\n')
    expect(await git(work, 'show', 'HEAD:guides/setup.mdx')).toBe('second\n')
  })

  it('pushes only the new objects, not the whole tree', async () => {
    const many: Record<string, string> = {}
    // Pages that do not compress away, so re-sending them would show: 300 × ~1 KB.
    let seed = 7
    const word = () => ((seed = (seed * 48271) % 2147483647), seed.toString(36))
    for (let i = 0; i < 300; i++) many[`pages/p${i}.mdx`] = `# Page ${i}\n\n${Array.from({ length: 150 }, word).join(' ')}\n`
    const repo = await createRepo(server, 'small-push', { files: many })
    const sent: number[] = []
    const counting: typeof fetch = async (input, init) => {
      if (String(input).endsWith('git-receive-pack') && init?.body) sent.push((init.body as Uint8Array).byteLength)
      return fetch(input, init)
    }
    const workspace = await createWorkspaceFactory({ fetch: counting }).open({ repository: repo.url, ref: 'main' })
    await workspace.writeFile('pages/p7.mdx', 'changed\n')
    await workspace.commit({ message: 'one page', author })
    await workspace.push('docent/small')
    expect(sent).toHaveLength(1)
    // The commit, the root and pages trees (~12 KB of names and ids) and one blob; the tree would be ~300 KB.
    expect(sent[0]).toBeLessThan(20_000)
  })

  it('an aborted signal stops a clone and a push', async () => {
    const repo = await createRepo(server, 'abort', { files })
    const controller = new AbortController()
    // Aborts once the clone has made its first request.
    const aborting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      controller.abort()
      return response
    }
    await expect(
      createWorkspaceFactory({ fetch: aborting }).open({ repository: repo.url, ref: 'main', signal: controller.signal }),
    ).rejects.toThrow()
    const workspace = await createWorkspaceFactory({ fetch }).open({ repository: repo.url, ref: 'main' })
    await workspace.writeFile('index.mdx', 'x\n')
    await workspace.commit({ message: 'x', author })
    await expect(workspace.push('docent/aborted', { signal: AbortSignal.abort() })).rejects.toThrow()
    await expect(git(repo.bare, 'rev-parse', '--verify', '-q', 'refs/heads/docent/aborted')).rejects.toThrow()
  })

  it('folders appear and disappear with their files; a file may replace an emptied folder and the reverse', async () => {
    const repo = await createRepo(server, 'folders', { files })
    const workspace = await createWorkspaceFactory({ fetch }).open({ repository: repo.url, ref: 'main' })
    await workspace.deleteFile('reference/api/keys.mdx')
    await workspace.writeFile('reference', 'now a file\n')
    await workspace.deleteFile('index.mdx')
    await workspace.writeFile('index.mdx/child.mdx', 'index is a folder now\n')
    await workspace.deleteFile('guides/old.mdx')
    await workspace.deleteFile('guides/setup.mdx')
    expect(await workspace.listFiles()).toEqual(['docs.json', 'index.mdx/child.mdx', 'reference'])
    await workspace.commit({ message: 'shuffle', author })
    await workspace.push('docent/folders')
    expect((await git(repo.bare, 'ls-tree', '-r', '--name-only', 'docent/folders')).trim().split('\n')).toEqual([
      'docs.json',
      'index.mdx/child.mdx',
      'reference',
    ])
    await git(repo.bare, 'fsck', '--strict')
    expect(await workspace.listFiles()).toEqual(['docs.json', 'index.mdx/child.mdx', 'reference'])
    expect(await workspace.readFile('reference')).toBe('now a file\n')
  })

  it('refuses paths outside the repository', async () => {
    const repo = await createRepo(server, 'paths', { files })
    const workspace = await createWorkspaceFactory({ fetch }).open({ repository: repo.url, ref: 'main' })
    for (const path of ['../x', '/etc/passwd', '.git/config', 'guides/../../x', 'a\\b', '']) {
      await expect(workspace.readFile(path)).rejects.toBeInstanceOf(WorkspacePathError)
      await expect(workspace.writeFile(path, 'x')).rejects.toBeInstanceOf(WorkspacePathError)
      await expect(workspace.deleteFile(path)).rejects.toBeInstanceOf(WorkspacePathError)
    }
    await expect(workspace.writeFile('guides', 'x')).rejects.toThrow(/directory/)
    await expect(workspace.writeFile('index.mdx/child.mdx', 'x')).rejects.toThrow(/is a file/)
    await workspace.writeFile('brand/new/page.mdx', 'x')
    await expect(workspace.writeFile('brand/new', 'x')).rejects.toThrow(/directory/)
    await expect(workspace.writeFile('brand/new/page.mdx/deeper', 'x')).rejects.toThrow(/is a file/)
    await workspace.deleteFile('brand/new/page.mdx')
    expect(workspace.changes()).toEqual([])
    // Names no Windows checkout can hold: git for Windows could not check out the branch at all.
    for (const path of ['con.mdx', 'guides/AUX', 'nul.md', 'api/com1.json', 'lpt9.txt.md', 'guides/what?.mdx', 'a|b.md', 'x*.md']) {
      await expect(workspace.writeFile(path, 'x')).rejects.toThrow(/Windows/)
    }
    await workspace.writeFile('guides/console.mdx', 'not a device name\n')
    await workspace.writeFile('com10.md', 'not one either\n')
    expect(workspace.changes().map((change) => change.path)).toEqual(['com10.md', 'guides/console.mdx'])
  })
})
