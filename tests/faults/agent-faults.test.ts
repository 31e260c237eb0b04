import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { AgentJob } from '../../shared/agent.ts'
import type { Logger } from '../../server/log.ts'
import { createDocent, type Docent, type DocentConfigInput } from '../../server/mod.ts'
import { startGitHubPulls } from '../agent/support/github-pulls.ts'
import { bearer, json } from '../support/app.ts'
import { createRepo, type GitServer, startGitServer } from '../support/git-server.ts'
import { type ScriptedOpenAI, startScriptedOpenAI } from '../support/scripted-openai.ts'

// A git host that fails (500 from its API, an API that never answers, a git remote that answers 500) ends the job
// `failed` with a readable error that carries no token, and the next job on a working host still completes.

const ADMIN = 'svc_FaultsAdminKey000000000000000001'
const TOKEN = 'ghp_faults_secret_token_value'

let gitServer: GitServer
let github: Awaited<ReturnType<typeof startGitHubPulls>>
let model: ScriptedOpenAI
let broken: Server
let brokenUrl: string
const logLines: string[] = []

beforeAll(async () => {
  gitServer = await startGitServer()
  github = await startGitHubPulls(TOKEN)
  model = await startScriptedOpenAI((request) =>
    request.messages.some((message) => message.role === 'tool')
      ? { toolCalls: [{ name: 'finish', arguments: { summary: 'Add a note' } }] }
      : { toolCalls: [{ name: 'write_file', arguments: { path: 'notes/fault.mdx', content: '---\ntitle: Fault\n---\n\nA note.\n' } }] },
  )
  // /fail/* answers 500 to everything (git smart HTTP and API alike); /hang/* never answers.
  broken = createServer((req, res) => {
    if (req.url?.startsWith('/fail/')) res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error')
    else req.socket.on('error', () => {})
  })
  await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve))
  brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`
})

afterAll(async () => {
  broken?.closeAllConnections()
  await new Promise((resolve) => broken?.close(resolve))
  await Promise.all([gitServer?.close(), github?.close(), model?.close()])
})

const capture: Logger = {
  info: (message, fields) => logLines.push(JSON.stringify({ message, ...fields })),
  warn: (message, fields) => logLines.push(JSON.stringify({ message, ...fields })),
  error: (message, fields) => logLines.push(JSON.stringify({ message, ...fields })),
}

type AgentSettings = NonNullable<DocentConfigInput['projects']>[number]['agent']

async function docentWith(agent: AgentSettings, limits: Record<string, number> = {}): Promise<Docent> {
  const docent = await createDocent(
    {
      store: { kind: 'memory' },
      adminKey: ADMIN,
      seedDemoKeys: true,
      limits,
      agentWorker: { pollMs: 50 },
      model: { provider: 'openai', id: 'gpt-test', baseURL: model.baseURL },
      projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs' }, agent }],
    },
    { log: capture, env: { GITHUB_TOKEN: TOKEN, OPENAI_API_KEY: 'scripted' } },
  )
  await docent.start()
  return docent
}

async function runJob(docent: Docent, prompt: string): Promise<{ job: AgentJob; events: string }> {
  const created = await docent.app.request('/v2/agent/demo/job', json({ prompt }, bearer(ADMIN)))
  expect(created.status).toBe(200)
  const { id } = (await created.json()) as AgentJob
  for (let i = 0; i < 600; i++) {
    const job = (await (await docent.app.request(`/v2/agent/demo/job/${id}`, { headers: bearer(ADMIN) })).json()) as AgentJob
    if (job.status !== 'active') {
      const events = await (await docent.app.request(`/v2/agent/demo/job/${id}/events`, { headers: bearer(ADMIN) })).text()
      return { job, events }
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`job ${id} still active after 30 s`)
}

const githubHost = (apiBase: string) => ({ kind: 'github' as const, apiBase, repo: 'acme/docs', token: { env: 'GITHUB_TOKEN' } })

describe('git host faults', () => {
  test('the pull-request API answers 500 → failed with a readable error; the next job on a working host completes', async () => {
    const repo = await createRepo(gitServer, 'faults-api-500', { sourceDir: 'demo/docs' })
    const failing = await docentWith({ repository: repo.url, token: { env: 'GITHUB_TOKEN' }, host: githubHost(`${brokenUrl}/fail/api`) })
    try {
      const { job, events } = await runJob(failing, 'Add a note about faults')
      expect(job.status).toBe('failed')
      expect(job.prLink).toBeNull()
      expect(job.error).toMatch(/GitHub .*500/)
      expect(job.error).not.toContain(TOKEN)
      expect(events).not.toContain(TOKEN)
    } finally {
      await failing.stop()
    }
    const working = await docentWith({ repository: repo.url, token: { env: 'GITHUB_TOKEN' }, host: githubHost(github.url) })
    try {
      const { job } = await runJob(working, 'Add a note about faults')
      expect(job).toMatchObject({ status: 'completed', error: null })
      expect(job.prLink).toMatch(/\/pull\/\d+$/)
    } finally {
      await working.stop()
    }
  }, 60_000)

  test('a pull-request API that never answers → the run time limit fails the job with a readable error', async () => {
    const repo = await createRepo(gitServer, 'faults-api-hang', { sourceDir: 'demo/docs' })
    const hanging = await docentWith({ repository: repo.url, host: githubHost(`${brokenUrl}/hang/api`) }, { agentRunSeconds: 3 })
    try {
      const { job } = await runJob(hanging, 'Add a note about faults')
      expect(job.status).toBe('failed')
      expect(job.error).toMatch(/time|limit|3 s/i)
      // The job is not stuck and the next one is accepted and run.
      const next = await runJob(hanging, 'Add another note')
      expect(next.job.status).toBe('failed')
    } finally {
      await hanging.stop()
    }
  }, 60_000)

  test('a git remote that answers 500 → failed with a readable error naming the clone, no token', async () => {
    const failing = await docentWith({
      repository: `${brokenUrl}/fail/docs.git`,
      token: { env: 'GITHUB_TOKEN' },
      host: githubHost(github.url),
    })
    try {
      const { job, events } = await runJob(failing, 'Add a note about faults')
      expect(job.status).toBe('failed')
      expect(job.error).toMatch(/500|clone|fetch/i)
      expect(job.error).not.toContain(TOKEN)
      expect(events).not.toContain(TOKEN)
    } finally {
      await failing.stop()
    }
  }, 60_000)

  test('the token never reaches the logs', () => {
    expect(logLines.length).toBeGreaterThan(0)
    for (const line of logLines) expect(line).not.toContain(TOKEN)
  })
})
