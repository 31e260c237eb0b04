import { z } from 'zod'
import { AUTOMATION_EVENT_TYPES } from '../shared/automations.ts'
import { DocentError, formatIssues } from '../shared/errors.ts'
import { ADMIN_PREFIX, ASSISTANT_PREFIX, kindOfKey } from './keys/keys.ts'
import { DEFAULT_STORE_KIND, STORE_KINDS } from './store/kind.ts'

// Every object is strict: a misspelled field (`organizationPerHuor`) is an error naming it, not a setting that
// silently keeps its default.

/** A secret is never written in the config itself: it names the environment variable that holds it. */
const EnvRef = z.strictObject(
  { env: z.string().min(1) },
  { error: 'must be { "env": "VARIABLE" }, naming the environment variable that holds the secret (never the secret itself)' },
)

/**
 * The longest delay a timer can wait: setTimeout and setInterval hold it in a signed 32-bit integer, and Node, browsers
 * and Deno run a longer one after 1 ms (a poll of 3e9 ms spins a core, a run limit of 1e11 s ends every run at once).
 */
export const MAX_TIMER_MS = 2 ** 31 - 1
const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000)

/** A whole number of milliseconds that a timer waits. */
const milliseconds = (min: number) =>
  z
    .number()
    .int()
    .min(min)
    .max(MAX_TIMER_MS, { error: `must be at most ${MAX_TIMER_MS} (about 24.8 days, the longest a timer can wait)` })

/** A number of seconds that a timer waits (as milliseconds). */
const seconds = () =>
  z.number().max(MAX_TIMER_SECONDS, { error: `must be at most ${MAX_TIMER_SECONDS} (about 24.8 days, the longest a timer can wait)` })

/** A count or size: zod's `.positive()` would read "must be at least 0" to whoever set 0. */
const atLeastOne = () => z.number().int().min(1)

/**
 * A URL Docent links to or sends requests to: http(s) only, with no user or password in it. fetch refuses a URL with
 * credentials, and a public link would show them to every reader; `javascript:` or `ftp:` would fail at every use.
 */
const webUrl = (credentialsInstead: string) =>
  z.string().superRefine((value, ctx) => {
    const problem = webUrlProblem(value, credentialsInstead)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

/** Why a URL cannot be used as a web address, or undefined. */
export function webUrlProblem(value: string, credentialsInstead: string): string | undefined {
  const url = URL.parse(value)
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return 'must be an http:// or https:// URL'
  if (url.username || url.password) return `must not hold a user or password (${credentialsInstead})`
  return undefined
}

/** A git repository: `local:<name>`, a path, or a URL whose credentials belong in `token` instead. */
const repositoryLocation = () =>
  z
    .string()
    .min(1)
    .superRefine((value, ctx) => {
      const url = /^https?:/i.test(value) ? URL.parse(value) : null
      if (url && (url.username || url.password)) {
        ctx.addIssue({ code: 'custom', message: 'must not hold a user or password: name the token with "token": { "env": "VARIABLE" }' })
      }
    })

/**
 * Whether anyone may read the docs without the project's assistant key: llms.txt, llms-full.txt, page markdown, the
 * search and page endpoints and MCP. Unset: `mcp.public` (its older name), else false.
 */
const docsPublic = { public: z.boolean().optional() }

const DocsSource = z.union([
  z.strictObject({ directory: z.string().min(1), ...docsPublic }),
  z.strictObject({
    ...docsPublic,
    repository: repositoryLocation(),
    ref: z.string().min(1).default('main'),
    /** Sub-folder of the repository that holds docs.json and the pages. */
    root: z.string().default(''),
    token: EnvRef.optional(),
    /** How often to check whether the ref moved. */
    refreshSeconds: seconds().int().min(5).default(300),
    /** For a `local:<name>` repository: the folder it is made from on first use (then the repository is the source). */
    seed: z.string().min(1).optional(),
  }),
])

/** The docs tree's content and navigation: pages, docs.json/mint.json, images and snippets. */
export const DEFAULT_WRITABLE_PATHS = [
  '**/*.md',
  '**/*.mdx',
  '**/docs.json',
  '**/mint.json',
  '**/*.{png,jpg,jpeg,gif,svg,webp,avif,ico}',
  '**/snippets/**',
] as const

const GitHost = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('local') }),
  z.strictObject({
    kind: z.literal('github'),
    /** `https://api.github.com`, a GitHub Enterprise `https://HOST/api/v3`, or a Gitea/Forgejo `https://HOST/api/v1`. */
    apiBase: webUrl('the token is "token"').default('https://api.github.com'),
    /** `owner/name`. */
    repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'must be owner/name'),
    token: EnvRef,
  }),
  z.strictObject({
    kind: z.literal('gitlab'),
    apiBase: webUrl('the token is "token"').default('https://gitlab.com/api/v4'),
    /** Numeric id or `group/name`. */
    project: z.string().min(1),
    token: EnvRef,
  }),
])

/** A product repository whose merged pull/merge requests can trigger automations (reported by signed webhooks). */
const CodeRepository = z.strictObject({
  /** `owner/name` on GitHub, `group/name` (any depth) on GitLab: as the webhook names it. */
  repository: z.string().regex(/^[^\s/]+(\/[^\s/]+)+$/, 'must be owner/name (GitHub) or group/name (GitLab)'),
  host: z.enum(['github', 'gitlab']).default('github'),
  /** Overrides `webhooks.github.secret` / `webhooks.gitlab.token` for this repository's deliveries. */
  webhookSecret: EnvRef.optional(),
})

/** Where a project's automation notices go. The URL is a secret (a Slack webhook URL is its own credential). */
const NotificationTarget = z.strictObject({
  kind: z.enum(['slack', 'webhook']),
  url: EnvRef,
  /** A generic webhook's signing secret: `X-Docent-Signature-256: sha256=<HMAC-SHA256 of the body>`. */
  secret: EnvRef.optional(),
  /** Which events to send (default: all). */
  events: z.array(z.enum(AUTOMATION_EVENT_TYPES)).min(1).optional(),
})

const Automations = z
  .strictObject({
    codeRepositories: z.array(CodeRepository).max(50).default([]),
    notifications: z.array(NotificationTarget).max(20).default([]),
    /** A pull request an automation opened that has waited this many days for review is announced (again every as many days). */
    reviewReminderDays: z.number().int().min(1).max(365).default(3),
    /** The project's own words (product names, jargon) that "fix typos" never flags, beside those it learns from the docs. */
    terms: z.array(z.string().min(1).max(100)).max(5000).default([]),
  })
  .prefault({})

const PROJECT_ID_SHAPE = 'must be 1-64 letters, digits, - or _'
const HOST_NAME = 'must be a host name'

export const ProjectConfig = z.strictObject({
  // Lengths are checked apart from the patterns: recheck proves `+` linear by its automaton but leaves a bounded
  // repeat such as {1,253} to its fuzzer, which has misreported such a pattern under load (see keys.ts).
  id: z
    .string()
    .min(1, PROJECT_ID_SHAPE)
    .max(64, PROJECT_ID_SHAPE)
    .regex(/^[a-zA-Z0-9_-]+$/, PROJECT_ID_SHAPE),
  organization: z.string().min(1),
  /** The domain assistant keys are made for, as used in `/discovery/.../{domain}`. */
  domain: z
    .string()
    .min(1, HOST_NAME)
    .max(253, HOST_NAME)
    .regex(/^[a-zA-Z0-9._-]+$/, HOST_NAME),
  name: z.string().optional(),
  docs: DocsSource,
  /** Public URL of the docs site, used for source links; defaults to the demo site served by Docent. */
  siteUrl: webUrl('readers see every source link').optional(),
  allowedOrigins: z.array(z.string()).default([]),
  /** Deprecated: `docs.public` decides for MCP as for every other way of reading the docs. */
  mcp: z.strictObject({ public: z.boolean().default(false) }).default({ public: false }),
  agent: z
    .strictObject({
      /** The repository the agent clones and pushes to. `local:` repositories live under the data dir. */
      repository: repositoryLocation(),
      ref: z.string().default('main'),
      token: EnvRef.optional(),
      host: GitHost.default({ kind: 'local' }),
      author: z.strictObject({ name: z.string(), email: z.string() }).default({ name: 'Docent', email: 'docent@localhost' }),
      /**
       * Globs of the files the agent may write, create or delete (relative to the repository root; `*`, `**`, `?`,
       * `{a,b}`). Git's own files (`.git*`, `.github/`) and `.husky/` are never writable, whatever this says.
       */
      writablePaths: z
        .array(
          z
            .string()
            .min(1)
            .refine((glob) => !glob.startsWith('/') && !glob.split('/').includes('..'), 'must be a relative glob'),
        )
        .min(1)
        .default([...DEFAULT_WRITABLE_PATHS]),
    })
    .optional(),
  automations: Automations,
})
export type ProjectConfig = z.infer<typeof ProjectConfig>

/** The one setting that decides whether a project's docs may be read without its assistant key. */
export function docsArePublic(project: ProjectConfig): boolean {
  return project.docs.public ?? project.mcp.public
}

export const DocentConfig = z.strictObject({
  port: z.number().int().min(0).max(65535).default(8787),
  /**
   * The address the server listens on. Loopback by default: a first start prints an admin key and serves a demo with
   * its keys, so nothing should reach it from the network until someone decides it should (`0.0.0.0` in a container or
   * behind a reverse proxy on another host; `::` for IPv6 too).
   */
  host: z
    .string()
    .refine(isListenAddress, 'must be an IP address or a host name, without a port (the port is PORT)')
    .transform(withoutBrackets)
    .default('127.0.0.1'),
  dataDir: z.string().default('.docent'),
  /** Public base URL of this server (source links, llms.txt, MCP results, job PRs, review pages). */
  publicUrl: webUrl('readers see every link made from it').optional(),
  /**
   * Without `publicUrl`, links use the request's origin only when its host is loopback or listed here (`docs.acme.com`,
   * or `docs.acme.com:8443` for one port); any other Host header gets links to http://localhost:PORT.
   */
  trustedHosts: z.array(z.string().min(1)).default([]),
  store: z
    .strictObject({
      kind: z.enum(STORE_KINDS).default(DEFAULT_STORE_KIND),
      url: z.string().optional(),
    })
    .default({ kind: DEFAULT_STORE_KIND }),
  model: z
    .strictObject({
      /** `offline` uses the built-in models; `openai` any OpenAI or OpenAI-compatible server. */
      provider: z.enum(['offline', 'openai']).default('offline'),
      id: z.string().optional(),
      agentId: z.string().optional(),
      baseURL: webUrl('the key is apiKey, OPENAI_API_KEY').optional(),
      apiKey: EnvRef.optional(),
      embeddingId: z.string().optional(),
    })
    .default({ provider: 'offline' }),
  /** Take the client IP from X-Forwarded-For (only behind a proxy you trust). */
  trustProxy: z.boolean().default(false),
  limits: z
    .strictObject({
      bodyBytes: atLeastOne().default(1024 * 1024),
      // Answers (the v1 and v2 message endpoints).
      assistantKeyPerMonth: atLeastOne().default(10_000),
      ipPerDay: atLeastOne().default(10_000),
      /** Well under the organization's hour, so one client cannot spend it for every reader. */
      assistantIpPerHour: atLeastOne().default(300),
      /** Every assistant-key request (answers, docs, feedback) of the organization's projects. */
      organizationPerHour: atLeastOne().default(10_000),
      // Reading the docs: search, page, MCP, and the llms.txt / .md files of a project whose docs are not public.
      docsKeyPerMonth: atLeastOne().default(300_000),
      docsIpPerHour: atLeastOne().default(1_000),
      // Feedback on answers.
      feedbackKeyPerMonth: atLeastOne().default(10_000),
      feedbackIpPerHour: atLeastOne().default(100),
      agentPerProjectPerHour: atLeastOne().default(100),
      agentMaxSteps: atLeastOne().default(40),
      agentRunSeconds: seconds().int().min(1).default(600),
      agentMaxChangedBytes: atLeastOne().default(2 * 1024 * 1024),
      agentMaxFilesTouched: atLeastOne().default(200),
      /** A client must send its request headers within this, and its whole body within `bodySeconds` (slow clients). */
      headersSeconds: seconds().positive({ error: 'must be more than 0' }).default(10),
      bodySeconds: seconds().positive({ error: 'must be more than 0' }).default(30),
    })
    // Node times the whole request (requestTimeout) as headers and body together, so the sum must fit a timer too.
    .refine((limits) => (limits.headersSeconds + limits.bodySeconds) * 1000 <= MAX_TIMER_MS, {
      error: `headersSeconds and bodySeconds together must be at most ${MAX_TIMER_SECONDS} (about 24.8 days, the longest a timer can wait)`,
      path: ['bodySeconds'],
    })
    .prefault({}),
  analytics: z
    .strictObject({
      /** Record answers, searches, clicks and unanswered questions (the analytics API and gaps read them). */
      enabled: z.boolean().default(true),
      /** Analytics rows and threads older than this are purged in the background. */
      retentionDays: z.number().int().min(1).max(3650).default(90),
      /** How often the pull requests of gap fixes on GitHub/GitLab are polled, in case a webhook was missed. */
      prPollSeconds: seconds().int().min(10).default(300),
    })
    .prefault({}),
  /**
   * Secrets of the signed webhooks (`POST /webhooks/github`, `/webhooks/gitlab`), as env references: GitHub's webhook
   * secret (`X-Hub-Signature-256`) and GitLab's secret token (`X-Gitlab-Token`). A code repository's `webhookSecret`
   * is accepted as well for its deliveries.
   */
  webhooks: z
    .strictObject({
      github: z.strictObject({ secret: EnvRef }).optional(),
      gitlab: z.strictObject({ token: EnvRef }).optional(),
    })
    .prefault({}),
  /** Start the agent worker (and the automations' scheduler) in this process. */
  worker: z.boolean().default(true),
  /** Log one line per request (method, path, status, time to the response's headers). */
  accessLog: z.boolean().default(false),
  /**
   * How long a worker's claim on a run holds without renewal (a killed server's runs are retried after it), and how
   * often an idle worker looks for work (runs queued by the same process wake it at once).
   */
  agentWorker: z
    .strictObject({
      leaseMs: milliseconds(100).default(30_000),
      pollMs: milliseconds(10).default(1_000),
    })
    .prefault({}),
  /** How often the progress of gap fixes is followed (jobs, local pull requests, docs reaching a merge). */
  gapPollMs: milliseconds(10).default(5_000),
  /**
   * How often the automations' scheduler looks for due slots and docs moves, and how often their open pull requests are
   * checked (merged, waiting for review).
   */
  automationsWorker: z
    .strictObject({
      tickMs: milliseconds(10).default(15_000),
      prCheckMs: milliseconds(100).default(30 * 60_000),
    })
    .prefault({}),
  /** Demo organization bootstrapping: create and print keys on first start. */
  seedDemoKeys: z.boolean().default(false),
  adminKey: keySecret('admin').optional(),
  assistantKey: keySecret('assistant').optional(),
  projects: z.array(ProjectConfig).min(1),
})
export type DocentConfig = z.infer<typeof DocentConfig>
export type DocentConfigInput = z.input<typeof DocentConfig>

/**
 * A key the config seeds (`adminKey`, `assistantKey`): checked here so a bad one is a config error naming its field,
 * not a failure of the first start. The shape is keys.ts's: the prefix, then 8 to 200 letters, digits and `_`.
 */
function keySecret(kind: 'admin' | 'assistant') {
  const prefix = kind === 'admin' ? ADMIN_PREFIX : ASSISTANT_PREFIX
  return z.string().superRefine((key, ctx) => {
    if (kindOfKey(key) === kind) return
    const message = !key.startsWith(prefix)
      ? `must start with ${prefix}`
      : kind === 'admin' && key.startsWith(ASSISTANT_PREFIX)
        ? `must not start with ${ASSISTANT_PREFIX}, which makes it an assistant key`
        : `must be ${prefix} then 8 to 200 letters, digits or _ (this one has ${key.length - prefix.length} after ${prefix})`
    ctx.addIssue({ code: 'custom', message })
  })
}

/** An IPv6 address as written in a URL (`[::1]`) as the runtimes bind it (`::1`). */
function withoutBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
}

/**
 * What a server can be bound to: an IPv4 address, an IPv6 address (`::`, `::1`, brackets allowed) or a host name.
 * `127.0.0.1:80` (a port in the host) and `999.1.1.1` are not, and were found only when the bind failed.
 */
function isListenAddress(host: string): boolean {
  const bare = withoutBrackets(host)
  if (bare.includes(':')) return URL.parse(`http://[${bare}]/`) !== null
  const labels = bare.split('.')
  if (labels.every((label) => /^\d+$/.test(label))) return labels.length === 4 && labels.every((label) => Number(label) <= 255)
  return bare.length <= 253 && labels.every((label) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i.test(label))
}

/** An invalid configuration: raised at startup, before any request, so it has no HTTP status. */
export class ConfigError extends DocentError<'invalid_config'> {
  override name = 'ConfigError'
  constructor(message: string) {
    super('invalid_config', message)
  }
}

/**
 * Validates a config object; the error names the offending field. `sources` names where a field's value came from
 * (`{ 'agentWorker.pollMs': 'DOCENT_AGENT_POLL_MS' }`), so an error about it names the environment variable to fix too.
 */
export function parseConfig(input: unknown, sources: Record<string, string> = {}): DocentConfig {
  const result = DocentConfig.safeParse(input)
  if (!result.success) {
    const issues = result.error.issues.flatMap(closestBranch).slice(0, 3)
    const described = issues.map((issue) => {
      const field = issue.path.map(String).join('.')
      const source = Object.entries(sources).find(([path]) => field === path || field.startsWith(`${path}.`))?.[1]
      return formatIssues([issue]) + (source ? ` (set by ${source})` : '')
    })
    throw new ConfigError(`invalid config: ${described.join('; ')}`)
  }
  const ids = new Set<string>()
  const domains = new Set<string>()
  for (const [i, project] of result.data.projects.entries()) {
    for (const [field, url, token] of tokenUrls(project)) {
      if (token && !sendsTokenSafely(url)) {
        throw new ConfigError(
          `invalid config: projects.${i}.${field}: an http:// URL would send the token in clear text; use https:// (plain http is allowed only for localhost)`,
        )
      }
    }
    if (ids.has(project.id)) throw new ConfigError(`invalid config: projects: duplicate id "${project.id}"`)
    if (domains.has(project.domain)) throw new ConfigError(`invalid config: projects: duplicate domain "${project.domain}"`)
    ids.add(project.id)
    domains.add(project.domain)
  }
  return result.data
}

/**
 * A value that matches no branch of a union (a docs source) gets zod's bare "Invalid input". The branch it came nearest
 * to (fewest issues: `{ repository, tokn }` is a repository source with an unknown field) says what is wrong.
 */
function closestBranch(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue]
  const nearest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best))
  return nearest.flatMap((inner) => closestBranch({ ...inner, path: [...issue.path, ...inner.path] }))
}

/** Every URL of a project that a token travels to, with the field that names it. */
function tokenUrls(project: ProjectConfig): Array<[field: string, url: string, token: boolean]> {
  const urls: Array<[string, string, boolean]> = []
  if ('repository' in project.docs) urls.push(['docs.repository', project.docs.repository, Boolean(project.docs.token)])
  if (project.agent) {
    urls.push(['agent.repository', project.agent.repository, Boolean(project.agent.token)])
    if (project.agent.host.kind !== 'local') urls.push(['agent.host.apiBase', project.agent.host.apiBase, true])
  }
  return urls
}

/**
 * https, or plain http to this machine only (tests, a git server on localhost). Read as fetch reads the URL: it drops
 * leading controls and spaces, so `"\u0001http://evil.example"` is plain http to evil.example.
 */
function sendsTokenSafely(url: string): boolean {
  const parsed = URL.parse(url)
  if (!parsed) return !/^[\u0000-\u0020]*http:/i.test(url)
  if (parsed.protocol !== 'http:') return true
  const host = parsed.hostname
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

export type Env = Record<string, string | undefined>

/**
 * The notification URLs are secrets, so the config names their variables and the values are read here, at start: a
 * value that is no web URL (`hooks.slack.com/...` without its scheme) or holds credentials fails every notice, found
 * only when the first one is lost. The error names the variable, never the value.
 */
export function checkSecretUrls(config: DocentConfig, env: Env): void {
  for (const [i, project] of config.projects.entries()) {
    for (const [j, target] of project.automations.notifications.entries()) {
      const value = env[target.url.env]
      if (!value) continue
      const problem = webUrlProblem(value.trim(), 'a generic webhook signs with "secret" instead')
      if (problem) {
        throw new ConfigError(`invalid config: projects.${i}.automations.notifications.${j}.url: the value of ${target.url.env} ${problem}`)
      }
    }
  }
}

/** The values of every secret the configuration names (`{ env: NAME }`): what logs must never show. */
export function configSecrets(config: DocentConfig, env: Env): string[] {
  const refs = [
    config.model.apiKey,
    ...config.projects.flatMap((project) => [
      'token' in project.docs ? project.docs.token : undefined,
      project.agent?.token,
      project.agent?.host && 'token' in project.agent.host ? project.agent.host.token : undefined,
    ]),
  ]
  return refs.flatMap((ref) => (ref && env[ref.env] ? [env[ref.env]!] : []))
}
