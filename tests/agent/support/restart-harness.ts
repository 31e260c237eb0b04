import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { AgentJob } from '../../../shared/agent.ts'
import { createRepo, type GitServer, startGitServer } from '../../support/git-server.ts'
import { type ScriptedOpenAI, startScriptedOpenAI } from '../../support/scripted-openai.ts'
import { type ServerProcess, startServer } from '../../support/server-process.ts'
import { startGitHubPulls } from './github-pulls.ts'
import { startHoldingProxy } from './holding-proxy.ts'

// Real server processes on one PGlite data dir, a real git server, the GitHub pulls API, and a scripted model behind a
// proxy that can hold requests: a run is provably in progress while the model request is held, so a kill lands mid-run.

export const ADMIN = 'svc_RestartTestAdminKey0000000000001'
const GITHUB_TOKEN = 'ghp_restart_test_token'
const headers = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }

export async function startRestartHarness() {
  const gitServer: GitServer = await startGitServer()
  const github = await startGitHubPulls(GITHUB_TOKEN)
  // Every run that gets through edits the quickstart, then finishes.
  const openai: ScriptedOpenAI = await startScriptedOpenAI((request) => {
    const calls = request.messages.filter((message) => message.role === 'tool').length
    if (calls === 0) {
      return {
        toolCalls: [
          {
            name: 'edit_file',
            arguments: { path: 'quickstart.mdx', old_text: 'Lumen Flags', new_text: 'Lumen Toggles', replace_all: true },
          },
        ],
      }
    }
    return { toolCalls: [{ name: 'finish', arguments: { summary: 'Rename the product in the quickstart' } }] }
  })
  const proxy = await startHoldingProxy(openai.baseURL.replace(/\/v1$/, ''))
  const servers: ServerProcess[] = []
  const dirs: string[] = []

  async function project(name: string) {
    const repo = await createRepo(gitServer, name, { sourceDir: 'demo/docs' })
    const dataDir = await mkdtemp(join(tmpdir(), `docent-restart-${name}-`))
    dirs.push(dataDir)
    // The assistant's docs are one small page: indexing stays out of the way of the agent under test.
    await mkdir(join(dataDir, 'docs'))
    await writeFile(join(dataDir, 'docs', 'index.mdx'), '---\ntitle: Home\n---\n\nHello.\n')
    const configPath = join(dataDir, 'docent.config.json')
    await writeFile(
      configPath,
      JSON.stringify({
        store: { kind: 'pglite' },
        model: { provider: 'openai', id: 'gpt-test', baseURL: `${proxy.url}/v1` },
        projects: [
          {
            id: 'demo',
            organization: 'demo',
            domain: 'demo',
            docs: { directory: join(dataDir, 'docs') },
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
      DOCENT_ADMIN_KEY: ADMIN,
      GITHUB_TOKEN,
      // A killed server's runs are claimed again 4 s after its last lease renewal.
      DOCENT_AGENT_LEASE_MS: '4000',
      DOCENT_AGENT_POLL_MS: '200',
    }
    return {
      repo,
      start: async () => {
        const server = await startServer('node', env, { timeoutMs: 90_000 })
        servers.push(server)
        return server
      },
    }
  }

  return {
    github,
    proxy,
    project,
    async close() {
      for (const server of servers) await server.stop().catch(() => {})
      await Promise.all([gitServer.close(), github.close(), openai.close(), proxy.close()])
      for (const dir of dirs) await rm(dir, { recursive: true, force: true })
    },
  }
}

export async function createJob(server: ServerProcess, prompt: string): Promise<AgentJob> {
  const response = await fetch(`${server.url}/v2/agent/demo/job`, { method: 'POST', headers, body: JSON.stringify({ prompt }) })
  expect(response.status).toBe(200)
  return (await response.json()) as AgentJob
}

export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1800; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('condition never held')
}

/** Polls until the job leaves `active`. */
export async function settled(server: ServerProcess, id: string): Promise<AgentJob> {
  let job!: AgentJob
  await until(async () => {
    job = (await (await fetch(`${server.url}/v2/agent/demo/job/${id}`, { headers })).json()) as AgentJob
    return job.status !== 'active'
  })
  return job
}

export async function eventTypes(server: ServerProcess, id: string): Promise<string[]> {
  const { events } = (await (await fetch(`${server.url}/v2/agent/demo/job/${id}/events`, { headers })).json()) as {
    events: Array<{ type: string }>
  }
  return events.map((event) => event.type)
}
