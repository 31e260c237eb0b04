import LightningFS from '@isomorphic-git/lightning-fs'
import type { GitFs } from '../../server/git/object-workspace.ts'

/**
 * lightning-fs with its MemoryBackend. Its lock (Mutex2) needs `navigator.locks`, which Node and Bun lack: a minimal
 * single-process shim grants locks in order. Each lock wait arms a 600 s timer that is never cleared, so a process
 * using it must exit explicitly.
 */
export function lightningFs(): GitFs {
  installLocksShim()
  const { MemoryBackend } = LightningFS as unknown as { MemoryBackend: new () => unknown }
  return new LightningFS(`bench-${crypto.randomUUID()}`, { db: new MemoryBackend() } as never) as unknown as GitFs
}

type Grant = (lock: { name: string } | null) => unknown

function installLocksShim(): void {
  const nav = (globalThis as { navigator?: { locks?: unknown } }).navigator
  if (nav?.locks) return
  const held = new Set<string>()
  const waiting = new Map<string, Array<() => void>>()
  const run = (name: string, callback: Grant) => {
    held.add(name)
    Promise.resolve(callback({ name })).finally(() => {
      held.delete(name)
      waiting.get(name)?.shift()?.()
    })
  }
  const locks = {
    request(name: string, options: { ifAvailable?: boolean; steal?: boolean; signal?: AbortSignal }, callback: Grant) {
      if (options.steal || !held.has(name)) return run(name, callback)
      if (options.ifAvailable) return void callback(null)
      const queue = waiting.get(name) ?? []
      queue.push(() => run(name, callback))
      waiting.set(name, queue)
    },
  }
  if (nav) Object.defineProperty(nav, 'locks', { value: locks, configurable: true })
  else Object.defineProperty(globalThis, 'navigator', { value: { locks }, configurable: true })
}
