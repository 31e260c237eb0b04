import { DocentError } from './errors.ts'
import { AgentEventList, AgentJob, AgentJobList, type AgentJobStatus } from './agent.ts'

/** Thrown for any non-2xx answer; `status`, the server's `error` message and its `code` are kept. */
export class AgentApiError extends DocentError<string> {
  override name = 'AgentApiError'
  constructor(
    readonly status: number,
    message: string,
    code = 'internal',
  ) {
    super(code, message, { status })
  }
}

export interface AgentClientOptions {
  baseUrl: string
  /** An admin key (`svc_...`). */
  apiKey: string
  projectId: string
  fetch?: typeof fetch
}

/** A typed client for the agent API, for bots, CI jobs and tests. */
export function createAgentClient(options: AgentClientOptions) {
  const doFetch = options.fetch ?? fetch
  const base = `${options.baseUrl.replace(/\/$/, '')}/v2/agent/${encodeURIComponent(options.projectId)}`

  async function call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await doFetch(base + path, {
      method,
      headers: { authorization: `Bearer ${options.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    const payload = await response.json().catch(() => ({}))
    if (!response.ok) {
      const { error, code } = payload as { error?: string; code?: string }
      throw new AgentApiError(response.status, error ?? response.statusText, code)
    }
    return payload
  }

  const job = (id: string) => `/job/${encodeURIComponent(id)}`
  return {
    createJob: async (prompt: string) => AgentJob.parse(await call('POST', '/job', { prompt })),
    sendMessage: async (id: string, prompt: string) => AgentJob.parse(await call('POST', `${job(id)}/message`, { prompt })),
    getJob: async (id: string) => AgentJob.parse(await call('GET', job(id))),
    listJobs: async (params: { limit?: number; cursor?: string } = {}) => {
      const query = new URLSearchParams()
      if (params.limit) query.set('limit', String(params.limit))
      if (params.cursor) query.set('cursor', params.cursor)
      return AgentJobList.parse(await call('GET', `/jobs?${query}`))
    },
    archiveJob: async (id: string) => AgentJob.parse(await call('POST', `${job(id)}/archive`)),
    events: async (id: string) => AgentEventList.parse(await call('GET', `${job(id)}/events`)).events,
    /** Polls until the job leaves `active` (or `timeoutMs` passes). */
    waitForJob: async (id: string, { intervalMs = 250, timeoutMs = 120_000 } = {}) => {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const current = AgentJob.parse(await call('GET', job(id)))
        const done: AgentJobStatus[] = ['completed', 'failed', 'archived']
        if (done.includes(current.status)) return current
        if (Date.now() > deadline) throw new AgentApiError(0, `job ${id} still active after ${timeoutMs} ms`)
        await new Promise((resolve) => setTimeout(resolve, intervalMs))
      }
    },
  }
}
export type AgentClient = ReturnType<typeof createAgentClient>
