import type { AutomationRun } from '../../shared/automations.ts'
import type { DocentContext } from '../context.ts'
import type { AutomationRunRecord } from '../store/types.ts'

/**
 * A run as the API shows it. The worker records how a run ended right after ending its agent run; should the
 * server die in between, the agent run (which the store ended) says it, and the record is brought in line here.
 */
export async function runView(ctx: DocentContext, record: AutomationRunRecord): Promise<AutomationRun> {
  const run = record.status === 'active' ? await reconcile(ctx, record) : record
  return {
    id: run.id,
    automationId: run.automationId,
    reason: run.reason,
    startedAt: run.startedAt.toISOString(),
    jobId: run.jobId,
    prLink: run.prLink,
    status: run.status,
    note: run.note,
  }
}

async function reconcile(ctx: DocentContext, record: AutomationRunRecord): Promise<AutomationRunRecord> {
  const agentRun = (await ctx.store.listRuns(record.jobId)).find((run) => run.id === record.id)
  if (agentRun && (agentRun.status === 'queued' || agentRun.status === 'running')) return record
  const job = await ctx.store.getJob(record.projectId, record.jobId)
  const patch: Partial<AutomationRunRecord> =
    agentRun?.status === 'done'
      ? { status: 'completed', prLink: record.prLink ?? job?.pr?.url ?? null }
      : { status: 'failed', note: agentRun?.error ?? (agentRun?.status === 'cancelled' ? 'the run was cancelled' : 'the run was lost') }
  return (await ctx.store.updateAutomationRun(record.id, patch)) ?? { ...record, ...patch }
}
