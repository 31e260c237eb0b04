import type { MergeResult } from '../../shared/analytics.ts'
import { DocentError } from '../../shared/errors.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import type { JobRecord } from '../store/types.ts'
import { jobEvents } from './events.ts'
import { jobView } from './job-view.ts'

/**
 * Merges a job's pull request on the embedded (`local`) git host: the job's branch into its base, fast-forward or
 * merge commit. Conflicts, a run in progress, an archived job or a job without a pull request answer 409; so does
 * any other host, where pull requests are merged on GitHub/GitLab and Docent learns of it by webhook or poll.
 * Then the gap the job fixes (if any) goes on to verification, and the docs served from that repository reload.
 */
export async function mergeJob(
  ctx: DocentContext,
  project: ProjectConfig,
  job: JobRecord,
  options: { expectedHead?: string } = {},
): Promise<MergeResult> {
  const agent = project.agent
  if (!agent) throw new DocentError('conflict', `project "${project.id}" has no agent configured`)
  if (agent.host.kind !== 'local') {
    throw new DocentError(
      'conflict',
      `this project's pull requests are on ${agent.host.kind === 'github' ? 'GitHub' : 'GitLab'}: merge them there (Docent learns of it by webhook or poll)`,
    )
  }
  if (job.status === 'archived') throw new DocentError('conflict', `job ${job.id} is archived`)
  if (job.status === 'active') throw new DocentError('conflict', 'a run of this job is in progress; merge when it ends')
  if (!job.branch || !job.pr) throw new DocentError('conflict', 'this job has no pull request to merge (it changed no file)')
  const { mergeLocalPull } = await import('./hosts/local-merge.ts')
  const repo = await ctx.agentGit.localRepositories.open(agent.repository.replace(/^local:/, ''))
  const base = job.source.ref ?? agent.ref
  const merge = await mergeLocalPull(repo, {
    jobId: job.id,
    branch: job.branch,
    base,
    expectedHead: options.expectedHead,
    author: agent.author,
    now: ctx.now(),
  })
  if (merge.method !== 'already-merged') {
    await jobEvents(ctx.store, job.id, ctx.now).add(
      'pr',
      `merged ${job.branch} into ${base} (${merge.method}) at ${merge.commit.slice(0, 8)}`,
      {
        commit: merge.commit,
        method: merge.method,
      },
    )
  }
  await ctx.analytics.gaps.pullRequestMerged(project, { jobId: job.id }, merge.commit)
  return {
    job: jobView(job),
    merge: { method: merge.method, commit: merge.commit, base, branch: job.branch, mergedAt: merge.mergedAt },
  }
}
