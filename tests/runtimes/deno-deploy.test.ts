import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createAgentClient } from '../../shared/client.ts'
import { startGitHubPulls } from '../agent/support/github-pulls.ts'
import { createRepo, type GitServer, startGitServer } from '../support/git-server.ts'
import { type ScriptedOpenAI, startScriptedOpenAI } from '../support/scripted-openai.ts'
import { freePort } from '../support/server-process.ts'

// The Deno Deploy entry (`demo/deno-deploy/main.ts`) under `deno serve`, configured by environment alone: the docs
// from a git repository, the agent on a GitHub-compatible host, an OpenAI-compatible model at OPENAI_BASE_URL with an
// embedding model for hybrid search, Deno KV as the store. Deploy itself has no signals; locally it must stop on the
// first SIGTERM.

const ADMIN = 'svc_DenoDeployTestAdminKey000000001'
const ASSISTANT = 'svc_dsc_DenoDeployTestAssistantKey01'
const GIT_TOKEN = 'deploy-git-secret'
const HOST_TOKEN = 'ghp_deploy_host_secret'

let gitServer: GitServer
let github: Awaited<ReturnType<typeof startGitHubPulls>>
let openai: ScriptedOpenAI
let dir: string
let child: ChildProcess
let output = ''
let base: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docent-deploy-'))
  gitServer = await startGitServer({ password: GIT_TOKEN })
  const repo = await createRepo(gitServer, 'docs', { sourceDir: 'demo/docs' })
  github = await startGitHubPulls(HOST_TOKEN, 'acme/docs')
  openai = await startScriptedOpenAI(
    (request) => {
      if (!request.tools) return { text: 'Flags are toggled per environment [1].' }
      const toolResults = request.messages.filter((message) => message.role === 'tool').length
      if (toolResults === 0) {
        return {
          toolCalls: [{ name: 'write_file', arguments: { path: 'deploy-note.mdx', content: '# Deploy note\n\nWritten on Deno.\n' } }],
        }
      }
      return { toolCalls: [{ name: 'finish', arguments: { summary: 'Add a deploy note' } }] }
    },
    { embed: (text) => [text.length % 7, 1, 0.5] },
  )
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  child = spawn('node_modules/.bin/deno', ['serve', '-A', '--unstable-kv', '--port', String(port), 'demo/deno-deploy/main.ts'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NO_COLOR: '1',
      DOCENT_KV_PATH: join(dir, 'kv.sqlite'),
      DOCENT_ADMIN_KEY: ADMIN,
      DOCENT_ASSISTANT_KEY: ASSISTANT,
      OPENAI_BASE_URL: openai.baseURL,
      DOCENT_MODEL: 'deploy-model',
      DOCENT_EMBEDDING_MODEL: 'deploy-embedder',
      DOCENT_DOCS_REPOSITORY: repo.url,
      DOCENT_AGENT_HOST: 'github',
      DOCENT_AGENT_HOST_REPO: 'acme/docs',
      DOCENT_AGENT_API_BASE: github.url,
      DOCENT_GIT_TOKEN: GIT_TOKEN,
      DOCENT_HOST_TOKEN: HOST_TOKEN,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`deno serve exited:\n${output}`)
    const ok = await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) break
    if (i > 600) throw new Error(`deno serve did not answer /healthz:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}, 120_000)

afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL')
  await Promise.all([gitServer?.close(), github?.close(), openai?.close()])
  await rm(dir, { recursive: true, force: true })
})

describe('Deno Deploy entry, configured by environment', () => {
  test('answers from the docs repository with the OpenAI-compatible model and embeds sections for hybrid search', async () => {
    const response = await fetch(`${base}/discovery/v2/assistant/demo/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ASSISTANT}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fp: 'reader', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do flags work?' }] }] }),
    })
    expect(response.status).toBe(200)
    const chunks = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string })
    expect(chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : [])).join('')).toBe(
      'Flags are toggled per environment [1].',
    )
    expect(openai.requests.some((request) => request.model === 'deploy-model')).toBe(true)
    for (let i = 0; i < 200 && openai.embeddingRequests.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(openai.embeddingRequests[0]?.model).toBe('deploy-embedder')
    // The docs came from the git repository, with the token.
    expect(gitServer.requests.some((request) => request.path.startsWith('/docs.git'))).toBe(true)
  }, 60_000)

  test('runs an agent job on the GitHub host named by the environment', async () => {
    const client = createAgentClient({ baseUrl: base, apiKey: ADMIN, projectId: 'demo' })
    const created = await client.createJob('Add a short deploy note page')
    const job = await client.waitForJob(created.id, { intervalMs: 200, timeoutMs: 90_000 })
    expect(job).toMatchObject({ status: 'completed', error: null, model: 'deploy-model' })
    expect(job.prLink).toMatch(/^https:\/\/github\.example\/acme\/docs\/pull\/\d+$/)
    expect(github.pulls).toHaveLength(1)
  }, 120_000)

  test('stops on the first SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    const code = await Promise.race([exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000))])
    expect(code).toBe(0)
  }, 30_000)
})
