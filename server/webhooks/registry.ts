import type { HostKind } from './dispatch.ts'
import type { HostEvent } from './payloads.ts'

/**
 * Whose business a verified delivery is: every project's when the server's secret signed it; when only a code
 * repository's own `webhookSecret` did, the projects that list that repository, and only as a code change (see
 * server/webhooks/routes.ts).
 */
export type WebhookScope = { kind: 'server' } | { kind: 'code'; projects: ReadonlySet<string> }

/** Hears a verified delivery read into Docent's shape; returns how many runs it started (for the delivery's answer). */
export type WebhookListener = (host: HostKind, event: HostEvent, scope: WebhookScope) => Promise<number | undefined> | number | undefined

/**
 * The listeners of one Docent's webhook endpoints beyond the gap loop (which `handleHostEvent` runs first):
 * automations subscribe here, so the webhooks module does not import them.
 */
export interface WebhookRegistry {
  /** Subscribes to verified deliveries; returns how to unsubscribe. */
  onWebhookEvent(listener: WebhookListener): () => void
  /** Hands a delivery to every listener, one after another; a listener that throws is logged, the others still run. */
  emit(host: HostKind, event: HostEvent, scope: WebhookScope, onError: (error: unknown) => void): Promise<number>
}

export function createWebhookRegistry(): WebhookRegistry {
  const listeners = new Set<WebhookListener>()
  return {
    onWebhookEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async emit(host, event, scope, onError) {
      let runs = 0
      for (const listener of listeners) {
        try {
          runs += (await listener(host, event, scope)) || 0
        } catch (error) {
          onError(error)
        }
      }
      return runs
    },
  }
}
