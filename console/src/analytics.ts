import { api } from './api.ts'
import type { Conversation, ConversationList, Gap, GapList } from '../../shared/analytics.ts'
import { type DateRange, rangeQuery } from './range.ts'

export const analyticsBase = (projectId: string) => `/v1/analytics/${encodeURIComponent(projectId)}`

/** The screens read at most this many turns of a range (the API pages by 100); past it they say so. */
export const MAX_TURNS = 2000

/** Every conversation turn of the range, newest first, up to MAX_TURNS (then `truncated`). */
export async function conversationsOf(projectId: string, range: DateRange, signal: AbortSignal) {
  const turns: Conversation[] = []
  let cursor: string | null = null
  do {
    const page: ConversationList = await api<ConversationList>(
      `${analyticsBase(projectId)}/assistant?${rangeQuery(range)}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { signal },
    )
    turns.push(...page.conversations)
    cursor = page.hasMore ? page.nextCursor : null
  } while (cursor && turns.length < MAX_TURNS)
  return { turns, truncated: Boolean(cursor) }
}

export async function gapsOf(projectId: string, range: DateRange, status: string | null, signal: AbortSignal): Promise<Gap[]> {
  const gaps: Gap[] = []
  let cursor: string | null = null
  do {
    const page: GapList = await api<GapList>(
      `${analyticsBase(projectId)}/gaps?${rangeQuery(range)}${status ? `&status=${status}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { signal },
    )
    gaps.push(...page.gaps)
    cursor = page.nextCursor
  } while (cursor && gaps.length < 500)
  return gaps
}
