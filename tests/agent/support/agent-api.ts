import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentJob } from '../../../shared/agent.ts'
import { bearer, json } from '../../support/app.ts'
import { startGitServer } from '../../support/git-server.ts'
import { type ChatRequest, type ScriptedReply, startScriptedOpenAI } from '../../support/scripted-openai.ts'
import { startGitHubPulls } from './github-pulls.ts'

/** What `app.request` is: a Docent app's, or any Hono app's. */
type Requester = { request: (path: string, init?: RequestInit) => Response | Promise<Response> }

/** One project's agent API as tests call it with an admin key: create, follow up, read, events, wait until settled. */
export function agentApi(app: Requester, adminKey: string, projectId = 'demo') {
  const admin = bearer(adminKey)
  const base = `/v2/agent/${projectId}/job`
  const api = {
    create: async (prompt: string) => (await app.request(base, json({ prompt }, admin))).json() as Promise<AgentJob>,
    followUp: async (id: string, prompt: string) =>
      (await app.request(`${base}/${id}/message`, json({ prompt }, admin))).json() as Promise<AgentJob>,
    get: async (id: string) => (await app.request(`${base}/${id}`, { headers: admin })).json() as Promise<AgentJob>,
    events: async (id: string) =>
      (
        (await (await app.request(`${base}/${id}/events`, { headers: admin })).json()) as {
          events: Array<{ type: string; message: string; data?: Record<string, unknown> }>
        }
      ).events,
    /** Polls until the job leaves `active` (the worker runs in this process). */
    settled: async (id: string) => {
      for (;;) {
        const job = await api.get(id)
        if (job.status !== 'active') return job
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    },
  }
  return api
}

/** A scripted model that gives the replies a test queues in `replies`, in order (a function reads the request first). */
export async function startQueuedModel() {
  const replies: Array<ScriptedReply | ((request: ChatRequest) => ScriptedReply)> = []
  const openai = await startScriptedOpenAI((request) => {
    const next = replies.shift()
    if (!next) return { status: 500, error: 'the test script has no reply left' }
    return typeof next === 'function' ? next(request) : next
  })
  return { openai, replies }
}

export const toolCalls = (...calls: Array<[string, Record<string, unknown>]>): ScriptedReply => ({
  toolCalls: calls.map(([name, args]) => ({ name, arguments: args })),
})

/**
 * What an agent job test runs against: a real git server (the git token is its password), the GitHub pulls API (the
 * GitHub token its bearer), a queued model, and a one-page docs folder for the assistant, so indexing stays out of the
 * way of the agent under test.
 */
export async function startAgentServers(tokens: { GIT_TOKEN: string; GITHUB_TOKEN: string }) {
  const assistantDocs = await mkdtemp(join(tmpdir(), 'docent-assistant-docs-'))
  await writeFile(join(assistantDocs, 'index.mdx'), '---\ntitle: Home\n---\n\nHello.\n')
  const gitServer = await startGitServer({ password: tokens.GIT_TOKEN })
  const github = await startGitHubPulls(tokens.GITHUB_TOKEN)
  const { openai, replies } = await startQueuedModel()
  const close = async () => {
    await Promise.all([gitServer.close(), github.close(), openai.close()])
    await rm(assistantDocs, { recursive: true, force: true })
  }
  return { assistantDocs, gitServer, github, openai, replies, close }
}

export type AgentServers = Awaited<ReturnType<typeof startAgentServers>>
