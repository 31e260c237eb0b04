import type { AgentJob } from '../../shared/agent.ts'
import type { JobRecord } from '../store/types.ts'
import { withoutCredentials } from '../git/repository-url.ts'

/** The public AgentJob of a stored job: `prLink` is hidden while a run is active, credentials never shown. */
export function jobView(job: JobRecord): AgentJob {
  return {
    id: job.id,
    status: job.status,
    source: { repository: withoutCredentials(job.source.repository), ref: job.source.ref },
    model: job.model,
    prLink: job.status === 'active' ? null : (job.pr?.url ?? null),
    createdAt: job.createdAt.toISOString(),
    archivedAt: job.archivedAt?.toISOString() ?? null,
    error: job.status === 'failed' ? (job.error ?? 'the run failed') : null,
  }
}
