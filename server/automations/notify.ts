import type { AutomationEvent } from '../../shared/automations.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import type { NotificationTarget } from './notifications/send.ts'
import { sendNotification } from './notifications/send.ts'

/** How long a "sent once" mark is kept: longer than any run or reminder period. */
const ONCE_MS = 90 * 86_400_000

export interface Notifier {
  /**
   * Sends the event to the project's targets that want it, in the background. With `once`, an event with that key is
   * sent once across every instance sharing the store (a retried run, two instances noticing the same merge).
   */
  send(project: ProjectConfig, event: AutomationEvent, once?: string): void
  /** Resolves when every notice sent so far was delivered or given up (shutdown, tests). */
  settled(): Promise<void>
}

export function createNotifier(ctx: DocentContext): Notifier {
  const pending = new Set<Promise<void>>()
  const deliver = async (project: ProjectConfig, event: AutomationEvent, once?: string) => {
    const targets = targetsOf(ctx, project, event.type)
    if (targets.length === 0) return
    // The stores expire counters by the machine's clock; the context's may be set elsewhere (tests), so the later of both.
    const expires = new Date(Math.max(Date.now(), ctx.now().getTime()) + ONCE_MS)
    if (once && !(await ctx.store.admit([{ key: `notify:${once}`, limit: 1, expiresAt: expires }], ctx.now())).admitted) return
    await Promise.all(targets.map((target) => sendNotification(target, event, { fetch: ctx.fetch, log: ctx.log })))
  }
  return {
    send(project, event, once) {
      const sending = deliver(project, event, once)
        .catch((error) => ctx.log.warn('automation notice failed', { project: project.id, event: event.type, error: String(error) }))
        .finally(() => pending.delete(sending))
      pending.add(sending)
    },
    async settled() {
      while (pending.size) await Promise.all([...pending])
    },
  }
}

/** The project's notification targets for this event type, with their URLs and secrets read from the environment. */
function targetsOf(ctx: DocentContext, project: ProjectConfig, type: AutomationEvent['type']): NotificationTarget[] {
  const targets: NotificationTarget[] = []
  for (const target of project.automations.notifications) {
    if (target.events && !target.events.includes(type)) continue
    const url = ctx.env[target.url.env]
    if (!url) {
      ctx.log.warn('automation notice skipped: its URL variable is not set', { project: project.id, variable: target.url.env })
      continue
    }
    const secret = target.secret ? ctx.env[target.secret.env] : undefined
    targets.push({ kind: target.kind, url, ...(secret ? { secret } : {}) })
  }
  return targets
}

/** The parts of an event every notice shares. */
export function eventBase(
  ctx: DocentContext,
  project: ProjectConfig,
  automation: { id: string; name: string },
  run: { id: string; reason: AutomationEvent['run']['reason']; jobId: string | null },
) {
  return {
    occurredAt: ctx.now().toISOString(),
    project: { id: project.id, ...(project.name ? { name: project.name } : {}) },
    automation: { id: automation.id, name: automation.name },
    run,
  }
}
