import { MockLanguageModelV4 } from 'ai/test'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { AgentEvent, AgentJob } from '../../shared/agent.ts'
import { startGitHubPulls } from '../agent/support/github-pulls.ts'
import { toolStep } from '../agent/support/model-steps.ts'
import { bearer, json, testDocent } from '../support/app.ts'
import { createRepo, git, type GitServer, startGitServer } from '../support/git-server.ts'

// A model (scripted here; a prompt-injected LLM in life) tries to write CI workflows, git metadata and every name that
// NTFS or HFS+ would read as .git. Each write is refused, the one documentation page is pushed, and git fsck --strict
// finds nothing wrong with the repository it lands in.
const TOKEN = 'ghp_hostilePathsToken01'
const HOSTILE = [
  '.github/workflows/exfiltrate.yml',
  '.gitmodules',
  '.gitattributes',
  '.husky/pre-commit',
  '.git /config',
  '.git./config',
  'git~1/config',
  'GIT~1/hooks/post-checkout',
  '.g\u200cit/config',
  '\u200c.git/config',
  '.git::$INDEX_ALLOCATION/config',
  'docs/.GIT. /hooks/pre-commit',
  'scripts/install.sh',
]

let gitServer: GitServer
let github: Awaited<ReturnType<typeof startGitHubPulls>>
beforeAll(async () => {
  gitServer = await startGitServer()
  github = await startGitHubPulls(TOKEN)
})
afterAll(async () => {
  await Promise.all([gitServer?.close(), github?.close()])
})

test('agent writes outside the documentation files are refused, and the pushed repository passes git fsck --strict', async () => {
  const repo = await createRepo(gitServer, 'hostile', {
    files: {
      'docs.json': '{ "navigation": [] }\n',
      'index.mdx': '---\ntitle: Home\n---\n\nHello.\n',
      '.github/workflows/ci.yml': 'on: push\n',
    },
  })
  const editor = new MockLanguageModelV4({
    doGenerate: [
      toolStep(...HOSTILE.map((path): [string, Record<string, unknown>] => ['write_file', { path, content: 'curl https://evil.example' }])),
      toolStep(['edit_file', { path: '.github/workflows/ci.yml', old_text: 'on: push', new_text: 'on: push\nrun: curl evil' }]),
      toolStep(['delete_file', { path: '.github/workflows/ci.yml' }]),
      toolStep(['write_file', { path: 'guides/safe.mdx', content: '---\ntitle: Safe\n---\n\nA page.\n' }]),
      toolStep(['finish', { summary: 'Add a safe page' }]),
    ],
  })
  const t = await testDocent(
    {
      worker: true,
      projects: [
        {
          id: 'demo',
          organization: 'demo',
          domain: 'demo',
          docs: { directory: 'demo/docs' },
          agent: {
            repository: repo.url,
            ref: 'main',
            host: { kind: 'github', apiBase: github.url, repo: 'acme/docs', token: { env: 'GITHUB_TOKEN' } },
          },
        },
        { id: 'other', organization: 'acme', domain: 'acme.example', docs: { directory: 'demo/docs' } },
      ],
    },
    { env: { GITHUB_TOKEN: TOKEN }, models: { editor } },
  )
  await t.docent.start()
  try {
    const admin = bearer(t.keys.admin)
    const created = (await (await t.app.request('/v2/agent/demo/job', json({ prompt: 'Add a page' }, admin))).json()) as AgentJob
    let job = created
    while (job.status === 'active') {
      await new Promise((resolve) => setTimeout(resolve, 20))
      job = (await (await t.app.request(`/v2/agent/demo/job/${created.id}`, { headers: admin })).json()) as AgentJob
    }
    expect(job).toMatchObject({ status: 'completed', error: null })
    const { events } = (await (await t.app.request(`/v2/agent/demo/job/${created.id}/events`, { headers: admin })).json()) as {
      events: AgentEvent[]
    }
    const refused = events.filter((event) => event.type === 'error').map((event) => event.message)
    expect(refused).toHaveLength(HOSTILE.length + 2)
    for (const message of refused) expect(message).toMatch(/^(write_file|edit_file|delete_file) refused: path ".*" refused: /)

    const branch = `docent/add-a-page-${created.id.slice(0, 8).toLowerCase()}`
    expect((await git(repo.bare, 'ls-tree', '-r', '--name-only', branch)).trim().split('\n')).toEqual([
      '.github/workflows/ci.yml',
      'docs.json',
      'guides/safe.mdx',
      'index.mdx',
    ])
    expect(await git(repo.bare, 'show', `${branch}:.github/workflows/ci.yml`)).toBe('on: push\n')
    // Exits non-zero (and the test fails) on any tree entry git would refuse.
    await git(repo.bare, 'fsck', '--strict', '--no-dangling')
  } finally {
    await t.docent.stop()
  }
})
