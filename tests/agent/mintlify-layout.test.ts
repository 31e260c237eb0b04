import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { AgentJob } from '../../shared/agent.ts'
import { bearer, json, testDocent } from '../support/app.ts'
import { createRepo, git, type GitServer, startGitServer } from '../support/git-server.ts'
import { startGitHubPulls } from './support/github-pulls.ts'

// An agent job on a real docs layout: the Mintlify docs (1,100+ pages in four languages, a real docs.json) pushed to
// a real git server, edited by the offline editor through the in-memory workspace, with a pull request per job.

const CORPUS = '../shared/corpora/mintlify-docs'
const present = existsSync(`${CORPUS}/docs.json`)
if (!present) console.log(`skipping the agent run on the Mintlify layout: ${CORPUS} is absent`)

const GITHUB_TOKEN = 'ghp_mintlify_layout_token'
let gitServer: GitServer
let github: Awaited<ReturnType<typeof startGitHubPulls>>

beforeAll(async () => {
  if (!present) return
  gitServer = await startGitServer()
  github = await startGitHubPulls(GITHUB_TOKEN)
})
afterAll(async () => {
  await Promise.all([gitServer?.close(), github?.close()])
})

describe.skipIf(!present)('agent jobs on the Mintlify docs layout', () => {
  test('adds a page beside an existing one of the same name, listed in the English navigation, then a follow-up edits on the same branch and PR', async () => {
    const repo = await createRepo(gitServer, 'mintlify', { sourceDir: CORPUS })
    const base = (await git(repo.bare, 'rev-parse', 'main')).trim()
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
        ],
      },
      { env: { GITHUB_TOKEN } },
    )
    await t.docent.start()
    try {
      const admin = bearer(t.keys.admin)
      const settled = async (id: string): Promise<AgentJob> => {
        for (;;) {
          const job = (await (await t.app.request(`/v2/agent/demo/job/${id}`, { headers: admin })).json()) as AgentJob
          if (job.status !== 'active') return job
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }

      // "Quickstart" exists at the root, where the "Get started" group's pages live: the new page must not replace it.
      const created = (await (
        await t.app.request(
          '/v2/agent/demo/job',
          json({ prompt: 'Add a page titled "Quickstart" in the "Get started" group with the text "A second quickstart."' }, admin),
        )
      ).json()) as AgentJob
      const first = await settled(created.id)
      expect(first.status, first.error ?? '').toBe('completed')
      expect(first.prLink).toMatch(/^https:\/\/github\.example\/acme\/docs\/pull\/\d+$/)
      const branch = github.pulls.at(-1)!.head
      expect(branch).toMatch(/^docent\//)
      expect((await git(repo.bare, 'diff', '--name-status', 'main', branch)).trim().split('\n').sort()).toEqual([
        'A\tquickstart-2.mdx',
        'M\tdocs.json',
      ])
      expect(await git(repo.bare, 'show', `${branch}:quickstart.mdx`)).toBe(await git(repo.bare, 'show', 'main:quickstart.mdx'))

      // docs.json: one page added to the English "Get started" group, and nothing else changed (formatting included).
      const diff = await git(repo.bare, 'diff', '--unified=0', 'main', branch, '--', 'docs.json')
      const changed = diff.split('\n').filter((line) => /^[+-](?![+-])/.test(line))
      // The new entry, and a comma after the entry that was last.
      expect(changed.filter((line) => line.startsWith('+')).map((line) => line.slice(1).trim())).toContain('"quickstart-2"')
      expect(changed).toHaveLength(3)
      const docs = JSON.parse(await git(repo.bare, 'show', `${branch}:docs.json`))
      const english = docs.navigation.languages.find((l: { language: string }) => l.language === 'en')
      const group = english.tabs[0].groups.find((g: { group: string }) => g.group === 'Get started')
      expect(group.pages).toContain('quickstart-2')

      const followUp = (await (
        await t.app.request(
          `/v2/agent/demo/job/${created.id}/message`,
          json({ prompt: 'Replace "Mintlify" with "Mintlify Docs" in quickstart.mdx' }, admin),
        )
      ).json()) as AgentJob
      expect(followUp.status).toBe('active')
      const second = await settled(created.id)
      expect(second.status, second.error ?? '').toBe('completed')
      expect(second.prLink).toBe(first.prLink)
      expect(github.pulls).toHaveLength(1)
      expect((await git(repo.bare, 'rev-list', '--count', `main..${branch}`)).trim()).toBe('2')
      expect((await git(repo.bare, 'diff', '--name-only', `${branch}~1`, branch)).trim()).toBe('quickstart.mdx')
      const quickstart = await git(repo.bare, 'show', `${branch}:quickstart.mdx`)
      expect(quickstart).toContain('Mintlify Docs')
      expect(quickstart.replaceAll('Mintlify Docs', '')).not.toContain('Mintlify')
      expect((await git(repo.bare, 'rev-parse', 'main')).trim()).toBe(base)
    } finally {
      await t.docent.stop()
    }
  }, 180_000)
})
