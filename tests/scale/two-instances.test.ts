import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { AgentJob } from '../../shared/agent.ts'
import { startGitHubPulls } from '../agent/support/github-pulls.ts'
import { createRepo, git, type GitServer, startGitServer } from '../support/git-server.ts'
import { startPostgres } from '../support/postgres.ts'
import { type ScriptedOpenAI, startScriptedOpenAI } from '../support/scripted-openai.ts'
import { type ServerProcess, startServer } from '../support/server-process.ts'

// Two real server processes behind an imaginary load balancer, on one real PostgreSQL: each agent run executes once
// whichever instance took the job, follow-ups and threads cross instances, and the limits are shared.

const ADMIN = 'svc_TwoInstancesAdminKey00000000001'
const ASSISTANT = 'svc_dsc_TwoInstancesAssistantKey000001'
const GITHUB_TOKEN = 'ghp_two_instances_token'
const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }
const assistant = { authorization: `Bearer ${ASSISTANT}`, 'content-type': 'application/json' }

const pg = await startPostgres()

/** The text of the job's prompt marker (`[job-N]`) in a model request, so runs can be counted per job. */
const markerOf = (text: string) => /\[(job-\d+|follow-up)\]/.exec(text)?.[1]

if ('skip' in pg) {
  describe('two instances on PostgreSQL', () => test.skip(pg.skip, () => {}))
} else {
  let gitServer: GitServer
  let github: Awaited<ReturnType<typeof startGitHubPulls>>
  let model: ScriptedOpenAI
  let dataDir: string
  let repo: Awaited<ReturnType<typeof createRepo>>
  let a: ServerProcess
  let b: ServerProcess
  /** First-step model requests per marker: one per run. */
  const runsPerMarker = new Map<string, number>()

  beforeAll(async () => {
    gitServer = await startGitServer()
    github = await startGitHubPulls(GITHUB_TOKEN)
    repo = await createRepo(gitServer, 'docs-two-instances', { sourceDir: 'demo/docs' })
    model = await startScriptedOpenAI((request) => {
      if (!request.tools) return { text: 'Install the SDK with npm, then create a client with your SDK key [1].' }
      const prompts = request.messages.filter((message) => message.role === 'user').map((message) => String(message.content))
      const marker = markerOf(prompts.at(-1) ?? '') ?? 'unknown'
      const toolResultsSinceLastPrompt = request.messages
        .slice(request.messages.findLastIndex((message) => message.role === 'user'))
        .filter((message) => message.role === 'tool').length
      if (toolResultsSinceLastPrompt === 0) {
        runsPerMarker.set(marker, (runsPerMarker.get(marker) ?? 0) + 1)
        if (marker.startsWith('job-') && Number(marker.slice(4)) >= 4) {
          return { toolCalls: [{ name: 'finish', arguments: { summary: 'Nothing to change.' } }] }
        }
        return {
          toolCalls: [
            {
              name: 'write_file',
              arguments: { path: `notes/${marker}.mdx`, content: `---\ntitle: Note ${marker}\n---\n\nWritten for ${marker}.\n` },
            },
          ],
        }
      }
      return { toolCalls: [{ name: 'finish', arguments: { summary: `Add the note for ${marker}` } }] }
    })
    dataDir = await mkdtemp(join(tmpdir(), 'docent-two-instances-'))
    const configPath = join(dataDir, 'docent.config.json')
    await writeFile(
      configPath,
      JSON.stringify({
        model: { provider: 'openai', id: 'gpt-test', baseURL: model.baseURL },
        projects: [
          {
            id: 'demo',
            organization: 'demo',
            domain: 'demo',
            docs: { directory: 'demo/docs' },
            allowedOrigins: ['*'],
            agent: {
              repository: repo.url,
              ref: 'main',
              host: { kind: 'github', apiBase: github.url, repo: 'acme/docs', token: { env: 'GITHUB_TOKEN' } },
            },
          },
        ],
      }),
    )
    const env = {
      DOCENT_CONFIG: configPath,
      DOCENT_DATA_DIR: dataDir,
      DATABASE_URL: await pg.createDatabase('two_instances'),
      DOCENT_ADMIN_KEY: ADMIN,
      DOCENT_ASSISTANT_KEY: ASSISTANT,
      GITHUB_TOKEN,
      OPENAI_API_KEY: 'scripted',
      DOCENT_AGENT_POLL_MS: '100',
    } // Started together: migrations and key seeding race, as they do when a deployment scales out.
    ;[a, b] = await Promise.all([startServer('node', env, { timeoutMs: 120_000 }), startServer('node', env, { timeoutMs: 120_000 })])
  }, 180_000)

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()].map((stopping) => stopping?.catch(() => {})))
    await Promise.all([gitServer?.close(), github?.close(), model?.close()])
    await pg.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const post = (server: ServerProcess, path: string, body: unknown, headers = admin) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
  const getJob = async (server: ServerProcess, id: string) =>
    (await (await fetch(`${server.url}/v2/agent/demo/job/${id}`, { headers: admin })).json()) as AgentJob
  const settled = async (server: ServerProcess, id: string): Promise<AgentJob> => {
    for (let i = 0; i < 1200; i++) {
      const job = await getJob(server, id)
      if (job.status !== 'active') return job
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`job ${id} still active after 120 s`)
  }
  const runStarts = async (server: ServerProcess, id: string) => {
    const { events } = (await (await fetch(`${server.url}/v2/agent/demo/job/${id}/events`, { headers: admin })).json()) as {
      events: Array<{ type: string }>
    }
    return events.filter((event) => event.type === 'run.started').length
  }

  describe('two instances on PostgreSQL', () => {
    test('jobs created on either instance run exactly once; a follow-up on the other instance continues the same PR', async () => {
      const jobs: AgentJob[] = []
      for (let n = 0; n < 8; n++) {
        const response = await post(n % 2 ? b : a, '/v2/agent/demo/job', { prompt: `Add a short note page [job-${n}]` })
        expect(response.status).toBe(200)
        jobs.push((await response.json()) as AgentJob)
      }
      const done = await Promise.all(jobs.map((job, n) => settled(n % 2 ? a : b, job.id)))
      for (const job of done) expect(job, JSON.stringify(job)).toMatchObject({ status: 'completed', error: null })
      for (let n = 0; n < 8; n++) {
        expect(runsPerMarker.get(`job-${n}`), `runs of job-${n}`).toBe(1)
        expect(await runStarts(n % 2 ? a : b, jobs[n]!.id), `run.started events of job-${n}`).toBe(1)
      }
      // Jobs 0..3 changed a file and opened one PR each; 4..7 changed nothing and opened none.
      expect(done.slice(0, 4).every((job) => job.prLink?.startsWith('https://github.example/acme/docs/pull/'))).toBe(true)
      expect(done.slice(4).every((job) => job.prLink === null)).toBe(true)
      expect(github.created()).toBe(4)

      // Follow-up to a job created on A, sent to B: same branch, one more commit, same PR.
      const first = done[0]!
      const followUp = await post(b, `/v2/agent/demo/job/${first.id}/message`, { prompt: 'Add one more note [follow-up]' })
      expect(followUp.status).toBe(200)
      expect(((await followUp.json()) as AgentJob).prLink).toBeNull()
      const again = await settled(a, first.id)
      expect(again).toMatchObject({ status: 'completed', prLink: first.prLink })
      expect(github.created()).toBe(4)
      expect(runsPerMarker.get('follow-up')).toBe(1)
      const head = github.pulls.find((pull) => first.prLink!.endsWith(`/pull/${pull.number}`))!.head
      const files = await git(repo.bare, 'ls-tree', '-r', '--name-only', head)
      expect(files).toContain('notes/job-0.mdx')
      expect(files).toContain('notes/follow-up.mdx')
      expect((await git(repo.bare, 'rev-list', '--count', `main..${head}`)).trim()).toBe('2')
    }, 240_000)

    test('threads continue across instances', async () => {
      const question = (id: string, text: string, threadId?: string) => ({
        fp: 'reader-1',
        threadId,
        messages: [{ id, role: 'user', parts: [{ type: 'text', text }] }],
      })
      const first = await post(a, '/discovery/v2/assistant/demo/message', question('q1', 'How do I install the SDK?'), assistant)
      expect(first.status).toBe(200)
      await first.text()
      const threadId = first.headers.get('x-thread-id')!
      const second = await post(b, '/discovery/v2/assistant/demo/message', question('q2', 'And in Python?', threadId), assistant)
      expect(second.status).toBe(200)
      await second.text()
      expect(second.headers.get('x-thread-id')).toBe(threadId)
      const thread = (await (await fetch(`${a.url}/v2/assistant/demo/threads/${threadId}`, { headers: admin })).json()) as {
        messages: Array<{ role: string }>
      }
      expect(thread.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    }, 60_000)

    test('the agent limit is shared: the 101st request in the hour is refused whichever instance gets it', async () => {
      // The limit counts per UTC hour, so the requests so far (8 jobs + 1 follow-up) may sit in the hour before: a probe
      // says how many this hour has left. Near the hour's end it waits for the next, so that the fill stays in one hour.
      const probe = async (): Promise<{ remaining: number; reset: number }> => {
        const response = await post(a, '/v2/agent/demo/job', { prompt: 'No change needed [job-probe]' })
        expect(response.status).toBe(200)
        return { remaining: Number(response.headers.get('ratelimit-remaining')), reset: Number(response.headers.get('ratelimit-reset')) }
      }
      let left = await probe()
      if (left.reset < 30) {
        await new Promise((resolve) => setTimeout(resolve, (left.reset + 1) * 1000))
        left = await probe()
      }
      expect(left.remaining).toBeLessThan(100)
      // Fill the hour up to 100 with jobs that change nothing.
      const fill: Promise<Response>[] = []
      for (let n = 0; n < left.remaining; n++) {
        fill.push(post(n % 2 ? a : b, '/v2/agent/demo/job', { prompt: `No change needed [job-${100 + n}]` }))
      }
      const statuses = await Promise.all(fill.map(async (response) => (await response).status))
      expect(statuses.every((status) => status === 200)).toBe(true)
      for (const server of [a, b]) {
        const refused = await post(server, '/v2/agent/demo/job', { prompt: 'one too many [job-999]' })
        expect(refused.status).toBe(429)
        expect(refused.headers.get('retry-after')).toBeTruthy()
        expect(((await refused.json()) as { error: string }).error).toMatch(/limit/i)
      }
    }, 120_000)
  })
}
