import type { ChatTurn } from '../../shared/assistant.ts'
import type { DocentContext } from '../context.ts'
import type { MessageRecord, Store, ThreadRecord, ThreadWrite } from '../store/types.ts'
import { nextTurn } from '../event-loop.ts'

export interface OpenThread {
  id: string
  /** The thread as stored (or as it will be, for a new one: created with its first question). */
  record: ThreadRecord
  /** Turns already stored in the thread, oldest first (empty for a new thread). */
  history: ChatTurn[]
}

/** How many stored turns a follow-up may bring back when the client sent only its last message. */
const HISTORY_TURNS = 20

/**
 * Continues the project's thread `threadId`, or picks an id for a new one (unknown, absent, another project's id, or
 * another reader's thread: its `fp` differs). A thread id seen by someone else (a shared screenshot, a log) lets them
 * neither read its earlier turns, which a follow-up brings back, nor write into it.
 */
export async function openThread(
  ctx: DocentContext,
  projectId: string,
  threadId: string | null | undefined,
  fp: string,
  at: Date,
): Promise<OpenThread> {
  // A follow-up sent the moment an answer ended finds that answer: this process's writes of the thread land first.
  if (threadId) await threadSettled(ctx, threadId)
  const found = threadId ? await ctx.store.getThread(projectId, threadId) : null
  const existing = found?.fp === fp ? found : null
  if (!existing) {
    const id = ctx.ids('thread')
    return { id, record: { id, projectId, fp, createdAt: at, updatedAt: at, messageCount: 0 }, history: [] }
  }
  const messages = await ctx.store.listMessages(existing.id)
  return {
    id: existing.id,
    record: existing,
    history: messages.slice(-HISTORY_TURNS).map((m) => ({ id: m.id, role: m.role, text: m.content })),
  }
}

/**
 * Stores a message of a thread (creating the thread with its first one). Writes of concurrent answers go to the store
 * together (`saveThreads`: one statement for all that queued), so storage costs a statement per batch instead of one
 * per message: on PGlite a statement costs about as much for sixteen messages as for one (0.6-2 ms, on the event
 * loop, which PGlite holds while it runs). An idle server writes at once; under load (a batch ended within `BUSY_MS`)
 * a write waits `GATHER_MS` for others to share its statement. The answer's write (`join`; its stream ends once it is
 * stored) never opens such a wait: it joins a batch gathering or in flight, else goes at once.
 * Resolves when the message is stored; never rejects (a failure is logged).
 */
export function storeMessage(
  ctx: DocentContext,
  thread: OpenThread,
  message: Omit<MessageRecord, 'threadId'>,
  { join = false }: { join?: boolean } = {},
): Promise<void> {
  return threadWriter(ctx).write({ thread: thread.record, messages: [{ ...message, threadId: thread.id }], at: message.createdAt }, join)
}

/** Resolves once this process's writes of the thread queued so far are stored: read the thread after this. */
export function threadSettled(ctx: DocentContext, threadId: string): Promise<void> {
  return threadWriter(ctx).settled(threadId)
}

const writers = new WeakMap<Store, ThreadWriter>()

function threadWriter(ctx: DocentContext): ThreadWriter {
  let writer = writers.get(ctx.store)
  if (!writer) {
    const created = new ThreadWriter(ctx)
    writers.set(ctx.store, created)
    // Stopping waits for the writes in flight: the store closes after these.
    ctx.onStop.push(() => created.idle())
    writer = created
  }
  return writer
}

interface Queued {
  write: ThreadWrite
  /** Called once the write is stored, or with why it could not be. */
  done: (failure?: { error: unknown }) => void
}

/** Under load (a batch ended within `BUSY_MS`), how long a write waits for others to share its statement. */
const GATHER_MS = 2
const BUSY_MS = 50

/** Group commit of thread writes: one batch in flight, the next one gathering behind it. */
class ThreadWriter {
  private queue: Queued[] = []
  private running = false
  /** Per thread, the promise of its last queued write. */
  private pending = new Map<string, Promise<void>>()
  private drained: Promise<void> = Promise.resolve()
  private timer: ReturnType<typeof setTimeout> | null = null
  private timerDue = Number.POSITIVE_INFINITY
  private lastBatchEnded = Number.NEGATIVE_INFINITY

  constructor(private readonly ctx: DocentContext) {}

  /** Resolves once stored; rejects when the write failed (logged here): the caller decides what the reader is told. */
  write(write: ThreadWrite, join: boolean): Promise<void> {
    const stored = new Promise<void>((resolve, reject) =>
      this.queue.push({ write, done: (failure) => (failure ? reject(failure.error) : resolve()) }),
    )
    const id = write.thread.id
    // Who waits for the thread to settle waits for the write to end, stored or not.
    const ended = stored.catch(() => {})
    this.pending.set(id, ended)
    void ended.then(() => {
      if (this.pending.get(id) === ended) this.pending.delete(id)
    })
    if (join && this.timer) return stored
    this.schedule(!join && performance.now() - this.lastBatchEnded < BUSY_MS ? GATHER_MS : 0)
    return stored
  }

  /** Resolves when every write queued so far is stored (or failed). */
  async idle(): Promise<void> {
    this.flush()
    while (this.running) await this.drained
  }

  /** Resolves once every write of `threadId` queued so far is stored (or failed), writing it now if it waits. */
  settled(threadId: string): Promise<void> {
    const pending = this.pending.get(threadId)
    if (!pending) return Promise.resolve()
    this.flush()
    return pending
  }

  /** Starts writing within `ms` (at once for 0) unless a write starts sooner; a batch in flight takes what queued. */
  private schedule(ms: number) {
    if (this.running) return
    if (ms === 0) return this.flush()
    const due = performance.now() + ms
    if (this.timer && this.timerDue <= due) return
    if (this.timer) clearTimeout(this.timer)
    this.timerDue = due
    this.timer = setTimeout(() => this.flush(), ms)
  }

  private flush() {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
      this.timerDue = Number.POSITIVE_INFINITY
    }
    if (!this.running && this.queue.length > 0) this.drained = this.drain()
  }

  private async drain() {
    this.running = true
    for (let round = 0; this.queue.length > 0; round++) {
      // Under load (writes queued behind a batch), one turn of the event loop first: the writes of answers that reach
      // that point together go as one batch (measured: twice the batch size, a fraction of the statements). An idle
      // server writes at once.
      if (round > 0) await nextTurn()
      const batch = this.queue.splice(0)
      const failures = new Map<Queued, { error: unknown }>()
      try {
        await this.ctx.store.saveThreads(batch.map((item) => item.write))
      } catch {
        // One bad write must not lose the others: each is retried alone, and only its own failure is reported.
        for (const item of batch) {
          await this.ctx.store.saveThreads([item.write]).catch((error) => {
            failures.set(item, { error })
            this.ctx.log.error('storing a thread message failed', {
              thread: item.write.thread.id,
              project: item.write.thread.projectId,
              error: String(error),
            })
          })
        }
      }
      for (const item of batch) item.done(failures.get(item))
    }
    this.running = false
    this.lastBatchEnded = performance.now()
  }
}
