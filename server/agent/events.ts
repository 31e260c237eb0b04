import type { AgentEvent, AgentEventType } from '../../shared/agent.ts'
import { configSecrets } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { DocentError } from '../../shared/errors.ts'
import { scrubSecrets, scrubValue } from '../git/scrub.ts'
import type { Store } from '../store/types.ts'

const MAX_MESSAGE = 2_000

/**
 * Every secret a run could meet, scrubbed from its job's events and error as the log scrubs them: all the tokens and
 * keys the configuration names, not one project's alone (a model gateway or git server that several projects share may
 * echo any of them), and the keys the configuration seeds.
 */
export function runSecrets(ctx: Pick<DocentContext, 'config' | 'env'>): string[] {
  const seeded = [ctx.config.adminKey, ctx.config.assistantKey].filter((key): key is string => Boolean(key))
  return [...configSecrets(ctx.config, ctx.env), ...seeded]
}

/** What a run tells people watching its job; every entry is scrubbed of secrets before it is stored. */
export interface JobEvents {
  add(type: AgentEventType, message: string, data?: Record<string, unknown>): Promise<void>
}

export function jobEvents(store: Store, jobId: string, now: () => Date, secrets: readonly string[] = []): JobEvents {
  return {
    async add(type, message, data) {
      const text = scrubSecrets(message, secrets)
      const event: AgentEvent = {
        at: now().toISOString(),
        type,
        message: text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text,
        ...(data ? { data: scrubValue(data, secrets) as Record<string, unknown> } : {}),
      }
      await store.appendJobEvent(jobId, event)
    },
  }
}

/** A readable message for anything thrown, with secrets (and whatever is shaped like one) removed. */
export function errorMessage(error: unknown, secrets: readonly string[] = []): string {
  const text = error instanceof Error ? error.message || error.name : String(error)
  return scrubSecrets(text, secrets)
}

/**
 * A run's failure as it becomes the job's `error` and events: no token may survive in its message or data. The code
 * stays for callers.
 */
export function scrubbedError(error: unknown, secrets: readonly string[]): DocentError {
  const code = error instanceof DocentError ? error.code : 'internal'
  const data = error instanceof DocentError ? (scrubValue(error.data, secrets) as Record<string, unknown>) : {}
  return new DocentError(code, errorMessage(error, secrets), data)
}
