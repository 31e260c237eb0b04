import { z } from 'zod'

/** The largest events body the server reads; the widget keeps its batches under it. */
export const MAX_EVENTS_BODY_BYTES = 8192
export const MAX_EVENTS_PER_BODY = 20

export const EventType = z.enum(['search', 'search_result_click', 'source_click'])
export type EventType = z.infer<typeof EventType>

/**
 * One thing a reader did in the widget that analytics counts: a settled search (not each keystroke), a click on a
 * search result (click-through rate), a click on an answer's source.
 */
export const DocentEvent = z
  .object({
    type: EventType,
    query: z.string().max(500).optional(),
    path: z.string().max(500).optional(),
    resultCount: z.number().int().min(0).optional(),
    position: z.number().int().min(0).optional(),
    threadId: z.string().max(200).optional(),
    messageId: z.string().max(200).optional(),
  })
  .meta({ id: 'DocentEvent' })
export type DocentEvent = z.infer<typeof DocentEvent>

/** `POST /discovery/v1/events/{domain}` (assistant key) → 204. */
export const EventsBody = z.object({ events: z.array(DocentEvent).min(1).max(MAX_EVENTS_PER_BODY) }).meta({ id: 'EventsBody' })
export type EventsBody = z.infer<typeof EventsBody>
