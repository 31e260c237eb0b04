import { z } from 'zod'
import { formatIssues } from '../shared/errors.ts'

/** A secret is never written in the config itself: it names the environment variable that holds it. */
const EnvRef = z.object({ env: z.string().min(1) })

const DocsSource = z.union([
  z.object({ directory: z.string().min(1) }),
  z.object({
    repository: z.string().min(1),
    ref: z.string().min(1).default('main'),
    /** Sub-folder of the repository that holds docs.json and the pages. */
    root: z.string().default(''),
    token: EnvRef.optional(),
    /** How often to check whether the ref moved. */
    refreshSeconds: z.number().int().min(5).default(300),
    /** For a `local:<name>` repository: the folder it is made from on first use (then the repository is the source). */
    seed: z.string().min(1).optional(),
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

export const DocentConfig = z.object({
  port: z.number().int().min(0).max(65535).default(8787),
  dataDir: z.string().default('.docent'),
  /** Public base URL of this server (links in job PRs, review pages); defaults to http://localhost:PORT. */
  publicUrl: z.string().optional(),
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
      assistantKeyPerMonth: z.number().int().positive().default(10_000),
      organizationPerHour: z.number().int().positive().default(10_000),
      ipPerDay: z.number().int().positive().default(10_000),
      agentPerProjectPerHour: z.number().int().positive().default(100),
      agentMaxSteps: z.number().int().positive().default(40),
      agentRunSeconds: z.number().int().positive().default(600),
      agentMaxChangedBytes: z
        .number()
        .int()
        .positive()
        .default(2 * 1024 * 1024),
      agentMaxFilesTouched: z.number().int().positive().default(200),
    })
    .prefault({}),
  analytics: z
    .object({
      /** Record answers, searches, clicks and unanswered questions (the analytics API and gaps read them). */
      enabled: z.boolean().default(true),
      /** Analytics rows and threads older than this are purged in the background. */
      retentionDays: z.number().int().min(1).max(3650).default(90),
      /** How often the pull requests of gap fixes on GitHub/GitLab are polled, in case a webhook was missed. */
      prPollSeconds: z.number().int().min(10).default(300),
    })
    .prefault({}),
  /** Secrets of the signed webhooks (`POST /webhooks/github`, `/webhooks/gitlab`), as env references. */
  webhooks: z
    .object({
      github: z.object({ secret: EnvRef }).optional(),
      gitlab: z.object({ token: EnvRef }).optional(),
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

/** The embedded demo: organization, project and domain `demo`, docs from `demo/docs`, everything else default. */
export function demoProject(env: Env): ProjectConfig {
  const docsDir = env.DOCENT_DOCS_DIR || 'demo/docs'
  return ProjectConfig.parse({
    id: 'demo',
    organization: 'demo',
    domain: 'demo',
    name: 'Demo docs',
    // Served from the repository the agent pushes to, so a merged pull request reaches the readers' answers; Deno
    // Deploy has no disk for a repository, so there the folder is read as it is.
    docs: env.DENO_DEPLOYMENT_ID ? { directory: docsDir } : { repository: 'local:demo', ref: 'main', seed: docsDir, refreshSeconds: 10 },
    allowedOrigins: ['*'],
    mcp: { public: true },
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
    dataDir: env.DOCENT_DATA_DIR || file.dataDir,
    store: { ...storeFromFile, ...(storeKind ? { kind: storeKind } : {}), ...(env.DATABASE_URL ? { url: env.DATABASE_URL } : {}) },
    model,
    projects,
    seedDemoKeys: file.seedDemoKeys ?? file.projects === undefined,
    adminKey: env.DOCENT_ADMIN_KEY || file.adminKey,
    assistantKey: env.DOCENT_ASSISTANT_KEY || file.assistantKey,
    trustProxy: env.DOCENT_TRUST_PROXY ? env.DOCENT_TRUST_PROXY === 'true' : file.trustProxy,
    worker: env.DOCENT_WORKER ? env.DOCENT_WORKER !== 'false' : file.worker,
    webhooks: {
      ...(file.webhooks as object | undefined),
      ...(env.DOCENT_GITHUB_WEBHOOK_SECRET ? { github: { secret: { env: 'DOCENT_GITHUB_WEBHOOK_SECRET' } } } : {}),
      ...(env.DOCENT_GITLAB_WEBHOOK_TOKEN ? { gitlab: { token: { env: 'DOCENT_GITLAB_WEBHOOK_TOKEN' } } } : {}),
    },
  })
}
