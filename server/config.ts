import { z } from 'zod'
import { formatIssues } from '../shared/errors.ts'

/** A secret is never written in the config itself: it names the environment variable that holds it. */
const EnvRef = z.object({ env: z.string().min(1) })

/**
 * Whether anyone may read the docs without the project's assistant key: llms.txt, llms-full.txt, page markdown, the
 * search and page endpoints and MCP. Unset: `mcp.public` (its older name), else false.
 */
const docsPublic = { public: z.boolean().optional() }

const DocsSource = z.union([
  z.object({ directory: z.string().min(1), ...docsPublic }),
  z.object({
    ...docsPublic,
    repository: z.string().min(1),
    ref: z.string().min(1).default('main'),
    /** Sub-folder of the repository that holds docs.json and the pages. */
    root: z.string().default(''),
    token: EnvRef.optional(),
    /** How often to check whether the ref moved. */
    refreshSeconds: z.number().int().min(5).default(300),
  }),
])

const GitHost = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  z.object({
    kind: z.literal('github'),
    /** `https://api.github.com`, a GitHub Enterprise `https://HOST/api/v3`, or a Gitea/Forgejo `https://HOST/api/v1`. */
    apiBase: z.string().url().default('https://api.github.com'),
    /** `owner/name`. */
    repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'must be owner/name'),
    token: EnvRef,
  }),
  z.object({
    kind: z.literal('gitlab'),
    apiBase: z.string().url().default('https://gitlab.com/api/v4'),
    /** Numeric id or `group/name`. */
    project: z.string().min(1),
    token: EnvRef,
  }),
])

export const ProjectConfig = z.object({
  id: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, - or _'),
  organization: z.string().min(1),
  /** The domain assistant keys are made for, as used in `/discovery/.../{domain}`. */
  domain: z.string().regex(/^[a-zA-Z0-9._-]{1,253}$/, 'must be a host name'),
  name: z.string().optional(),
  docs: DocsSource,
  /** Public URL of the docs site, used for source links; defaults to the demo site served by Docent. */
  siteUrl: z.string().optional(),
  allowedOrigins: z.array(z.string()).default([]),
  /** Deprecated: `docs.public` decides for MCP as for every other way of reading the docs. */
  mcp: z.object({ public: z.boolean().default(false) }).default({ public: false }),
  agent: z
    .object({
      /** The repository the agent clones and pushes to. `local:` repositories live under the data dir. */
      repository: z.string().min(1),
      ref: z.string().default('main'),
      token: EnvRef.optional(),
      host: GitHost.default({ kind: 'local' }),
      author: z.object({ name: z.string(), email: z.string() }).default({ name: 'Docent', email: 'docent@localhost' }),
    })
    .optional(),
})
export type ProjectConfig = z.infer<typeof ProjectConfig>

/** The one setting that decides whether a project's docs may be read without its assistant key. */
export function docsArePublic(project: ProjectConfig): boolean {
  return project.docs.public ?? project.mcp.public
}

export const DocentConfig = z.object({
  port: z.number().int().min(0).max(65535).default(8787),
  /**
   * The address the server listens on. Loopback by default: a first start prints an admin key and serves a demo with
   * its keys, so nothing should reach it from the network until someone decides it should (`0.0.0.0` in a container or
   * behind a reverse proxy on another host; `::` for IPv6 too).
   */
  host: z.string().min(1).default('127.0.0.1'),
  dataDir: z.string().default('.docent'),
  /** Public base URL of this server (source links, llms.txt, MCP results, job PRs, review pages). */
  publicUrl: z.string().url().optional(),
  /**
   * Without `publicUrl`, links use the request's origin only when its host is loopback or listed here (`docs.acme.com`,
   * or `docs.acme.com:8443` for one port); any other Host header gets links to http://localhost:PORT.
   */
  trustedHosts: z.array(z.string().min(1)).default([]),
  store: z
    .object({
      kind: z.enum(['memory', 'pglite', 'postgres', 'denokv']).default('pglite'),
      url: z.string().optional(),
    })
    .default({ kind: 'pglite' }),
  model: z
    .object({
      /** `offline` uses the built-in models; `openai` any OpenAI or OpenAI-compatible server. */
      provider: z.enum(['offline', 'openai']).default('offline'),
      id: z.string().optional(),
      agentId: z.string().optional(),
      baseURL: z.string().optional(),
      apiKey: EnvRef.optional(),
      embeddingId: z.string().optional(),
    })
    .default({ provider: 'offline' }),
  /** Take the client IP from X-Forwarded-For (only behind a proxy you trust). */
  trustProxy: z.boolean().default(false),
  limits: z
    .object({
      bodyBytes: z
        .number()
        .int()
        .positive()
        .default(1024 * 1024),
      // Answers (the v1 and v2 message endpoints).
      assistantKeyPerMonth: z.number().int().positive().default(10_000),
      ipPerDay: z.number().int().positive().default(10_000),
      /** Well under the organization's hour, so one client cannot spend it for every reader. */
      assistantIpPerHour: z.number().int().positive().default(300),
      /** Every assistant-key request (answers, docs, feedback) of the organization's projects. */
      organizationPerHour: z.number().int().positive().default(10_000),
      // Reading the docs: search, page, MCP, and the llms.txt / .md files of a project whose docs are not public.
      docsKeyPerMonth: z.number().int().positive().default(300_000),
      docsIpPerHour: z.number().int().positive().default(1_000),
      // Feedback on answers.
      feedbackKeyPerMonth: z.number().int().positive().default(10_000),
      feedbackIpPerHour: z.number().int().positive().default(100),
      agentPerProjectPerHour: z.number().int().positive().default(100),
      agentMaxSteps: z.number().int().positive().default(40),
      agentRunSeconds: z.number().int().positive().default(600),
      agentMaxChangedBytes: z
        .number()
        .int()
        .positive()
        .default(2 * 1024 * 1024),
      agentMaxFilesTouched: z.number().int().positive().default(200),
      /** A client must send its request headers within this, and its whole body within `bodySeconds` (slow clients). */
      headersSeconds: z.number().positive().default(10),
      bodySeconds: z.number().positive().default(30),
    })
    .prefault({}),
  /** Start the agent worker in this process. */
  worker: z.boolean().default(true),
  /** Demo organization bootstrapping: create and print keys on first start. */
  seedDemoKeys: z.boolean().default(false),
  adminKey: z.string().optional(),
  assistantKey: z.string().optional(),
  projects: z.array(ProjectConfig).min(1),
})
export type DocentConfig = z.infer<typeof DocentConfig>
export type DocentConfigInput = z.input<typeof DocentConfig>

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Validates a config object; the error names the offending field. */
export function parseConfig(input: unknown): DocentConfig {
  const result = DocentConfig.safeParse(input)
  if (!result.success) throw new ConfigError(`invalid config: ${formatIssues(result.error.issues)}`)
  const ids = new Set<string>()
  const domains = new Set<string>()
  for (const project of result.data.projects) {
    if (ids.has(project.id)) throw new ConfigError(`invalid config: projects: duplicate id "${project.id}"`)
    if (domains.has(project.domain)) throw new ConfigError(`invalid config: projects: duplicate domain "${project.domain}"`)
    ids.add(project.id)
    domains.add(project.domain)
  }
  return result.data
}

export type Env = Record<string, string | undefined>

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

/** The embedded demo: organization, project and domain `demo`, docs from `demo/docs`, everything else default. */
export function demoProject(env: Env): ProjectConfig {
  const docsDir = env.DOCENT_DOCS_DIR || 'demo/docs'
  return ProjectConfig.parse({
    id: 'demo',
    organization: 'demo',
    domain: 'demo',
    name: 'Demo docs',
    // The demo's docs are public (as a product's docs site usually is): every other project's are not unless it says so.
    docs: { directory: docsDir, public: true },
    allowedOrigins: ['*'],
    agent: { repository: 'local:demo', ref: 'main' },
  })
}

/**
 * Builds the config from an optional file's contents and the environment. Env wins for the variables it names;
 * with no file, the embedded demo project is the whole config.
 */
export function configFromEnv(env: Env, fileContents?: unknown): DocentConfig {
  const file = (fileContents ?? {}) as Record<string, unknown>
  if (fileContents !== undefined && (typeof fileContents !== 'object' || fileContents === null || Array.isArray(fileContents))) {
    throw new ConfigError('invalid config: the config file must hold a JSON object')
  }
  const port = env.PORT !== undefined ? Number(env.PORT) : file.port
  if (env.PORT !== undefined && !Number.isInteger(port)) throw new ConfigError('invalid config: PORT: must be an integer')

  const storeFromFile = (file.store ?? {}) as Record<string, unknown>
  // On Deno Deploy there is no disk for PGlite; Deno KV is the store it offers.
  const onDenoDeploy = Boolean(env.DENO_DEPLOYMENT_ID)
  const storeKind = env.DOCENT_STORE || (env.DATABASE_URL ? 'postgres' : (storeFromFile.kind ?? (onDenoDeploy ? 'denokv' : undefined)))
  const modelFromFile = (file.model ?? {}) as Record<string, unknown>
  const openai = Boolean(env.OPENAI_API_KEY || env.OPENAI_BASE_URL)
  const model = openai
    ? {
        ...modelFromFile,
        provider: 'openai',
        id: env.DOCENT_MODEL || modelFromFile.id || 'gpt-4o-mini',
        baseURL: env.OPENAI_BASE_URL || modelFromFile.baseURL,
        apiKey: env.OPENAI_API_KEY ? { env: 'OPENAI_API_KEY' } : modelFromFile.apiKey,
      }
    : { ...modelFromFile, ...(env.DOCENT_MODEL ? { id: env.DOCENT_MODEL } : {}) }
  // Hybrid search (BM25 + embeddings) on the same OpenAI(-compatible) server.
  if (env.DOCENT_EMBEDDING_MODEL) Object.assign(model, { embeddingId: env.DOCENT_EMBEDDING_MODEL })

  const projects = (file.projects as unknown[] | undefined) ?? [demoProject(env)]
  return parseConfig({
    ...file,
    port,
    host: env.HOST || file.host,
    dataDir: env.DOCENT_DATA_DIR || file.dataDir,
    store: { ...storeFromFile, ...(storeKind ? { kind: storeKind } : {}), ...(env.DATABASE_URL ? { url: env.DATABASE_URL } : {}) },
    model,
    projects,
    seedDemoKeys: file.seedDemoKeys ?? file.projects === undefined,
    adminKey: env.DOCENT_ADMIN_KEY || file.adminKey,
    assistantKey: env.DOCENT_ASSISTANT_KEY || file.assistantKey,
    trustProxy: env.DOCENT_TRUST_PROXY ? env.DOCENT_TRUST_PROXY === 'true' : file.trustProxy,
    publicUrl: env.DOCENT_PUBLIC_URL || file.publicUrl,
    trustedHosts: env.DOCENT_TRUSTED_HOSTS ? listOf(env.DOCENT_TRUSTED_HOSTS) : file.trustedHosts,
    worker: env.DOCENT_WORKER ? env.DOCENT_WORKER !== 'false' : file.worker,
  })
}

/** `a, b,c` → `['a', 'b', 'c']`. */
const listOf = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
