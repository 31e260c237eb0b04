import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bearer, json, testDocent } from '../support/app.ts'
import { createRepo, git, type GitServer } from '../support/git-server.ts'
import type { ScriptedOpenAI } from '../support/scripted-openai.ts'
import type { startGitHubPulls } from './support/github-pulls.ts'
import { agentApi, type startQueuedModel, startAgentServers, toolCalls } from './support/agent-api.ts'
import { startHoldingProxy } from './support/holding-proxy.ts'

const SECRETS = {
  OPENAI_API_KEY: 'sk-test-0penai-secret-key',
  GITHUB_TOKEN: 'ghp_test_github_secret_token',
  GIT_TOKEN: 'git-http-secret-password',
}

let gitServer: GitServer
/** The assistant's docs: one small page, so indexing stays out of the way of the agent under test. */
let assistantDocs: string
let github: Awaited<ReturnType<typeof startGitHubPulls>>
let openai: ScriptedOpenAI
/** The replies the scripted model gives, in order; each test queues its own. */
let replies: Awaited<ReturnType<typeof startQueuedModel>>['replies']

let close = async () => {}
beforeAll(async () => {
  ;({ assistantDocs, gitServer, github, openai, replies, close } = await startAgentServers(SECRETS))
})
afterAll(() => close())

async function setup(repoName: string, limits: Record<string, number> = {}, modelBaseURL?: string) {
  const repo = await createRepo(gitServer, repoName, { sourceDir: 'demo/docs' })
  const t = await testDocent(
    {
      worker: true,
      ...(Object.keys(limits).length ? { limits } : {}),
      model: { provider: 'openai', id: 'gpt-test', baseURL: modelBaseURL ?? openai.baseURL, apiKey: { env: 'OPENAI_API_KEY' } },
      projects: [
        {
          id: 'demo',
          organization: 'demo',
          domain: 'demo',
          docs: { directory: assistantDocs },
          agent: {
            repository: repo.url,
            ref: 'main',
            token: { env: 'GIT_TOKEN' },
            host: { kind: 'github', apiBase: github.url, repo: 'acme/docs', token: { env: 'GITHUB_TOKEN' } },
            author: { name: 'Docent Bot', email: 'bot@docent.test' },
          },
        },
        { id: 'other', organization: 'acme', domain: 'acme.example', docs: { directory: assistantDocs } },
      ],
    },
    { env: SECRETS },
  )
  await t.docent.start()
  return { ...t, repo, ...agentApi(t.app, t.keys.admin), stop: () => t.docent.stop() }
}

describe('agent job through @ai-sdk/openai against a scripted OpenAI-compatible server, real git server and GitHub API', () => {
  test('edits, commits, pushes and opens a PR; a follow-up adds a commit to the same branch and keeps the same prLink', async () => {
    const t = await setup('docs-openai')
    const mainBefore = (await git(t.repo.bare, 'rev-parse', 'main')).trim()
    const start = openai.requests.length
    const before = github.pulls.length
    replies.push(
      toolCalls(['read_file', { path: 'quickstart.mdx' }]),
      toolCalls(['edit_file', { path: 'quickstart.mdx', old_text: 'Lumen Flags', new_text: 'Lumen Toggles', replace_all: true }]),
      toolCalls(['finish', { summary: 'Rename the product in the quickstart\n\nLumen Flags is now Lumen Toggles.' }]),
    )
    const created = await t.create('Rename Lumen Flags to Lumen Toggles in the quickstart')
    expect(created).toMatchObject({ status: 'active', prLink: null, model: 'gpt-test' })
    const done = await t.settled(created.id)
    expect(done).toMatchObject({ status: 'completed', error: null, prLink: `https://github.example/acme/docs/pull/${before + 1}` })

    // The model saw the system prompt, the request and the tools, with the API key and nothing else secret.
    const first = openai.requests[start]!
    expect(first.model).toBe('gpt-test')
    expect(first.tools!.map((tool) => tool.function.name).sort()).toEqual([
      'delete_file',
      'edit_file',
      'finish',
      'list_files',
      'read_file',
      'search_docs',
      'write_file',
    ])
    expect(openai.promptOf(first)).toContain('docs.json')
    expect(openai.promptOf(first)).toContain('Rename Lumen Flags to Lumen Toggles in the quickstart')
    expect(JSON.stringify(openai.requests)).not.toMatch(/ghp_test|git-http-secret/)

    // Read the pushed branch back with the git CLI.
    const branch = github.pulls[before]!.head
    expect(branch).toMatch(new RegExp(`^docent/rename-lumen-flags-[a-z0-9-]*-${created.id.slice(0, 8).toLowerCase()}$`))
    expect(github.pulls[before]).toMatchObject({ base: 'main', title: 'Rename the product in the quickstart' })
    expect(github.pulls[before]!.body).toContain('Lumen Flags is now Lumen Toggles.')
    expect((await git(t.repo.bare, 'diff', '--name-only', `main..${branch}`)).trim()).toBe('quickstart.mdx')
    const quickstart = await git(t.repo.bare, 'show', `${branch}:quickstart.mdx`)
    expect(quickstart).toContain('Lumen Toggles')
    expect(quickstart).not.toContain('Lumen Flags')
    const message = await git(t.repo.bare, 'log', '-1', '--format=%B', branch)
    expect(message).toMatch(/^Rename the product in the quickstart\n/)
    expect(message).toContain(`Docent-Job: ${created.id}`)
    expect((await git(t.repo.bare, 'log', '-1', '--format=%an <%ae>', branch)).trim()).toBe('Docent Bot <bot@docent.test>')
    expect((await git(t.repo.bare, 'rev-parse', 'main')).trim()).toBe(mainBefore)

    // Follow-up: same conversation, same branch, same PR.
    replies.push(
      (request) => {
        // The stored conversation came back: the first prompt and the first run's tool calls.
        const prompt = openai.promptOf(request)
        if (!prompt.includes('Rename Lumen Flags to Lumen Toggles in the quickstart')) return { status: 400, error: 'conversation lost' }
        if (!JSON.stringify(request.messages).includes('edit_file')) return { status: 400, error: 'tool calls lost' }
        return toolCalls(['write_file', { path: 'guides/rollback.mdx', content: '---\ntitle: "Rollback"\n---\n\nTurn the toggle off.\n' }])
      },
      toolCalls(['finish', { summary: 'Add a rollback guide' }]),
    )
    const followUp = await t.followUp(created.id, 'Also add a short rollback guide')
    expect(followUp).toMatchObject({ status: 'active', prLink: null })
    const again = await t.settled(created.id)
    expect(again).toMatchObject({ status: 'completed', error: null, prLink: done.prLink })
    expect((await git(t.repo.bare, 'rev-list', '--count', `main..${branch}`)).trim()).toBe('2')
    expect(await git(t.repo.bare, 'show', `${branch}:guides/rollback.mdx`)).toContain('Turn the toggle off.')
    expect(await git(t.repo.bare, 'show', `${branch}:quickstart.mdx`)).toContain('Lumen Toggles')
    expect(github.pulls).toHaveLength(before + 1)
    expect(github.created()).toBe(before + 1)
    // The follow-up keeps the PR's title and first description, and appends its own part.
    expect(github.pulls[before]!.title).toBe('Rename the product in the quickstart')
    expect(github.pulls[before]!.body).toMatch(
      /^Rename the product in the quickstart\n[\s\S]*1\. Rename Lumen Flags[\s\S]*\n\n---\nFollow-up 2: Also add a short rollback guide\n\nAdd a rollback guide$/,
    )
    expect((await git(t.repo.bare, 'rev-parse', 'main')).trim()).toBe(mainBefore)

    const events = await t.events(created.id)
    const types = events.map((event) => event.type)
    for (const type of ['run.started', 'file.read', 'file.changed', 'commit', 'push', 'pr', 'run.finished']) expect(types).toContain(type)
    expect(types.filter((type) => type === 'run.finished')).toHaveLength(2)
    const text = JSON.stringify(events)
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret)
    await t.stop()
  })

  test('tools refuse path escapes (the model is told, nothing changes) and a job without changes has no PR', async () => {
    const t = await setup('docs-escape')
    const pullsBefore = github.pulls.length
    let toolResults = ''
    replies.push(
      toolCalls(
        ['read_file', { path: '../etc/passwd' }],
        ['read_file', { path: '/etc/passwd' }],
        [
          'write_file',
          {
            path: '.git/config',
            content: 'x',
          },
        ],
      ),
      (request) => {
        toolResults = JSON.stringify(request.messages.filter((message) => message.role === 'tool'))
        return toolCalls(['finish', { summary: 'No change: nothing to do' }])
      },
    )
    const job = await t.create('Read some files outside the repository')
    const done = await t.settled(job.id)
    expect(done).toMatchObject({ status: 'completed', prLink: null, error: null })
    expect(toolResults).toMatch(/would leave the repository/)
    expect(toolResults).toMatch(/absolute paths are not allowed/)
    expect(toolResults).toMatch(/\.git/)
    const events = await t.events(job.id)
    expect(events.filter((event) => event.type === 'error').map((event) => event.message)).toHaveLength(3)
    expect(events.map((event) => event.type)).not.toContain('commit')
    expect(github.pulls.length).toBe(pullsBefore)
    expect((await git(t.repo.bare, 'branch', '--list', 'docent/*')).trim()).toBe('')
    await t.stop()
  })

  test('a model server that keeps failing ends the job failed with a clear error', async () => {
    const t = await setup('docs-model-down')
    replies.push({ status: 503, error: 'model overloaded' }, { status: 503, error: 'model overloaded' })
    const job = await t.create('Fix the typos')
    const done = await t.settled(job.id)
    expect(done.status).toBe('failed')
    expect(done.error).toMatch(/model overloaded/)
    expect(done.prLink).toBeNull()
    expect(JSON.stringify(await t.events(job.id))).not.toContain(SECRETS.OPENAI_API_KEY)
    replies.length = 0
    await t.stop()
  })

  test('limits: a write past the changed-bytes limit is refused; the step limit fails the run, keeps its work on the branch, opens no PR', async () => {
    const t = await setup('docs-limits', { agentMaxSteps: 3, agentMaxChangedBytes: 200 })
    replies.push(
      toolCalls(['write_file', { path: 'guides/small.mdx', content: '---\ntitle: Small\n---\n\nShort.\n' }]),
      toolCalls(['write_file', { path: 'guides/big.mdx', content: `---\ntitle: Big\n---\n\n${'x'.repeat(500)}\n` }]),
      toolCalls(['list_files', {}]),
      toolCalls(['list_files', {}]),
    )
    const pullsBefore = github.pulls.length
    const job = await t.create('Write two guides')
    const done = await t.settled(job.id)
    const branch = `docent/write-two-guides-${job.id.slice(0, 8).toLowerCase()}`
    expect(done).toMatchObject({
      status: 'failed',
      prLink: null,
      error: `the run stopped at the step limit (3 steps) before the model called finish; its changes so far are on ${branch}; send a follow-up to continue`,
    })
    const events = await t.events(job.id)
    const errors = events.filter((event) => event.type === 'error').map((event) => event.message)
    expect(errors).toEqual([
      expect.stringMatching(/write_file refused: .*changed bytes; the limit is 200/),
      'the run stopped at the step limit (3 steps) before the model called finish',
    ])
    expect(events.map((event) => event.type)).not.toContain('pr')
    expect(github.pulls).toHaveLength(pullsBefore)
    expect((await git(t.repo.bare, 'diff', '--name-only', `main..${branch}`)).trim()).toBe('guides/small.mdx')
    replies.length = 0
    await t.stop()
  })

  test('archiving a job while the model is working aborts the run: archived, run cancelled, no push, no PR', async () => {
    const proxy = await startHoldingProxy(openai.baseURL.replace(/\/v1$/, ''))
    try {
      const t = await setup('docs-archive', {}, `${proxy.url}/v1`)
      const pullsBefore = github.created()
      proxy.state.hold = true
      const job = await t.create('Rename everything')
      while (proxy.state.held === 0) await new Promise((resolve) => setTimeout(resolve, 20))
      const archived = await (await t.app.request(`/v2/agent/demo/job/${job.id}/archive`, json({}, bearer(t.keys.admin)))).json()
      expect(archived).toMatchObject({ status: 'archived', prLink: null })
      // The archive aborted the model call in flight (the worker is still running: this is not shutdown).
      while (proxy.state.dropped === 0) await new Promise((resolve) => setTimeout(resolve, 20))
      await t.stop()
      expect((await t.store.listRuns(job.id)).map((run) => run.status)).toEqual(['cancelled'])
      expect((await t.store.getJob('demo', job.id))!.status).toBe('archived')
      const types = (await t.store.listJobEvents(job.id)).map((event) => event.type)
      expect(types).not.toContain('commit')
      expect(types).not.toContain('run.failed')
      expect(github.created()).toBe(pullsBefore)
    } finally {
      await proxy.close()
    }
  })
})
