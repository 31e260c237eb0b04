import type { AgentJob } from '../../shared/agent.ts'
import type { JobRecord } from '../store/types.ts'

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

/** Drops `user:password@` from a repository URL, in case a config put a token there. */
export function withoutCredentials(repository: string): string {
  return repository.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1')
}
