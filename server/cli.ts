import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { ConfigError, configFromEnv } from './config.ts'
import { createKey, describeKey, parseExpiry } from './keys/keys.ts'
import { openStore } from './store/open.ts'
import type { Store } from './store/types.ts'

const USAGE = `docent: self-hostable docs assistant and docs agent

Usage:
  docent serve                                   start the server (same as npm start)
  docent keys create --org ORG --kind admin|assistant [--project P] [--name N] [--expires 90d|12h|ISO-date]
                     [--scope read|write]          admin keys: read sees everything and changes nothing
  docent keys list [--org ORG]
  docent keys revoke KEY_ID
  docent index [--project P]                     reload a project's docs and print the revision

Configuration comes from docent.config.json (or DOCENT_CONFIG) and the environment, as for the server.
With the embedded PGlite store, stop the server before changing keys (one process owns the data directory).`

async function loadConfig() {
  const path = process.env.DOCENT_CONFIG ?? 'docent.config.json'
  const text = await readFile(path, 'utf8').catch(() => undefined)
  return configFromEnv(process.env, text === undefined ? undefined : JSON.parse(text))
}

async function withStore<T>(action: (store: Store, config: Awaited<ReturnType<typeof loadConfig>>) => Promise<T>): Promise<T> {
  const config = await loadConfig()
  const store = await openStore(config)
  try {
    return await action(store, config)
  } finally {
    await store.close()
  }
}

function fail(message: string): never {
  console.error(`docent: ${message}`)
  process.exit(2)
}

async function keys(args: string[]) {
  const [command, ...rest] = args
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      org: { type: 'string' },
      kind: { type: 'string' },
      project: { type: 'string' },
      name: { type: 'string' },
      expires: { type: 'string' },
      scope: { type: 'string' },
    },
  })
  switch (command) {
    case 'create': {
      if (!values.org) fail('keys create: --org is required')
      if (values.kind !== 'admin' && values.kind !== 'assistant') fail('keys create: --kind must be admin or assistant')
      if (values.scope !== undefined && values.scope !== 'read' && values.scope !== 'write')
        fail('keys create: --scope must be read or write')
      if (values.scope === 'read' && values.kind !== 'admin') fail('keys create: --scope read is for admin keys')
      await withStore(async (store, config) => {
        const project = values.project ? config.projects.find((p) => p.id === values.project) : undefined
        if (values.project && !project) fail(`keys create: no project "${values.project}" in the config`)
        if (project && project.organization !== values.org) {
          fail(`keys create: project "${project.id}" belongs to organization "${project.organization}"`)
        }
        if (values.kind === 'assistant' && !project) fail('keys create: an assistant key needs --project')
        const { secret, record } = await createKey(store, {
          kind: values.kind as 'admin' | 'assistant',
          organization: values.org!,
          projectId: values.kind === 'assistant' ? project!.id : null,
          name: values.name ?? null,
          scope: (values.scope as 'read' | 'write' | undefined) ?? 'write',
          expiresAt: values.expires ? parseExpiry(values.expires) : null,
        })
        console.log(
          `Created ${record.kind === 'admin' ? `${record.scope} ` : ''}${record.kind} key ${record.id} for organization ${record.organization}${
            record.projectId ? `, project ${record.projectId}` : ''
          }.`,
        )
        console.log('This is the only time the key is shown:')
        console.log(secret)
      })
      return
    }
    case 'list': {
      await withStore(async (store) => {
        const list = await store.listKeys(values.org)
        if (list.length === 0) return console.log('no keys')
        const rows = list.map((key) => [
          key.id,
          key.kind === 'admin' ? `admin (${key.scope})` : key.kind,
          key.organization,
          key.projectId ?? '-',
          describeKey(key),
          key.name ?? '-',
          key.createdAt.toISOString().slice(0, 10),
          key.expiresAt ? key.expiresAt.toISOString().slice(0, 10) : 'never',
          key.revokedAt ? `revoked ${key.revokedAt.toISOString().slice(0, 10)}` : 'active',
        ])
        const header = ['ID', 'KIND', 'ORG', 'PROJECT', 'KEY', 'NAME', 'CREATED', 'EXPIRES', 'STATUS']
        const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
        for (const row of [header, ...rows])
          console.log(
            row
              .map((cell, i) => cell.padEnd(widths[i]!))
              .join('  ')
              .trimEnd(),
          )
      })
      return
    }
    case 'revoke': {
      const id = positionals[0] ?? fail('keys revoke: give the key id (see docent keys list)')
      await withStore(async (store) => {
        if (!(await store.revokeKey(id, new Date()))) fail(`keys revoke: no active key ${id}`)
        console.log(`Revoked ${id}.`)
      })
      return
    }
    default:
      fail(`unknown keys command "${command ?? ''}"\n\n${USAGE}`)
  }
}

async function index(args: string[]) {
  const { values } = parseArgs({ args, options: { project: { type: 'string' } } })
  const { createDocent } = await import('./mod.ts')
  const { consoleLogger } = await import('./log.ts')
  const config = await loadConfig()
  const docent = await createDocent({ ...config, store: { kind: 'memory' }, worker: false }, { log: consoleLogger('warn') })
  try {
    const projects = values.project ? [values.project] : config.projects.map((p) => p.id)
    for (const id of projects) {
      if (!config.projects.some((p) => p.id === id)) fail(`index: no project "${id}" in the config`)
      const corpus = await docent.context.search.corpus(id)
      console.log(`${id}: ${corpus.pages().length} pages, revision ${corpus.revision}`)
    }
  } finally {
    await docent.stop()
  }
}

async function main(argv: string[]) {
  const [command, ...rest] = argv
  try {
    switch (command) {
      case 'serve':
        await import('./serve/node.ts')
        return
      case 'keys':
        return await keys(rest)
      case 'index':
        return await index(rest)
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        console.log(USAGE)
        return
      default:
        fail(`unknown command "${command}"\n\n${USAGE}`)
    }
  } catch (error) {
    if (error instanceof ConfigError || (error as Error)?.name === 'DataDirLockedError') fail((error as Error).message)
    // Anything else: the message an operator can act on; the stack only when asked for.
    if (process.env.DOCENT_DEBUG) throw error
    fail(`${(error as Error)?.message ?? error} (DOCENT_DEBUG=1 shows where)`)
  }
}

await main(process.argv.slice(2))
