import { z } from 'zod'

export const AgentJobStatus = z.enum(['active', 'completed', 'archived', 'failed'])
export type AgentJobStatus = z.infer<typeof AgentJobStatus>

export const AgentJob = z
  .object({
    id: z.string(),
    status: AgentJobStatus,
    source: z.object({ repository: z.string(), ref: z.string().nullable() }),
    model: z.string(),
    prLink: z.url().nullable().describe('always null while status is active'),
    createdAt: z.iso.datetime(),
    archivedAt: z.iso.datetime().nullable(),
    error: z.string().nullable().describe('why the job failed; null otherwise'),
  })
  .meta({ id: 'AgentJob' })
export type AgentJob = z.infer<typeof AgentJob>

export const MAX_PROMPT_CHARS = 20_000

export const PromptBody = z.object({ prompt: z.string().min(1).max(MAX_PROMPT_CHARS) }).meta({ id: 'PromptBody' })
export type PromptBody = z.infer<typeof PromptBody>

export const ListJobsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
})

export const AgentJobList = z.object({ jobs: z.array(AgentJob), nextCursor: z.string().nullable() }).meta({ id: 'AgentJobList' })
export type AgentJobList = z.infer<typeof AgentJobList>

export const AgentEventType = z.enum([
  'run.started',
  'run.finished',
  'run.failed',
  'run.retried',
  'run.cancelled',
  /** The server stopped mid-run; the run starts again at the next start (or on another instance). */
  'run.interrupted',
  'file.read',
  'file.changed',
  'file.deleted',
  'search',
  'commit',
  'push',
  'pr',
  'message',
  'error',
])
export type AgentEventType = z.infer<typeof AgentEventType>

export const AgentEvent = z
  .object({
    at: z.iso.datetime(),
    type: AgentEventType,
    message: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'AgentEvent' })
export type AgentEvent = z.infer<typeof AgentEvent>

export const AgentEventList = z.object({ events: z.array(AgentEvent) }).meta({ id: 'AgentEventList' })
