import type { ModelMessage } from 'ai'
import { DocentError } from '../../shared/errors.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import type { JobRecord, RunRecord } from '../store/types.ts'
import { branchName } from '../git/branch.ts'
import { compactConversation } from './conversation.ts'
import { jobEvents, runSecrets, scrubbedError } from './events.ts'
import { withoutCredentials } from '../git/repository-url.ts'
import { runAgentLoop } from './loop.ts'
import { agentSystemPrompt } from './system-prompt.ts'
import type { ExecuteRun, RunResult } from './worker.ts'

/**
 * One run of a job: clone (the job's branch when it exists), let the model edit through the file tools, commit,
 * push to `docent/<slug>-<short id>`, open or update the job's one pull request.
 */
export function agentRunExecutor(ctx: DocentContext): ExecuteRun {
  return async (run, job, signal) => {
    const project = ctx.projects.byId(run.projectId)
    if (!project?.agent) throw new DocentError('conflict', `project ${run.projectId} has no agent configured`, { projectId: run.projectId })
    const secrets = runSecrets(ctx)
    try {
      return await execute(ctx, project, run, job, signal, secrets)
    } catch (error) {
      if (signal.aborted) throw signal.reason
      throw scrubbedError(error, secrets)
    }
  }
}

async function execute(
  ctx: DocentContext,
  project: ProjectConfig,
  run: RunRecord,
  job: JobRecord,
  signal: AbortSignal,
  secrets: string[],
): Promise<RunResult> {
  const agent = project.agent!
  const { limits } = ctx.config
  const events = jobEvents(ctx.store, job.id, ctx.now, secrets)
  const repository = ctx.agentGit.repository(project)
  const base = job.source.ref ?? repository.ref
  const firstPrompt = (await ctx.store.listRuns(job.id))[0]?.prompt ?? run.prompt
  const branch = job.branch ?? branchName(firstPrompt, job.id)

  const workspace = await ctx.agentGit.workspaces.open({ ...repository, ref: base, preferBranch: branch, jobId: job.id, signal })
  await events.add('message', `checked out ${job.branch ? branch : base} at ${workspace.baseCommit.slice(0, 8)}`, {
    commit: workspace.baseCommit,
  })

  const loop = await runAgentLoop({
    model: ctx.models.editor,
    workspace,
    conversation: job.conversation as ModelMessage[],
    prompt: run.prompt,
    instructions: agentSystemPrompt({
      repository: withoutCredentials(job.source.repository),
      ref: base,
      writablePaths: agent.writablePaths,
    }),
    writablePaths: agent.writablePaths,
    limits: { maxSteps: limits.agentMaxSteps, maxChangedBytes: limits.agentMaxChangedBytes, maxFilesTouched: limits.agentMaxFilesTouched },
    events,
    signal,
  })
  const summary = loop.summary ?? `Docent: ${firstLine(run.prompt)}`
  // A run that did not do its work says so: the job fails with the reason, whatever it changed is kept on the branch.
  const unfinished = loop.hitStepLimit
    ? `the run stopped at the step limit (${limits.agentMaxSteps} steps) before the model called finish`
    : loop.gaveUp
      ? `the request could not be carried out: ${summary.trim()}`
      : null
  if (loop.hitStepLimit) await events.add('error', unfinished!)
  const conversation = compactConversation(loop.conversation)

  const changes = workspace.changes()
  let pushed = job.branch !== null
  let committed: string | null = null
  if (changes.length > 0) {
    committed = await workspace.commit({ message: commitMessage(summary, run.prompt), author: agent.author })
    if (committed) {
      await events.add('commit', `committed ${changes.length} file(s) as ${committed.slice(0, 8)}`, {
        commit: committed,
        files: changes.map((change) => ({ path: change.path, kind: change.kind })),
      })
      await workspace.push(branch, { signal })
      await events.add('push', `pushed ${branch}`, { branch, commit: committed })
      pushed = true
      // Saved at once: a retry after a crash then knows the branch exists and still opens the PR.
      await ctx.store.updateJob(job.id, { branch }, { ifStatusIn: ['active'] })
    }
  }
  if (!committed) await events.add('message', `no file changed. ${summary}`)

  let pr = job.pr
  // A PR for every pushed branch: opened once, updated by later runs that commit (and by a retry whose push landed).
  // Unfinished work opens none (a pull request asks for review); it still reaches an open one through the branch.
  if (pushed && (committed || !pr) && !(unfinished && !pr)) {
    const prompts = (await ctx.store.listRuns(job.id)).filter((other) => other.seq <= run.seq && other.status !== 'cancelled')
    pr = await ctx.agentGit.host(project).openOrUpdatePullRequest(
      {
        jobId: job.id,
        branch,
        base,
        title: prTitle(summary, firstPrompt),
        body: prBody(summary, prompts, job.id, unfinished),
        addition: run.seq > 1 ? runSection(run, summary, unfinished) : null,
        existing: job.pr,
      },
      { signal },
    )
    // A merged or closed pull request is not updated: the host opened a new one, at another address.
    const opened = pr.url !== job.pr?.url
    await events.add('pr', `${opened ? 'opened' : 'updated'} pull request ${pr.url}`, { url: pr.url, number: pr.number })
  } else if (unfinished && committed) {
    await events.add('message', `no pull request opened for unfinished work; the changes are on ${branch}`, { branch })
  }
  const error = unfinished && `${unfinished}${committed ? `; its changes so far are on ${branch}` : ''}; send a follow-up to continue`
  return { pr, branch: pushed ? branch : job.branch, conversation, ...(error ? { error } : {}) }
}

const firstLine = (text: string) => (text.trim().split('\n')[0] ?? '').slice(0, 72)

/** The commit: the summary's first line as title, the rest as body (the workspace adds the Docent-Job trailer). */
function commitMessage(summary: string, prompt: string): string {
  const [title, ...rest] = summary.trim().split('\n')
  const body = rest.join('\n').trim()
  return `${(title ?? '').slice(0, 72) || `Docent: ${firstLine(prompt)}`}\n\n${body ? `${body}\n\n` : ''}Requested: ${firstLine(prompt)}`
}

function prTitle(summaryOrPrompt: string, firstPrompt: string): string {
  const title = firstLine(summaryOrPrompt).replace(/^No change:\s*/i, '')
  return title || `Docent: ${firstLine(firstPrompt)}`
}

function prBody(summary: string, runs: RunRecord[], jobId: string, unfinished: string | null): string {
  return [
    ...(unfinished ? [`**This run stopped before it finished** (${unfinished}); the changes below are incomplete.`, ''] : []),
    summary.trim(),
    '',
    '---',
    'Requested of Docent:',
    ...runs.map((run) => `${run.seq}. ${run.prompt.length > 500 ? `${run.prompt.slice(0, 500)}…` : run.prompt}`),
    '',
    `Docent job ${jobId}`,
  ].join('\n')
}

/** What a follow-up adds to the pull request's description: the earlier title and description stay as they are. */
function runSection(run: RunRecord, summary: string, unfinished: string | null): string {
  const prompt = run.prompt.length > 500 ? `${run.prompt.slice(0, 500)}…` : run.prompt
  return [
    '---',
    `Follow-up ${run.seq}: ${prompt}`,
    '',
    ...(unfinished ? [`**This run stopped before it finished** (${unfinished}); its changes are incomplete.`, ''] : []),
    summary.trim(),
  ].join('\n')
}
