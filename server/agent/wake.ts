import type { DocentContext } from '../context.ts'

// The routes enqueue runs and archive jobs; the worker of the same process hears it at once instead of at its next
// poll or lease renewal. Keyed by context so two Docent instances in one process stay apart.
interface Listener {
  wake(): void
  cancel(jobId: string): void
}

const listeners = new WeakMap<DocentContext, Listener>()

export function listenForWork(ctx: DocentContext, listener: Listener): () => void {
  listeners.set(ctx, listener)
  return () => {
    if (listeners.get(ctx) === listener) listeners.delete(ctx)
  }
}

/** A run was enqueued. */
export function wakeWorker(ctx: DocentContext): void {
  listeners.get(ctx)?.wake()
}

/** A job was archived: abort its run if this process is running it (other instances see their lease refused). */
export function cancelJobRun(ctx: DocentContext, jobId: string): void {
  listeners.get(ctx)?.cancel(jobId)
}
