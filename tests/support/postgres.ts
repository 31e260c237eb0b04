// A real PostgreSQL server for tests: DATABASE_URL when set, otherwise a throwaway cluster from Debian's binaries
// (`apt-get install postgresql`; .ci/run installs it) in a temp folder on a free loopback port. Each test file (or
// each server process of a scale-out test) gets its own database from `createDatabase()`.
import { execFile, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import postgres from 'postgres'

const run = promisify(execFile)

export interface PostgresServer {
  /** URL of the server's maintenance database (`postgres`); use `createDatabase()` for a database to test in. */
  url: string
  /** Creates an empty database and returns its URL; it is dropped by `stop()`. */
  createDatabase(prefix?: string): Promise<string>
  /** Drops the databases made here and, for a throwaway cluster, stops it and deletes its files. */
  stop(): Promise<void>
}

/** Starts (or connects to) PostgreSQL; `{ skip }` with the reason when none is available outside CI, throws in CI. */
export async function startPostgres(): Promise<PostgresServer | { skip: string }> {
  if (process.env.DATABASE_URL) return withDatabases(process.env.DATABASE_URL, async () => {})
  const bin = findBinaries()
  if (!bin) {
    const reason = "no PostgreSQL: set DATABASE_URL or install Debian's postgresql package (/usr/lib/postgresql/*/bin/initdb)"
    if (process.env.CI) throw new Error(`${reason} (required in CI)`)
    console.warn(`skipping PostgreSQL tests: ${reason}`)
    return { skip: reason }
  }
  const cluster = await startCluster(bin)
  return withDatabases(cluster.url, cluster.stop)
}

function findBinaries(): string | null {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return null
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(root, versions[0], 'bin') : null
}

/** initdb refuses to run as root: as root, the cluster belongs to the `postgres` user (or `nobody` when there is none). */
async function clusterUser(): Promise<{ prefix: string[]; uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number((await run('id', ['-u', name])).stdout.trim())
      const gid = Number((await run('id', ['-g', name])).stdout.trim())
      return { prefix: ['runuser', '-u', name, '--'], uid, gid }
    } catch {
      // no such user: try the next one
    }
  }
  throw new Error('running as root and neither a postgres nor a nobody user exists to own the test cluster')
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

async function startCluster(bin: string): Promise<{ url: string; stop(): Promise<void> }> {
  const user = await clusterUser()
  // As root the cluster's user must reach the folder: /tmp is open to all, a TMPDIR under /root may not be.
  const dir = await mkdtemp(join(user ? '/tmp' : tmpdir(), 'docent-pg-'))
  const data = join(dir, 'data')
  const log = join(dir, 'server.log')
  if (user) await chown(dir, user.uid, user.gid)
  const as = (command: string, args: string[]) => {
    const [file, ...rest] = [...(user?.prefix ?? []), join(bin, command), ...args]
    return run(file!, rest, { cwd: dir })
  }
  const stopCommand = [...(user?.prefix ?? []), join(bin, 'pg_ctl'), 'stop', '-D', data, '-m', 'immediate', '-w']
  // If the test process exits without calling stop() (a crash, a failed hook), the cluster must not outlive it.
  const onExit = () => {
    spawnSync(stopCommand[0]!, stopCommand.slice(1), { stdio: 'ignore' })
    rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', onExit)
  const stop = async () => {
    process.off('exit', onExit)
    await run(stopCommand[0]!, stopCommand.slice(1)).catch(() => {})
    await rm(dir, { recursive: true, force: true })
  }
  try {
    await as('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'])
    // A throwaway cluster: durability off, so tests do not wait on the disk.
    const settings = `-c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`
    for (let attempt = 1; ; attempt++) {
      const port = await freePort()
      try {
        await as('pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port} ${settings}`])
        return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop }
      } catch (error) {
        // The free port may have been taken between probing and binding: try another.
        if (attempt >= 3) {
          throw new Error(`pg_ctl start failed: ${(error as Error).message}\n${await readFile(log, 'utf8').catch(() => '')}`)
        }
      }
    }
  } catch (error) {
    await stop()
    throw error
  }
}

function withDatabases(url: string, stopServer: () => Promise<void>): PostgresServer {
  const admin = postgres(url, { max: 1, onnotice: () => {} })
  const made: string[] = []
  return {
    url,
    async createDatabase(prefix = 'docent_test') {
      const name = `${prefix}_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_')
      await admin.unsafe(`CREATE DATABASE "${name}"`)
      made.push(name)
      const target = new URL(url)
      target.pathname = `/${name}`
      return target.toString()
    },
    async stop() {
      for (const name of made) await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {})
      await admin.end({ timeout: 5 })
      await stopServer()
    },
  }
}
