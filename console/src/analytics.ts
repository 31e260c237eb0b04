import { api } from './api.ts'
import type { ConversationList, ConversationSummary, Gap, GapList } from '../../shared/analytics.ts'
import { type DateRange, rangeQuery } from './range.ts'

export const analyticsBase = (projectId: string) => `/v1/analytics/${encodeURIComponent(projectId)}`

/** Conversations are listed this many at a time: the API's largest page. */
export const CONVERSATIONS_PAGE = 100

/** A page of the range's conversations, newest first: the first, or the one after `cursor` (a page's nextCursor). */
export function conversationsPage(projectId: string, range: DateRange, cursor: string | null, signal?: AbortSignal) {
  return api<ConversationList>(
    `${analyticsBase(projectId)}/assistant?${rangeQuery(range)}&limit=${CONVERSATIONS_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    { signal },
  )
}

/** What every conversation of the range adds up to, counted by the server (totals, per day, week or month, categories). */
export function summaryOf(projectId: string, range: DateRange, signal: AbortSignal) {
  return api<ConversationSummary>(`${analyticsBase(projectId)}/assistant/summary?${rangeQuery(range)}`, { signal })
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
