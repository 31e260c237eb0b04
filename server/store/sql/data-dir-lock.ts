import { open, readFile, rm } from 'node:fs/promises'
import process from 'node:process'

/** Opens of each lock file in this process: one process may open its own data directory again (tests reopen it). */
const held = new Map<string, number>()

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as { code?: string }).code === 'EPERM'
  }
}

/**
 * Claims `<dir>.lock` for this process, so a second process (a second server, or the CLI while the server runs)
 * fails with a clear message instead of writing the same PGlite data directory and corrupting it. A lock left by a
 * process that no longer exists is taken over. Returns the release function.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const path = `${dir}.lock`
  const release = async () => {
    const count = (held.get(path) ?? 1) - 1
    if (count > 0) return void held.set(path, count)
    held.delete(path)
    await rm(path, { force: true })
  }
  if (held.has(path)) {
    held.set(path, held.get(path)! + 1)
    return release
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await open(path, 'wx')
      await file.writeFile(`${process.pid}\n`)
      await file.close()
      held.set(path, 1)
      return release
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error
      const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim())
      if (pid && pid !== process.pid && alive(pid)) {
        throw new Error(
          `the PGlite data directory ${dir} is in use by process ${pid}: PGlite is single-process. Stop that process first, ` +
            'or share a PostgreSQL server between processes (DATABASE_URL, DOCENT_STORE=postgres)',
        )
      }
      // Left by a process that has ended (or unreadable half-written): take it over.
      await rm(path, { force: true })
    }
  }
  throw new Error(`could not lock the PGlite data directory ${dir} (${path})`)
}
