import { AgentEvent, AgentEventList, AgentJob, AgentJobList, ListJobsQuery, PromptBody } from '../../shared/agent.ts'
import type { DocentContext } from '../context.ts'
import { adminGuard, agentWriteGuard } from '../http/guards.ts'
import { type Route, route } from '../http/route.ts'
import { jobEventStream, wantsEventStream } from './job-event-stream.ts'
import { jobView } from './job-view.ts'
import { agentOf, archiveJob, createJob, followUpTarget, getJobOr404, sendFollowUp } from './jobs.ts'

const JOB = { description: 'the job', schema: AgentJob }
const NO_JOB = { description: 'no such job in this project' }
const JOB_PARAMS = { projectId: 'the project', id: 'the job id' }

/** `/v2/agent/{projectId}/...`: jobs, follow-ups, archive, events (admin key). */
export function agentRoutes(ctx: DocentContext): Route[] {
  const admin = adminGuard(ctx)
  const write = agentWriteGuard(ctx)
  return [
    route({
      method: 'post',
      path: '/v2/agent/{projectId}/job',
      tag: 'agent',
      summary: 'Create an agent job (runs in the background)',
      guard: write,
      body: PromptBody,
      responses: {
        200: { description: 'the new job, active', schema: AgentJob },
        409: { description: 'the project has no agent configured' },
      },
      precheck: async (_, { auth }) => agentOf(auth.project),
      handler: async (c, { auth, body }) => c.json(jobView(await createJob(ctx, auth.project, body.prompt))),
    }),
    route({
      method: 'post',
      path: '/v2/agent/{projectId}/job/{id}/message',
      tag: 'agent',
      summary: 'Send a follow-up (same branch, same pull request; queued behind a run in progress)',
      guard: write,
      params: JOB_PARAMS,
      body: PromptBody,
      responses: {
        200: { description: 'the job, active again', schema: AgentJob },
        404: NO_JOB,
        409: { description: 'the job is archived' },
      },
      precheck: (c, { auth }) => followUpTarget(ctx, auth.project, c.req.param('id')!),
      handler: async (c, { auth, body }) => c.json(jobView(await sendFollowUp(ctx, auth.project, c.req.param('id')!, body.prompt))),
    }),
    route({
      method: 'get',
      path: '/v2/agent/{projectId}/job/{id}',
      tag: 'agent',
      summary: 'Get a job',
      guard: admin,
      params: JOB_PARAMS,
      responses: { 200: JOB, 404: NO_JOB },
      handler: async (c, { auth }) => c.json(jobView(await getJobOr404(ctx, auth.project, c.req.param('id')!))),
    }),
    route({
      method: 'get',
      path: '/v2/agent/{projectId}/jobs',
      tag: 'agent',
      summary: 'List jobs, newest first',
      guard: admin,
      query: ListJobsQuery,
      responses: { 200: { description: 'a page of jobs', schema: AgentJobList } },
      handler: async (c, { auth, query }) => {
        const page = await ctx.store.listJobs(auth.project.id, { limit: query.limit, cursor: query.cursor })
        return c.json({ jobs: page.items.map(jobView), nextCursor: page.nextCursor } satisfies AgentJobList)
      },
    }),
    route({
      method: 'post',
      path: '/v2/agent/{projectId}/job/{id}/archive',
      tag: 'agent',
      summary: 'Archive a job (cancels its run)',
      guard: admin,
      params: JOB_PARAMS,
      responses: { 200: { description: 'the job, archived', schema: AgentJob }, 404: NO_JOB },
      handler: async (c, { auth }) => c.json(jobView(await archiveJob(ctx, auth.project, c.req.param('id')!))),
    }),
    route({
      method: 'get',
      path: '/v2/agent/{projectId}/job/{id}/events',
      tag: 'agent',
      summary: 'What the agent did (files read and changed, commits, pull request, errors); live with Accept: text/event-stream',
      description:
        'With `Accept: text/event-stream` the events stream as they happen: `agent` events (an AgentEvent; `id` is its ' +
        'position, and `Last-Event-ID` resumes after it), a `job` event with the AgentJob whenever its status or pull ' +
        'request changes, and `end` once the job is no longer active. Any server instance sharing the store serves it.',
      guard: admin,
      params: JOB_PARAMS,
      responses: {
        200: {
          description: 'the events, oldest first (JSON), or their live stream (text/event-stream)',
          schema: AgentEventList,
          content: {
            type: 'text/event-stream',
            schema: AgentEvent,
            description: '`event: agent` (an AgentEvent, `id` its position), `event: job` (the AgentJob), `event: end`',
          },
        },
        404: NO_JOB,
      },
      handler: async (c, { auth }) => {
        const job = await getJobOr404(ctx, auth.project, c.req.param('id')!)
        if (wantsEventStream(c.req.header('accept'))) {
          const lastEventId = Number(c.req.header('last-event-id'))
          const stream = jobEventStream({
            store: ctx.store,
            projectId: auth.project.id,
            jobId: job.id,
            after: Number.isSafeInteger(lastEventId) && lastEventId > 0 ? lastEventId : 0,
            signal: c.req.raw.signal,
          })
          return new Response(stream, {
            headers: {
              'content-type': 'text/event-stream; charset=utf-8',
              'cache-control': 'no-cache',
              'x-accel-buffering': 'no',
            },
          })
        }
        return c.json({ events: await ctx.store.listJobEvents(job.id) })
      },
    }),
  ]
}
