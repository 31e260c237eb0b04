import { open, readFile, rm, stat, utimes } from 'node:fs/promises'
import { hostname } from 'node:os'
import process from 'node:process'
import { clearInterval, setInterval } from 'node:timers'
import { DocentError } from '../../../shared/docent-error.ts'

/** The owner touches its lock this often; a lock untouched for STALE_MS is taken as left by a dead owner. */
const HEARTBEAT_MS = 5_000
const STALE_MS = 30_000

/** Another process owns the data directory: a state to report in words, not a crash. */
export class DataDirLockedError extends DocentError {
  override name = 'DataDirLockedError'
  constructor(message: string) {
    super('unavailable', message)
  }
}

/** Locks this process holds, with their heartbeats. */
const held = new Map<string, ReturnType<typeof setInterval>>()

interface Owner {
  pid: number
  host: string
}

const thisHost = () => {
  try {
    return hostname()
  } catch {
    return ''
  }
}

/** true or false when the process table can say; null when it cannot (another host, or Deno without --allow-run). */
function alive(owner: Owner): boolean | null {
  if (!owner.pid || owner.host !== thisHost()) return null
  if (owner.pid === process.pid) return false // a lock from an earlier process that had our pid
  try {
    process.kill(owner.pid, 0)
    return true
  } catch (error) {
    const code = (error as { code?: string }).code
    return code === 'ESRCH' ? false : code === 'EPERM' ? true : null
  }
}

/** The lock's owner (null when the file is still being written) and how long since it was touched; null if gone. */
async function ownerOf(path: string): Promise<{ owner: Owner | null; age: number } | null> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)])
    let owner: Owner | null = null
    try {
      owner = JSON.parse(text) as Owner
    } catch {
      // written by `open` but not yet filled in: its age decides
    }
    return { owner, age: Date.now() - info.mtimeMs }
  } catch {
    return null
  }
}

/**
 * Claims `<dir>.lock` for this process, so a second process (a second server, or the CLI while the server runs)
 * fails with a clear message instead of writing the same PGlite data directory and corrupting it. A lock whose owner
 * is gone (its pid no longer runs on this host, or, where that cannot be checked, it has not been touched for
 * STALE_MS) is taken over. Returns the release function.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const path = `${dir}.lock`
  const release = async () => {
    const heartbeat = held.get(path)
    if (!heartbeat) return
    clearInterval(heartbeat)
    held.delete(path)
    await rm(path, { force: true })
  }
  // Two PGlite instances on one directory corrupt it just the same within one process.
  if (held.has(path))
    throw new DataDirLockedError(`the PGlite data directory ${dir} is already open in this process: close that store first`)
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await open(path, 'wx')
      await file.writeFile(JSON.stringify({ pid: process.pid, host: thisHost() } satisfies Owner))
      await file.close()
      const heartbeat = setInterval(() => {
        const now = new Date()
        utimes(path, now, now).catch(() => {})
      }, HEARTBEAT_MS)
      heartbeat.unref?.()
      held.set(path, heartbeat)
      return release
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error
      const found = await ownerOf(path)
      if (!found) continue
      const running = (found.owner && alive(found.owner)) ?? found.age < STALE_MS
      if (running) {
        const who = found.owner ? `process ${found.owner.pid}${found.owner.host ? ` on ${found.owner.host}` : ''}` : 'another process'
        throw new DataDirLockedError(
          `the PGlite data directory ${dir} is in use by ${who}: ` +
            'PGlite is single-process. Stop that process first, or share a PostgreSQL server between processes (DATABASE_URL, DOCENT_STORE=postgres)',
        )
      }
      // Its owner is gone. (Two processes taking over one stale lock in the same instant could both win: that needs
      // two starts within milliseconds of each other after a crash.)
      await rm(path, { force: true })
    }
  }
  throw new Error(`could not lock the PGlite data directory ${dir} (${path})`)
}
