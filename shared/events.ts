import { z } from 'zod'

/** The largest events body the server reads; the widget keeps its batches under it. */
export const MAX_EVENTS_BODY_BYTES = 8192
export const MAX_EVENTS_PER_BODY = 20

export const EventType = z.enum(['search', 'search_result_click', 'source_click'])
export type EventType = z.infer<typeof EventType>

/** The store keeps counts and positions in 32-bit integer columns: a larger number would fail the whole write. */
const MAX_STORED_INT = 2_147_483_647
const storedCount = z.number().int().min(0).max(MAX_STORED_INT)

/**
 * Ids the server gave out (threads, messages): printable text only. A NUL is no text to PostgreSQL, and other
 * control characters have no place in an id; they are refused rather than cleaned into an id that matches nothing.
 */
const eventId = z
  .string()
  .max(200)
  .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, { error: 'must not contain control characters' })

/**
 * One thing a reader did in the widget that analytics counts: a settled search (not each keystroke), a click on a
 * search result (click-through rate), a click on an answer's source.
 */
export const DocentEvent = z
  .object({
    type: EventType,
    query: z.string().max(500).optional(),
    path: z.string().max(500).optional(),
    resultCount: storedCount.optional(),
    position: storedCount.optional(),
    threadId: eventId.optional(),
    messageId: eventId.optional(),
  })
  .meta({ id: 'DocentEvent' })
export type DocentEvent = z.infer<typeof DocentEvent>

/** `POST /discovery/v1/events/{domain}` (assistant key) → 204. */
export const EventsBody = z.object({ events: z.array(DocentEvent).min(1).max(MAX_EVENTS_PER_BODY) }).meta({ id: 'EventsBody' })
export type EventsBody = z.infer<typeof EventsBody>
