import type { AgentEvent, AgentEventType } from '../../shared/agent.ts'
import type { Store } from '../store/types.ts'

const MAX_MESSAGE = 2_000

/** Replaces every known secret in `text` with `***`: host tokens must never reach events, logs or the model. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('***')
  }
  return out
}

export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redact(value, secrets)
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item, secrets)]))
  }
  return value
}

/** What a run tells people watching its job; every entry passes through the redaction of the run's secrets. */
export interface JobEvents {
  add(type: AgentEventType, message: string, data?: Record<string, unknown>): Promise<void>
}

export function jobEvents(store: Store, jobId: string, now: () => Date, secrets: readonly string[] = []): JobEvents {
  return {
    async add(type, message, data) {
      const text = redact(message, secrets)
      const event: AgentEvent = {
        at: now().toISOString(),
        type,
        message: text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text,
        ...(data ? { data: redactValue(data, secrets) as Record<string, unknown> } : {}),
      }
      await store.appendJobEvent(jobId, event)
    },
  }
}

/** A readable message for anything thrown, with secrets removed. */
export function errorMessage(error: unknown, secrets: readonly string[] = []): string {
  const text = error instanceof Error ? error.message || error.name : String(error)
  return redact(text, secrets)
}
