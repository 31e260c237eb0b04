import type { WebhookEvent, WebhookListener } from './types.ts'

/** The listeners of one Docent's webhook endpoints: automations, the gap loop's merge detection. */
export interface WebhookRegistry {
  /** Subscribes to verified deliveries; returns how to unsubscribe. */
  onWebhookEvent(listener: WebhookListener): () => void
  /** Hands a delivery to every listener, one after another; a listener that throws is logged, the others still run. */
  emit(event: WebhookEvent, onError: (error: unknown) => void): Promise<number>
}

export function createWebhookRegistry(): WebhookRegistry {
  const listeners = new Set<WebhookListener>()
  return {
    onWebhookEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async emit(event, onError) {
      let runs = 0
      for (const listener of listeners) {
        try {
          runs += (await listener(event)) || 0
        } catch (error) {
          onError(error)
        }
      }
      return runs
    },
  }
}
