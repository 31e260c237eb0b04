import { z } from 'zod'
import { MAX_AUTOMATION_PROMPT_CHARS, MAX_INSTRUCTIONS_CHARS } from './console-names.ts'

/** The predefined automations, by their stable ids. Custom ones get generated ids (`auto_...`). */
export const PREDEFINED_AUTOMATION_IDS = [
  'update-from-code-changes',
  'draft-changelog',
  'fill-gaps',
  'improve-from-feedback',
  'translate',
  'fix-broken-links',
  'fix-seo',
  'fix-typos',
  'style-guide',
] as const
export const PredefinedAutomationId = z.enum(PREDEFINED_AUTOMATION_IDS)
export type PredefinedAutomationId = z.infer<typeof PredefinedAutomationId>

/** A 5-field cron in an IANA time zone; checked on the server (a bad one is a 400 naming `trigger.cron`). */
export const ScheduleTrigger = z.object({
  kind: z.literal('schedule'),
  cron: z.string().min(1).max(200).describe('m h dom mon dow, e.g. "0 9 * * mon"'),
  timeZone: z.string().min(1).max(100).optional().describe('IANA time zone (default UTC)'),
})
/** The docs repository's default branch moved. */
export const ContentTrigger = z.object({ kind: z.literal('content') })
/** A pull or merge request merged in one of the project's code repositories (none listed: any of them). */
export const CodeTrigger = z.object({
  kind: z.literal('code'),
  repositories: z.array(z.string().min(1).max(200)).max(50).default([]),
})

export const AutomationTrigger = z
  .discriminatedUnion('kind', [ScheduleTrigger, ContentTrigger, CodeTrigger], {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? 'must be { kind: "schedule", cron, timeZone? }, { kind: "content" } or { kind: "code", repositories }'
        : undefined,
  })
  .meta({ id: 'AutomationTrigger' })
export type AutomationTrigger = z.infer<typeof AutomationTrigger>
export type AutomationTriggerInput = z.input<typeof AutomationTrigger>

export const AutomationMode = z.enum(['pull_request', 'direct'])
export type AutomationMode = z.infer<typeof AutomationMode>

/** Why a run ran. */
export const RunReason = z.enum(['schedule', 'content', 'code', 'manual'])
export type RunReason = z.infer<typeof RunReason>

export const AutomationRunStatus = z.enum(['active', 'completed', 'failed'])
export type AutomationRunStatus = z.infer<typeof AutomationRunStatus>

/** One run of an automation: an agent job's run, with why it ran and how it ended. */
export const AutomationRun = z
  .object({
    id: z.string(),
    automationId: z.string(),
    reason: RunReason,
    startedAt: z.iso.datetime(),
    jobId: z.string(),
    prLink: z.url().nullable(),
    status: AutomationRunStatus,
    note: z.string().nullable().describe('what the run did or why it changed nothing; the error of a failed run'),
  })
  .meta({ id: 'AutomationRun' })
export type AutomationRun = z.infer<typeof AutomationRun>

export { MAX_AUTOMATION_PROMPT_CHARS, MAX_INSTRUCTIONS_CHARS }

const Languages = z.array(z.string().regex(/^[a-zA-Z]{2,3}([-_][a-zA-Z0-9]{2,8})*$/, 'must be language codes such as fr or pt-BR')).max(30)

export const Automation = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(['predefined', 'custom']),
    enabled: z.boolean(),
    trigger: AutomationTrigger,
    mode: AutomationMode,
    instructions: z.string().nullable(),
    languages: Languages.optional(),
    prompt: z.string().optional().describe('custom automations: what the agent is asked to do'),
    nextRunAt: z.iso.datetime().nullable().describe('the next scheduled slot (enabled schedules only)'),
    lastRun: AutomationRun.nullable(),
    description: z.string().optional().describe('extra: what the automation does'),
    unavailable: z.string().nullable().optional().describe('extra: why it cannot be turned on here (e.g. it needs a language model)'),
  })
  .meta({ id: 'Automation' })
export type Automation = z.infer<typeof Automation>

export const AutomationList = z.object({ automations: z.array(Automation) }).meta({ id: 'AutomationList' })
export type AutomationList = z.infer<typeof AutomationList>

export const UpdateAutomationBody = z
  .object({
    enabled: z.boolean().optional(),
    trigger: AutomationTrigger.optional(),
    mode: AutomationMode.optional(),
    instructions: z.string().max(MAX_INSTRUCTIONS_CHARS).nullable().optional(),
    languages: Languages.optional(),
  })
  .strict()
  .meta({ id: 'UpdateAutomationBody' })
export type UpdateAutomationBody = z.infer<typeof UpdateAutomationBody>
export type UpdateAutomationInput = z.input<typeof UpdateAutomationBody>

export const CreateAutomationBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    prompt: z.string().min(1).max(MAX_AUTOMATION_PROMPT_CHARS),
    trigger: AutomationTrigger,
    mode: AutomationMode.default('pull_request'),
    instructions: z.string().max(MAX_INSTRUCTIONS_CHARS).nullable().optional(),
    enabled: z.boolean().default(true),
  })
  .strict()
  .meta({ id: 'CreateAutomationBody' })
export type CreateAutomationBody = z.infer<typeof CreateAutomationBody>
export type CreateAutomationInput = z.input<typeof CreateAutomationBody>

export const ListRunsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
})

export const AutomationRunList = z
  .object({ runs: z.array(AutomationRun), nextCursor: z.string().nullable() })
  .meta({ id: 'AutomationRunList' })
export type AutomationRunList = z.infer<typeof AutomationRunList>

/** The hosted trigger's answer: the workflow (automation) id, the run (`instanceId`) and its agent job. */
export const WorkflowTriggered = z
  .object({ schemaId: z.string(), instanceId: z.string(), jobId: z.string() })
  .meta({ id: 'WorkflowTriggered' })
export type WorkflowTriggered = z.infer<typeof WorkflowTriggered>

// Notifications ----------------------------------------------------------------------------------------------

const EventBase = z.object({
  occurredAt: z.string().describe('ISO 8601 instant of the event'),
  project: z.object({ id: z.string(), name: z.string().optional() }),
  automation: z.object({ id: z.string(), name: z.string() }),
  run: z.object({ id: z.string(), reason: RunReason, jobId: z.string().nullable().optional() }),
})
const PullRequestLink = z.object({ url: z.string(), title: z.string().optional() })

/** What happened to an automation's run that a docs team wants to hear of. */
export const AutomationEvent = z
  .discriminatedUnion('type', [
    EventBase.extend({
      type: z.literal('pr_opened'),
      pullRequest: PullRequestLink,
      /** What the run changed, a line or two (the PR body's first lines). */
      summary: z.string().optional(),
    }),
    EventBase.extend({ type: z.literal('pr_waiting'), pullRequest: PullRequestLink, days: z.number().int().min(1) }),
    EventBase.extend({ type: z.literal('run_merged'), pullRequest: PullRequestLink.optional(), commit: z.string().optional() }),
    EventBase.extend({ type: z.literal('run_failed'), error: z.string() }),
  ])
  .meta({ id: 'AutomationEvent' })
export type AutomationEvent = z.infer<typeof AutomationEvent>
export type AutomationEventType = AutomationEvent['type']
export const AUTOMATION_EVENT_TYPES = ['pr_opened', 'pr_waiting', 'run_merged', 'run_failed'] as const

/** The body of a generic JSON webhook: the event as it is, its type namespaced, and one line of text for chat tools. */
export const AutomationWebhookBody = z
  .intersection(
    AutomationEvent,
    z.object({ event: z.string().describe('`automation.<type>`, e.g. automation.pr_opened'), text: z.string() }),
  )
  .meta({ id: 'AutomationWebhookBody' })
export type AutomationWebhookBody = z.infer<typeof AutomationWebhookBody>
