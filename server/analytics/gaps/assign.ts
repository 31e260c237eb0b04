import type { IdSource } from '../../ids.ts'
import type { Logger } from '../../log.ts'
import type { SearchService } from '../../search/types.ts'
import type { GapRecord, Store } from '../../store/types.ts'
import { absorb, gapOf, nearestGap } from './cluster.ts'
import { termWeights } from './question-terms.ts'

export interface AssignDeps {
  store: Store
  search: SearchService
  log: Logger
  now: () => Date
  ids: IdSource
}

/** Unassigned questions taken per round, and the recently seen gaps they are compared with. */
const BATCH = 200
const CANDIDATES = 500

/**
 * Puts every unanswered question not yet in a gap into the gap it resembles most, or into a new gap of its own.
 * A fixed gap that gets a new unanswered question is open again: the fix did not hold for it.
 */
export async function assignPendingSignals(deps: AssignDeps, projectId: string): Promise<number> {
  const { store } = deps
  const weight = await termWeights(await deps.search.corpus(projectId))
  let assigned = 0
  for (;;) {
    const pending = await store.listUnassignedSignals(projectId, BATCH)
    if (pending.length === 0) return assigned
    const candidates = await store.listGapRecords(projectId, { limit: CANDIDATES })
    const created = new Set<string>()
    const touched = new Map<string, GapRecord>()
    const members = new Map<string, string[]>()
    const reopened = new Map<string, string>()
    const now = deps.now()
    for (const signal of pending) {
      let gap = nearestGap(signal, candidates, weight)
      if (!gap) {
        gap = gapOf(signal, deps.ids('gap'), now)
        candidates.unshift(gap)
        created.add(gap.id)
      }
      absorb(gap, signal, now)
      touched.set(gap.id, gap)
      members.set(gap.id, [...(members.get(gap.id) ?? []), signal.id])
      if (gap.status === 'fixed' && !reopened.has(gap.id)) {
        reopened.set(gap.id, `asked again after the fix and not answered: "${signal.query.slice(0, 200)}"`)
      }
    }
    for (const gap of touched.values()) {
      if (created.has(gap.id)) await store.insertGap(gap)
      else {
        // The signature only: the gap's status belongs to its fix (a concurrent transition must not be undone).
        const { terms, sections, memberCount, firstSeenAt, lastSeenAt, updatedAt } = gap
        await store.updateGap(gap.id, { terms, sections, memberCount, firstSeenAt, lastSeenAt, updatedAt })
      }
      await store.assignSignals(gap.id, members.get(gap.id)!)
    }
    for (const [id, reason] of reopened) {
      if (await store.updateGap(id, { status: 'open', reason, updatedAt: now }, { ifStatusIn: ['fixed'] })) {
        deps.log.info('gap open again', { project: projectId, gap: id, reason })
      }
    }
    assigned += pending.length
  }
}
