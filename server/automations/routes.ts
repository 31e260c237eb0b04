import {
  Automation,
  AutomationList,
  AutomationRunList,
  CreateAutomationBody,
  ListRunsQuery,
  UpdateAutomationBody,
  WorkflowTriggered,
} from '../../shared/automations.ts'
import { MAX_PROMPT_CHARS } from '../../shared/agent.ts'
import { DocentError } from '../../shared/errors.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { adminGuard, agentWriteGuard } from '../http/guards.ts'
import { type Route, route } from '../http/route.ts'
import { runView } from './run-view.ts'
import {
  automationOr404,
  automationView,
  createAutomation,
  deleteAutomation,
  listAutomations,
  MAX_CUSTOM_AUTOMATIONS,
  updateAutomation,
} from './settings.ts'
import { tryStartAutomationRun } from './start-run.ts'
import { agentOf } from '../agent/jobs.ts'
import type { AutomationRecord } from '../store/types.ts'

const PARAMS = { projectId: 'the project', automationId: 'a predefined automation id (fix-broken-links...) or a custom one' }
const NO_AUTOMATION = { description: 'no such automation in this project' }
const NO_AGENT = { description: 'the project has no agent configured' }

/** `/v2/agent/{projectId}/automations/...` (admin key) and the hosted trigger `/workflow/{projectId}/{id}/trigger`. */
export function automationRoutes(ctx: DocentContext): Route[] {
  const admin = adminGuard(ctx)
  return [
    route({
      method: 'get',
      path: '/v2/agent/{projectId}/automations',
      tag: 'automations',
      summary: 'List the automations: every predefined one (off until turned on), then the custom ones',
      guard: admin,
      responses: { 200: { description: 'the automations', schema: AutomationList } },
      handler: async (c, { auth }) => {
        const automations = await listAutomations(ctx, auth.project)
        return c.json({
          automations: await Promise.all(automations.map((a) => automationView(ctx, auth.project, a))),
        } satisfies AutomationList)
      },
    }),
    route({
      method: 'put',
      path: '/v2/agent/{projectId}/automations/{automationId}',
      tag: 'automations',
      summary: 'Change an automation: turn it on or off, its trigger, mode, instructions, languages',
      description:
        'A bad cron or time zone, an unknown trigger, a code repository the project does not list, or turning on an ' +
        'automation that cannot run here (one that needs a language model, with none configured) is a 400 naming the field; ' +
        'so are instructions that would make a run’s job prompt longer than the job prompt limit.',
      guard: admin,
      params: PARAMS,
      body: UpdateAutomationBody,
      responses: { 200: { description: 'the automation as it is now', schema: Automation }, 404: NO_AUTOMATION },
      handler: async (c, { auth, body }) => {
        const updated = await updateAutomation(ctx, auth.project, c.req.param('automationId')!, body)
        return c.json(await automationView(ctx, auth.project, updated))
      },
    }),
    route({
      method: 'post',
      path: '/v2/agent/{projectId}/automations',
      tag: 'automations',
      summary: 'Create a custom automation: a prompt for the agent on a trigger',
      description:
        `A project has at most ${MAX_CUSTOM_AUTOMATIONS} custom automations. A run sends \`<name>: <prompt>\` and the ` +
        `instructions as its job prompt, which must fit the job prompt limit (${MAX_PROMPT_CHARS} characters).`,
      guard: admin,
      body: CreateAutomationBody,
      responses: {
        200: { description: 'the new automation', schema: Automation },
        400: { description: 'bad input, or a name, prompt and instructions too long together for a job prompt' },
        409: { description: `the project has ${MAX_CUSTOM_AUTOMATIONS} custom automations already` },
      },
      handler: async (c, { auth, body }) =>
        c.json(await automationView(ctx, auth.project, await createAutomation(ctx, auth.project, body))),
    }),
    route({
      method: 'delete',
      path: '/v2/agent/{projectId}/automations/{automationId}',
      tag: 'automations',
      summary: 'Delete a custom automation (its runs and their jobs stay)',
      guard: admin,
      params: PARAMS,
      responses: {
        204: { description: 'deleted' },
        404: NO_AUTOMATION,
        409: { description: 'a predefined automation: turn it off instead' },
      },
      handler: async (c, { auth }) => {
        await deleteAutomation(ctx, auth.project, c.req.param('automationId')!)
        return c.body(null, 204)
      },
    }),
    route({
      method: 'get',
      path: '/v2/agent/{projectId}/automations/{automationId}/runs',
      tag: 'automations',
      summary: 'The run history, newest first: when, why it ran, its job, pull request and outcome',
      guard: admin,
      params: PARAMS,
      query: ListRunsQuery,
      responses: { 200: { description: 'a page of runs', schema: AutomationRunList }, 404: NO_AUTOMATION },
      handler: async (c, { auth, query }) => {
        const automation = await automationOr404(ctx, auth.project, c.req.param('automationId')!)
        const page = await ctx.store.listAutomationRuns(auth.project.id, automation.id, { limit: query.limit, cursor: query.cursor })
        return c.json({
          runs: await Promise.all(page.items.map((run) => runView(ctx, run))),
          nextCursor: page.nextCursor,
        } satisfies AutomationRunList)
      },
    }),
    route({
      method: 'post',
      path: '/workflow/{projectId}/{workflowSchemaId}/trigger',
      tag: 'automations',
      summary: 'Run a scheduled automation now (the hosted service’s trigger, for CI)',
      description:
        'No body. The run picks up what changed since the last completed run, like a scheduled one. It counts against ' +
        'the project’s hourly limit on agent jobs.',
      guard: agentWriteGuard(ctx),
      params: { projectId: 'the project', workflowSchemaId: 'the automation id' },
      responses: {
        202: { description: 'the run is queued: `instanceId` is the run, `jobId` its agent job', schema: WorkflowTriggered },
        400: { description: 'the automation is not enabled, or not on a schedule' },
        404: NO_AUTOMATION,
        409: NO_AGENT,
      },
      precheck: (c, { auth }) => triggerable(ctx, auth.project, c.req.param('workflowSchemaId')!),
      // The guard counted this run against the hour: the run must not count a second time.
      handler: async (c, { auth }) => c.json(await triggerNow(ctx, auth.project, c.req.param('workflowSchemaId')!, { counted: true }), 202),
    }),
  ]
}

/** The automation a trigger runs: the project's (404), enabled and on a schedule (400), with an agent (409). */
async function triggerable(ctx: DocentContext, project: ProjectConfig, id: string): Promise<AutomationRecord> {
  const automation = await automationOr404(ctx, project, id)
  if (!automation.enabled) {
    throw new DocentError(
      'invalid_request',
      `${automation.name} (${id}) is not enabled: turn it on first (PUT .../automations/${id} {"enabled": true})`,
    )
  }
  if (automation.trigger.kind !== 'schedule') {
    throw new DocentError(
      'invalid_request',
      `${automation.name} (${id}) runs on ${automation.trigger.kind === 'content' ? 'docs changes' : 'merged code changes'}, not on a schedule: only scheduled automations can be triggered`,
    )
  }
  agentOf(project)
  return automation
}

/**
 * The hosted trigger: a manual run of an enabled, scheduled automation. It counts against the project's hourly agent
 * limit (a 429 once spent) unless `counted`: the route's guard counted it already; the CLI's trigger has no guard.
 */
export async function triggerNow(
  ctx: DocentContext,
  project: ProjectConfig,
  id: string,
  { counted = false }: { counted?: boolean } = {},
): Promise<WorkflowTriggered> {
  const automation = await triggerable(ctx, project, id)
  const run = await tryStartAutomationRun(ctx, { project, automation, reason: 'manual', key: ctx.ids('trigger'), counted })
  if (!('id' in run)) {
    if (run.reason === 'taken') throw new Error('a manual run key was taken twice')
    throw new DocentError(
      'rate_limited',
      `project ${project.id} made its ${run.limit} agent jobs and follow-ups of this hour; retry in ${run.retryAfterSeconds} s`,
      { retryAfterSeconds: run.retryAfterSeconds },
    )
  }
  return { schemaId: automation.id, instanceId: run.id, jobId: run.jobId }
}
