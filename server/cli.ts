import { readFile } from 'node:fs/promises'
import { type ParseArgsConfig, parseArgs } from 'node:util'
import { DocentError, formatIssues } from '../shared/errors.ts'
import { ConfigError } from './config.ts'
import { configFilePath, configFromEnv, parseConfigText, readConfigText } from './config-from-env.ts'
import { keyView } from './console/key-routes.ts'
import { controlCharacterProblem, escapeControlCharacters } from './keys/control-characters.ts'
import { createKey, describeKey, parseExpiry, parseKeyName } from './keys/keys.ts'
import { openStore } from './store/open.ts'
import type { Store } from './store/types.ts'

const USAGE = `docent: self-hostable docs assistant and docs agent

Usage:
  docent serve                                   start the server (same as npm start)
  docent keys create --org ORG --kind admin|assistant [--project P] [--name N] [--expires 90d|12h|ISO-date]
                     [--scope read|write]          admin keys: read sees everything and changes nothing
  docent keys list [--org ORG]
  docent keys revoke KEY_ID...
  docent index [--project P]                     reload a project's docs and print the revision
  docent automations list [--project P]          the automations, on or off, their trigger and last run
  docent automations enable|disable ID [--project P]
  docent automations trigger ID [--project P]    queue a run of a scheduled automation now (a worker runs it)
  docent automations runs ID [--project P] [--limit 20]

Configuration comes from docent.config.json (or DOCENT_CONFIG) and the environment, as for the server.
With the embedded PGlite store, stop the server before changing keys (one process owns the data directory).`

async function loadConfig() {
  const text = await readConfigText(process.env, (path) => readFile(path, 'utf8'))
  return configFromEnv(process.env, text === undefined ? undefined : parseConfigText(text, configFilePath(process.env)))
}

type Config = Awaited<ReturnType<typeof loadConfig>>

/** A change on the memory store is gone when the command ends: refused rather than reported as done. */
function refuseMemoryStore(config: Config, what: string) {
  if (config.store.kind === 'memory') {
    refuse(`${what}: the memory store (DOCENT_STORE=memory) ends with this command, so nothing would be kept; use pglite or postgres`)
  }
}

async function withStore<T>(action: (store: Store, config: Config) => Promise<T>, changes?: string): Promise<T> {
  const config = await loadConfig()
  if (changes) refuseMemoryStore(config, changes)
  const store = await openStore(config)
  try {
    return await action(store, config)
  } finally {
    await store.close()
  }
}

/** An expected way for a command to end: a message for the operator, an exit code, no stack trace. */
class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly usage = false,
  ) {
    super(message)
  }
}

/** A usage error (unknown command or flag, missing argument): exit 2. Thrown, so open stores are closed on the way out. */
function fail(message: string, usage = false): never {
  throw new CliFailure(message, 2, usage)
}

/** A value the command refuses (a bad name, date, number) or an action that failed: exit 1. */
function refuse(message: string): never {
  throw new CliFailure(message, 1)
}

/** A value from the operator or the store, quoted and with its control characters written out. */
const shown = (value: string) => `"${escapeControlCharacters(value)}"`

/** Prints a line; values from the store (key names, automation names) could hold terminal escapes or newlines. */
const say = (line: string) => console.log(escapeControlCharacters(line))

/** `parseArgs`, strict, with `--help`/`-h` everywhere: unknown flags are usage errors, not silently ignored. */
function parseCommand<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  return parseArgs({ args, allowPositionals: true, strict: true, options: { ...options, help: { type: 'boolean', short: 'h' } } })
}

function expectPositionals(positionals: string[], count: number, what: string) {
  if (positionals.length > count) fail(`${what}: unexpected argument ${shown(positionals[count]!)}`, true)
}

/** An organization id given on the command line: it is printed back and stored, so no control characters. */
function checkOrg(org: string | undefined, what: string) {
  const problem = org === undefined ? null : controlCharacterProblem(org)
  if (problem) refuse(`${what}: --org ${problem}`)
}

async function keys(args: string[]) {
  const { values, positionals } = parseCommand(args, {
    org: { type: 'string' },
    kind: { type: 'string' },
    project: { type: 'string' },
    name: { type: 'string' },
    expires: { type: 'string' },
    scope: { type: 'string' },
  })
  if (values.help) return console.log(USAGE)
  const [command] = positionals
  switch (command) {
    case 'create': {
      expectPositionals(positionals, 1, 'keys create')
      if (!values.org) fail('keys create: --org is required')
      checkOrg(values.org, 'keys create')
      const name = values.name === undefined ? null : parseKeyName(values.name)
      if (name && !name.ok) refuse(`keys create: --name ${name.problem}`)
      let expiresAt: Date | null = null
      try {
        expiresAt = values.expires === undefined ? null : parseExpiry(values.expires)
      } catch (error) {
        if (error instanceof DocentError) refuse(`keys create: ${escapeControlCharacters(error.message)}`)
        throw error
      }
      if (values.kind !== 'admin' && values.kind !== 'assistant') fail('keys create: --kind must be admin or assistant')
      if (values.scope !== undefined && values.scope !== 'read' && values.scope !== 'write')
        fail('keys create: --scope must be read or write')
      if (values.scope === 'read' && values.kind !== 'admin') fail('keys create: --scope read is for admin keys')
      if (values.kind === 'admin' && values.project !== undefined) {
        fail('keys create: an admin key is organization-wide; --project is for assistant keys')
      }
      await withStore(async (store, config) => {
        const project = values.project ? config.projects.find((p) => p.id === values.project) : undefined
        if (values.project && !project) fail(`keys create: no project ${shown(values.project)} in the config`)
        if (project && project.organization !== values.org) {
          fail(`keys create: project ${shown(project.id)} belongs to organization ${shown(project.organization)}`)
        }
        if (values.kind === 'assistant' && !project) fail('keys create: an assistant key needs --project')
        const { secret, record } = await createKey(store, {
          kind: values.kind as 'admin' | 'assistant',
          organization: values.org!,
          projectId: values.kind === 'assistant' ? project!.id : null,
          name: name?.ok ? name.name : null,
          scope: (values.scope as 'read' | 'write' | undefined) ?? 'write',
          expiresAt,
        })
        say(
          `Created ${record.kind === 'admin' ? `${record.scope} ` : ''}${record.kind} key ${record.id} for organization ${record.organization}${
            record.projectId ? `, project ${record.projectId}` : ''
          }.`,
        )
        say('This is the only time the key is shown:')
        say(secret)
      }, 'keys create')
      return
    }
    case 'list': {
      expectPositionals(positionals, 1, 'keys list')
      checkOrg(values.org, 'keys list')
      await withStore(async (store) => {
        const list = await store.listKeys(values.org)
        if (list.length === 0) return say('no keys')
        const now = new Date()
        const rows = list.map((key) => [
          key.id,
          key.kind === 'admin' ? `admin (${key.scope})` : key.kind,
          key.organization,
          key.projectId ?? '-',
          describeKey(key),
          key.name ?? '-',
          key.createdAt.toISOString().slice(0, 10),
          key.expiresAt ? key.expiresAt.toISOString().slice(0, 10) : 'never',
          // The API's status (revoked, expired or active), with the day a key was revoked.
          key.revokedAt ? `revoked ${key.revokedAt.toISOString().slice(0, 10)}` : keyView(key, now).status,
        ])
        printTable(['ID', 'KIND', 'ORG', 'PROJECT', 'KEY', 'NAME', 'CREATED', 'EXPIRES', 'STATUS'], rows)
      })
      return
    }
    case 'revoke': {
      const ids = positionals.slice(1)
      if (ids.length === 0) fail('keys revoke: give the key id (see docent keys list)', true)
      await withStore(async (store) => {
        // Every id given, each reported; one that is unknown or already revoked does not stop the others.
        const missing: string[] = []
        for (const id of ids) {
          if (await store.revokeKey(id, new Date())) say(`Revoked ${id}.`)
          else missing.push(id)
        }
        if (missing.length > 0) refuse(`keys revoke: no active key ${missing.map(shown).join(', ')}`)
      }, 'keys revoke')
      return
    }
    default:
      fail(`unknown keys command ${shown(command ?? '')}`, true)
  }
}

async function index(args: string[]) {
  const { values, positionals } = parseCommand(args, { project: { type: 'string' } })
  if (values.help) return console.log(USAGE)
  expectPositionals(positionals, 0, 'index')
  const { createDocent } = await import('./mod.ts')
  const { consoleLogger } = await import('./log.ts')
  const config = await loadConfig()
  const docent = await createDocent({ ...config, store: { kind: 'memory' }, worker: false }, { log: consoleLogger('warn') })
  try {
    const projects = values.project ? [values.project] : config.projects.map((p) => p.id)
    for (const id of projects) {
      if (!config.projects.some((p) => p.id === id)) fail(`index: no project ${shown(id)} in the config`)
      const corpus = await docent.context.search.corpus(id)
      say(`${id}: ${corpus.pages().length} pages, revision ${corpus.revision}`)
    }
  } finally {
    await docent.stop()
  }
}

/** Cells are escaped before they are measured: a stored value cannot add a row or a column. */
function printTable(header: string[], cells: string[][]) {
  const rows = cells.map((row) => row.map((cell) => escapeControlCharacters(cell)))
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
  const { values, positionals: all } = parseCommand(args, { project: { type: 'string' }, limit: { type: 'string' } })
  if (values.help) return console.log(USAGE)
  const [command, ...positionals] = all
  const [{ createDocent }, { consoleLogger }, settings, { triggerNow }, { runView }, { ListRunsQuery }] = await Promise.all([
    import('./mod.ts'),
    import('./log.ts'),
    import('./automations/settings.ts'),
    import('./automations/routes.ts'),
    import('./automations/run-view.ts'),
    import('../shared/automations.ts'),
  ])
  if (!['list', 'enable', 'disable', 'trigger', 'runs'].includes(command ?? ''))
    fail(`unknown automations command ${shown(command ?? '')}`, true)
  if (command !== 'list' && !positionals[0]) fail(`automations ${command}: give the automation id (see docent automations list)`, true)
  expectPositionals(positionals, command === 'list' ? 0 : 1, `automations ${command}`)
  // The API's rule for a page of runs (an integer, 1 to 100), not a second one.
  const limit = ListRunsQuery.shape.limit.safeParse(values.limit)
  if (!limit.success) refuse(`automations ${command}: --limit ${formatIssues(limit.error.issues)}`)
  const config = await loadConfig()
  if (['enable', 'disable', 'trigger'].includes(command!)) refuseMemoryStore(config, `automations ${command}`)
  const project = values.project ? config.projects.find((p) => p.id === values.project) : config.projects[0]
  if (!project) fail(`automations: no project ${shown(values.project ?? '')} in the config`)
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
        say(`${updated.name} (${updated.id}) is ${updated.enabled ? 'on' : 'off'} in project ${project.id}.`)
        return
      }
      case 'trigger': {
        const triggered = await triggerNow(ctx, project, id())
        say(`Queued run ${triggered.instanceId} of ${triggered.schemaId} (job ${triggered.jobId}); a server with a worker runs it.`)
        return
      }
      case 'runs': {
        const automation = await settings.automationOr404(ctx, project, id())
        const page = await ctx.store.listAutomationRuns(project.id, automation.id, { limit: limit.data })
        if (page.items.length === 0) return say(`no runs of ${automation.id} yet`)
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
  if (failure) fail(escapeControlCharacters(failure))
}

async function serve(args: string[]) {
  const { values, positionals } = parseCommand(args, {})
  if (values.help) return console.log(USAGE)
  expectPositionals(positionals, 0, 'serve')
  await import('./serve/node.ts')
}

/** Node's own argument errors (`ERR_PARSE_ARGS_UNKNOWN_OPTION`…): a usage error, shown with the usage. */
const isArgumentError = (error: unknown) => /^ERR_PARSE_ARGS_/.test(String((error as { code?: unknown })?.code ?? ''))

async function main(argv: string[]) {
  // `docent keys list | head -1`: the reader has gone, which is no error; the command still ends and closes its store.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
  })
  const [command, ...rest] = argv
  try {
    switch (command) {
      case 'serve':
        return await serve(rest)
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
        fail(`unknown command ${shown(command)}`, true)
    }
  } catch (error) {
    const failure =
      error instanceof CliFailure
        ? error
        : isArgumentError(error)
          ? new CliFailure((error as Error).message, 2, true)
          : error instanceof ConfigError || (error as Error)?.name === 'DataDirLockedError'
            ? new CliFailure((error as Error).message, 2)
            : undefined
    // Anything else: the message an operator can act on; the stack only when asked for.
    if (!failure && process.env.DOCENT_DEBUG) throw error
    const { message, exitCode, usage } = failure ?? new CliFailure(`${(error as Error)?.message ?? error} (DOCENT_DEBUG=1 shows where)`, 2)
    // Messages may span lines on purpose; anything else that could drive the terminal is written out.
    console.error(`docent: ${escapeControlCharacters(message, '\n')}${usage ? `\n\n${USAGE}` : ''}`)
    process.exitCode = exitCode
  }
}

await main(process.argv.slice(2))
