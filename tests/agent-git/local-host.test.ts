import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { consoleLogger } from '../../server/log.ts'
import { createDocent, type Docent } from '../../server/mod.ts'
import type { JobRecord } from '../../server/store/types.ts'
import { git } from '../support/git-server.ts'
import isogit from 'isomorphic-git'

const author = { name: 'Docent', email: 'docent@example.com' }
let temp: string
let docent: Docent

beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'docent-local-host-'))
  const docs = join(temp, 'docs')
  await mkdir(join(docs, 'guides'), { recursive: true })
  await writeFile(join(docs, 'docs.json'), '{"name":"Lumen Flags","navigation":[{"group":"Start","pages":["index","guides/setup"]}]}\n')
  await writeFile(join(docs, 'index.mdx'), '---\ntitle: Welcome\n---\n\nLumen Flags ships flags.\n\nMore text.\n')
  await writeFile(join(docs, 'guides', 'setup.mdx'), '---\ntitle: Setup\n---\n\nInstall Lumen Flags.\n')
  await mkdir(join(docs, 'empty'))
  docent = await createDocent(
    {
      store: { kind: 'memory' },
      worker: false,
      dataDir: join(temp, 'data'),
      publicUrl: 'http://docent.test',
      projects: [
        {
          id: 'demo',
          organization: 'demo',
          domain: 'demo',
          docs: { directory: docs },
          agent: { repository: 'local:demo', ref: 'main' },
        },
      ],
    },
    { log: consoleLogger('silent') },
  )
})
afterAll(async () => {
  await docent.stop()
  await rm(temp, { recursive: true, force: true })
})

function job(id: string, branch: string): JobRecord {
  const at = new Date()
  return {
    id,
    projectId: 'demo',
    status: 'completed',
    source: { repository: 'local:demo', ref: 'main' },
    model: 'offline-editor',
    branch,
    pr: null,
    error: null,
    conversation: [],
    createdAt: at,
    updatedAt: at,
    archivedAt: null,
  }
}

describe('local git host', () => {
  it('makes the bare repo from the docs folder, pushes a branch, records the PR and shows its diff at /review/{jobId}', async () => {
    const ctx = docent.context
    const project = ctx.config.projects[0]!
    const factory = ctx.agentGit.workspaces
    const host = ctx.agentGit.host(project)
    const jobId = 'jobLocal1'
    const branch = 'docent/rename-joblocal'
    await ctx.store.insertJob(job(jobId, branch))

    const workspace = await factory.open({ ...ctx.agentGit.repository(project), preferBranch: branch, jobId })
    expect(await workspace.listFiles()).toEqual(['docs.json', 'guides/setup.mdx', 'index.mdx'])
    await workspace.writeFile(
      'index.mdx',
      (await workspace.readFile('index.mdx'))!.replace('Lumen Flags ships', 'Lumen Flags <script>alert(1)</script> ships'),
    )
    await workspace.writeFile('guides/new.mdx', '# New & shiny\n')
    await workspace.commit({ message: 'Edit the welcome page', author })
    await workspace.push(branch)
    const pr = await host.openOrUpdatePullRequest({
      jobId,
      branch,
      base: 'main',
      title: 'Welcome <edits>',
      body: 'Changed the "welcome" page.',
      addition: null,
      existing: null,
    })
    expect(pr).toEqual({ number: jobId, url: `http://docent.test/review/${jobId}` })

    const bare = join(temp, 'data', 'git', 'demo.git')
    await git(bare, 'fsck', '--strict')
    expect((await git(bare, 'log', '--format=%s', 'main')).trim()).toBe(`Docs from ${join(temp, 'docs')}`)
    expect(await git(bare, 'show', `${branch}:index.mdx`)).toContain('<script>alert(1)</script>')
    expect(await git(bare, 'log', '-1', '--format=%(trailers:key=Docent-Job,valueonly)', branch)).toContain(jobId)
    expect(await git(bare, 'show', 'main:index.mdx')).not.toContain('script')

    const page = await docent.app.request(`/review/${jobId}`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    const html = await page.text()
    expect(html).toContain('<title>Welcome &lt;edits&gt; · Docent review</title>')
    expect(html).toContain('Changed the &quot;welcome&quot; page.')
    expect(html).toContain('2 files changed')
    expect(html).toContain('<span class="del">-Lumen Flags ships flags.</span>')
    expect(html).toContain('<span class="add">+Lumen Flags &lt;script&gt;alert(1)&lt;/script&gt; ships flags.</span>')
    expect(html).toContain('<span class="add">+# New &amp; shiny</span>')
    expect(html).toContain('+++ b/guides/new.mdx')
    expect(html).not.toContain('<script>')

    // A follow-up continues the branch and extends the same record: title and description kept, its own part appended.
    const followUp = await factory.open({ ...ctx.agentGit.repository(project), preferBranch: branch, jobId })
    expect(await followUp.readFile('guides/new.mdx')).toBe('# New & shiny\n')
    await followUp.deleteFile('guides/setup.mdx')
    await followUp.commit({ message: 'Remove setup', author })
    await followUp.push(branch)
    const again = await host.openOrUpdatePullRequest({
      jobId,
      branch,
      base: 'main',
      title: 'Welcome, second round',
      body: '',
      addition: 'Follow-up 2: remove the setup page',
      existing: pr,
    })
    expect(again).toEqual(pr)
    expect((await git(bare, 'rev-list', '--count', branch)).trim()).toBe('3')
    const html2 = await (await docent.app.request(`/review/${jobId}`)).text()
    expect(html2).toContain('<title>Welcome &lt;edits&gt; · Docent review</title>')
    expect(html2).toContain('Changed the &quot;welcome&quot; page.\n\nFollow-up 2: remove the setup page')
    expect(html2).toContain('3 files changed')
    expect(html2).toContain('<span class="del">-Install Lumen Flags.</span>')
  })

  it('refuses a non-fast-forward push to the branch', async () => {
    const ctx = docent.context
    const factory = ctx.agentGit.workspaces
    const a = await factory.open({ repository: 'local:demo', ref: 'main' })
    const b = await factory.open({ repository: 'local:demo', ref: 'main' })
    await a.writeFile('index.mdx', 'a\n')
    await a.commit({ message: 'a', author })
    await a.push('docent/race')
    await b.writeFile('index.mdx', 'b\n')
    await b.commit({ message: 'b', author })
    await expect(b.push('docent/race')).rejects.toThrow(/the branch on the remote has commits this run did not start from/)
  })

  it('answers 404 for unknown jobs, jobs without a branch and odd ids', async () => {
    await docent.context.store.insertJob({ ...job('jobNoBranch', ''), branch: null })
    for (const id of ['nope', 'jobNoBranch', '..%2F..%2Fetc']) {
      const page = await docent.app.request(`/review/${id}`, { headers: { accept: 'text/html' } })
      expect(page.status).toBe(404)
      expect(await page.text()).toContain('No review')
      const api = await docent.app.request(`/review/${id}`)
      expect(api.status).toBe(404)
      expect(((await api.json()) as { error: string }).error).toMatch(/no review/)
    }
  })

  it('refuses local repository names that would leave the data dir', async () => {
    const factory = docent.context.agentGit.workspaces
    await expect(factory.open({ repository: 'local:../etc', ref: 'main' })).rejects.toThrow(/invalid local repository name/)
  })

  it('a branch git cannot read (from before paths were checked) gives a readable review page, not a 500', async () => {
    const repo = await docent.context.agentGit.localRepositories.open('demo')
    const main = await isogit.resolveRef({ ...repo, ref: 'refs/heads/main' })
    const { commit: base } = await isogit.readCommit({ ...repo, oid: main })
    const { tree } = await isogit.readTree({ ...repo, oid: base.tree })
    const blob = await isogit.writeBlob({ ...repo, blob: new TextEncoder().encode('[core]\n') })
    const bad = await isogit.writeTree({ ...repo, tree: [...tree, { mode: '100644', path: '.git ', oid: blob, type: 'blob' }] })
    const commit = await isogit.writeCommit({ ...repo, commit: { ...base, tree: bad, parent: [main], message: 'hostile\n' } })
    await isogit.writeRef({ ...repo, ref: 'refs/heads/docent/hostile', value: commit })
    await docent.context.store.insertJob(job('jobHostile', 'docent/hostile'))
    for (let visit = 0; visit < 2; visit++) {
      const page = await docent.app.request('/review/jobHostile')
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('This review cannot be shown: the repository could not be read')
    }
  })
})
