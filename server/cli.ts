import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { ConfigError } from './config.ts'
import { configFromEnv } from './config-from-env.ts'
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
  docent automations list [--project P]          the automations, on or off, their trigger and last run
  docent automations enable|disable ID [--project P]
  docent automations trigger ID [--project P]    queue a run of a scheduled automation now (a worker runs it)
  docent automations runs ID [--project P] [--limit 20]

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
      if (values.kind === 'admin' && values.project !== undefined) {
        fail('keys create: an admin key is organization-wide; --project is for assistant keys')
      }
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
        printTable(['ID', 'KIND', 'ORG', 'PROJECT', 'KEY', 'NAME', 'CREATED', 'EXPIRES', 'STATUS'], rows)
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

function printTable(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  for (const row of [header, ...rows]) {
    console.log(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
  }
}

/** `docent automations ...`: the same settings and runs as the API, on the configured store (no worker runs here). */
async function automations(args: string[]) {
  const [command, ...rest] = args
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { project: { type: 'string' }, limit: { type: 'string' } },
  })
  const [{ createDocent }, { consoleLogger }, settings, { triggerNow }, { runView }, { DocentError }] = await Promise.all([
    import('./mod.ts'),
    import('./log.ts'),
    import('./automations/settings.ts'),
    import('./automations/routes.ts'),
    import('./automations/run-view.ts'),
    import('../shared/errors.ts'),
  ])
  if (!['list', 'enable', 'disable', 'trigger', 'runs'].includes(command ?? ''))
    fail(`unknown automations command "${command ?? ''}"\n\n${USAGE}`)
  if (command !== 'list' && !positionals[0]) fail(`automations ${command}: give the automation id (see docent automations list)`)
  const config = await loadConfig()
  const project = values.project ? config.projects.find((p) => p.id === values.project) : config.projects[0]
  if (!project) fail(`automations: no project "${values.project}" in the config`)
  // The store is closed before any exit, so the embedded store's data directory is not left locked.
  const docent = await createDocent({ ...config, worker: false }, { log: consoleLogger('warn') })
  const ctx = docent.context
  const id = () => positionals[0]!
  let failure: string | null = null
  try {
    switch (command) {
      case 'list': {
        const rows = []
        for (const record of await settings.listAutomations(ctx, project)) {
          const view = await settings.automationView(ctx, project, record)
          const trigger =
            view.trigger.kind === 'schedule'
              ? `schedule ${view.trigger.cron} ${view.trigger.timeZone ?? 'UTC'}`
              : view.trigger.kind === 'code'
                ? `code ${view.trigger.repositories.join(',') || '(any listed)'}`
                : 'content'
          const last = view.lastRun ? `${view.lastRun.status} ${view.lastRun.startedAt.slice(0, 16)}` : '-'
          rows.push([
            view.id,
            view.enabled ? 'on' : view.unavailable ? 'off (needs a model)' : 'off',
            trigger,
            view.mode,
            last,
            view.nextRunAt?.slice(0, 16) ?? '-',
          ])
        }
        printTable(['ID', 'STATE', 'TRIGGER', 'MODE', 'LAST RUN', 'NEXT RUN'], rows)
        return
      }
      case 'enable':
      case 'disable': {
        const updated = await settings.updateAutomation(ctx, project, id(), { enabled: command === 'enable' })
        console.log(`${updated.name} (${updated.id}) is ${updated.enabled ? 'on' : 'off'} in project ${project.id}.`)
        return
      }
      case 'trigger': {
        const triggered = await triggerNow(ctx, project, id())
        console.log(`Queued run ${triggered.instanceId} of ${triggered.schemaId} (job ${triggered.jobId}); a server with a worker runs it.`)
        return
      }
      case 'runs': {
        const automation = await settings.automationOr404(ctx, project, id())
        const limit = Math.min(100, Math.max(1, Number(values.limit ?? 20) || 20))
        const page = await ctx.store.listAutomationRuns(project.id, automation.id, { limit })
        if (page.items.length === 0) return console.log(`no runs of ${automation.id} yet`)
        const rows = []
        for (const record of page.items) {
          const run = await runView(ctx, record)
          rows.push([
            run.id,
            run.startedAt.slice(0, 19),
            run.reason,
            run.status,
            run.prLink ?? (run.note ?? '-').split('\n')[0]!.slice(0, 100),
          ])
        }
        printTable(['RUN', 'STARTED', 'REASON', 'STATUS', 'PULL REQUEST / NOTE'], rows)
        return
      }
    }
  } catch (error) {
    if (!(error instanceof DocentError)) throw error
    failure = `automations ${command}: ${error.message}`
  } finally {
    await docent.stop()
  }
  if (failure) fail(failure)
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
      case 'automations':
        return await automations(rest)
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
