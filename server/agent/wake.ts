/** What this process's agent worker does when told. */
export interface WorkListener {
  /** A run was enqueued: claim it now rather than at the next poll. */
  wake(): void
  /** A job was archived: abort its run if this process is running it (other instances see their lease refused). */
  cancel(jobId: string): void
}

/**
 * The routes enqueue runs and archive jobs; the worker of the same process hears it at once instead of at its next
 * poll or lease renewal. One per Docent (built in `createDocent`), so two instances in one process stay apart.
 */
export interface WorkSignal extends WorkListener {
  /** The worker listens while it runs; returns the function that stops listening. */
  listen(listener: WorkListener): () => void
}

export function createWorkSignal(): WorkSignal {
  let current: WorkListener | null = null
  return {
    listen(listener) {
      current = listener
      return () => {
        if (current === listener) current = null
      }
    },
    wake: () => current?.wake(),
    cancel: (jobId) => current?.cancel(jobId),
  }
}
