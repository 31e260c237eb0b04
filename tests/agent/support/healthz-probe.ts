import type { AgentJob } from '../../../shared/agent.ts'
import { createAgentClient } from '../../../shared/client.ts'

export interface ProbedJob {
  job: AgentJob
  /** How long each /healthz probe sent while the job was active took to answer, in ms. */
  latencies: number[]
  /** Probes that did not answer 200 `{"ok":true}`. */
  failures: string[]
}

/**
 * Creates a job on a served Docent and, until it leaves `active`, sends one /healthz probe after another: what a
 * load balancer would see while the worker (in the same process) handles the prompt.
 */
export async function jobWithHealthProbes(url: string, apiKey: string, prompt: string): Promise<ProbedJob> {
  const client = createAgentClient({ baseUrl: url, apiKey, projectId: 'demo' })
  const created = await client.createJob(prompt)
  const latencies: number[] = []
  const failures: string[] = []
  for (let i = 0; ; i++) {
    const started = performance.now()
    const response = await fetch(`${url}/healthz`)
    const body = await response.text()
    latencies.push(performance.now() - started)
    if (response.status !== 200 || body !== '{"ok":true}') failures.push(`${response.status} ${body}`)
    // The job is polled every few probes so the probes, not the polling, fill the job's time.
    if (i % 5 === 4) {
      const job = await client.getJob(created.id)
      if (job.status !== 'active') return { job, latencies, failures }
    }
  }
}
