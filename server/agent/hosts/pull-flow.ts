import type { PullRequestRef } from '../../store/types.ts'
import type { PullRequestInput } from '../types.ts'
import { HostApiError } from './host-http.ts'

/** What one forge's API supplies for `openOrUpdate`; `P` is its pull (merge) request as the API returns it. */
export interface PullSteps<P> {
  /** Extends the job's known pull request while it is open; null when it is merged, closed or gone. */
  updateKnown(number: string, input: PullRequestInput, signal?: AbortSignal): Promise<PullRequestRef | null>
  /** An open pull request from the job's branch into its base. */
  findOpen(input: PullRequestInput, signal?: AbortSignal): Promise<P | undefined>
  /** Appends this run's section to a found open pull request. */
  extend(pull: P, input: PullRequestInput, signal?: AbortSignal): Promise<PullRequestRef>
  create(input: PullRequestInput, signal?: AbortSignal): Promise<PullRequestRef>
}

/**
 * Idempotent per job, the same on every forge: the known pull request is extended, else an open one from the branch
 * is found and extended, else one is opened. One opened meanwhile by a concurrent run makes the host answer a
 * conflict (GitHub 422, Gitea and GitLab 409): that one is found and extended instead.
 */
export async function openOrUpdate<P>(steps: PullSteps<P>, input: PullRequestInput, signal?: AbortSignal): Promise<PullRequestRef> {
  if (input.existing) {
    const updated = await steps.updateKnown(input.existing.number, input, signal)
    if (updated) return updated
  }
  const open = await steps.findOpen(input, signal)
  if (open) return steps.extend(open, input, signal)
  try {
    return await steps.create(input, signal)
  } catch (error) {
    if (error instanceof HostApiError && error.code === 'conflict') {
      const raced = await steps.findOpen(input, signal)
      if (raced) return steps.extend(raced, input, signal)
    }
    throw error
  }
}
