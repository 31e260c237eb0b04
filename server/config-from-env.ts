// The config of a deployment configured by environment variables (npm start, containers, Deno Deploy), over an
// optional docent.config.json: which variable sets which field. The schema and its checks are in config.ts.
import { ConfigError, type DocentConfig, type Env, parseConfig } from './config.ts'
import { storeKindFrom } from './store/kind.ts'
import { repositoryName } from './git/repository-url.ts'

/**
 * The one project of a deployment configured by environment alone (Deno Deploy, containers). With nothing set it is
 * the embedded demo: organization, project and domain `demo`, docs from `demo/docs`, the agent on the local git host.
 *
 * - `DOCENT_PROJECT_ID`, `DOCENT_ORGANIZATION`, `DOCENT_DOMAIN`, `DOCENT_SITE_URL`, `DOCENT_ALLOWED_ORIGINS` (comma list)
 * - docs: `DOCENT_DOCS_REPOSITORY` (+ `DOCENT_DOCS_REF`, `DOCENT_DOCS_ROOT`) or `DOCENT_DOCS_DIR`
 * - agent: `DOCENT_AGENT_REPOSITORY` (defaults to the docs repository), `DOCENT_AGENT_REF`, `DOCENT_AGENT_HOST`
 *   (`github` | `gitlab` | `local`; guessed from a github.com or gitlab.com URL), `DOCENT_AGENT_HOST_REPO`
 *   (GitHub `owner/name` or GitLab project; read from the URL when unset), `DOCENT_AGENT_API_BASE`
 * - secrets stay in the environment: `DOCENT_GIT_TOKEN` (clone and push) and `DOCENT_HOST_TOKEN` (pull requests;
 *   defaults to `DOCENT_GIT_TOKEN`) are referenced by name, never copied into the config.
 */
export function projectFromEnv(env: Env): Record<string, unknown> {
  const repository = env.DOCENT_DOCS_REPOSITORY
  const gitToken = env.DOCENT_GIT_TOKEN ? { env: 'DOCENT_GIT_TOKEN' } : undefined
  const demo = !repository && !env.DOCENT_PROJECT_ID
  // The demo's docs are public (as a product's docs site usually is); another project's only when it says so.
  const isPublic = booleanFromEnv(env, 'DOCENT_DOCS_PUBLIC') ?? demo
  const docsDir = env.DOCENT_DOCS_DIR || 'demo/docs'
  const agent = agentFromEnv(env, repository, gitToken)
  const docs = repository
    ? { repository, ref: env.DOCENT_DOCS_REF || 'main', root: env.DOCENT_DOCS_ROOT || '', token: gitToken, public: isPublic }
    : String(agent.repository).startsWith('local:') && !env.DENO_DEPLOYMENT_ID
      ? // Served from the embedded repository the agent pushes to (made from the folder on first use), so a merged pull
        // request reaches the readers' answers. Deno Deploy has no disk for a repository: there the folder is read as is.
        { repository: agent.repository, ref: agent.ref, seed: docsDir, refreshSeconds: 10, public: isPublic }
      : { directory: docsDir, public: isPublic }
  return {
    id: env.DOCENT_PROJECT_ID || 'demo',
    organization: env.DOCENT_ORGANIZATION || 'demo',
    domain: env.DOCENT_DOMAIN || 'demo',
    name: env.DOCENT_PROJECT_NAME || (demo ? 'Demo docs' : undefined),
    docs,
    ...(env.DOCENT_SITE_URL ? { siteUrl: env.DOCENT_SITE_URL } : {}),
    allowedOrigins: env.DOCENT_ALLOWED_ORIGINS ? listOf(env.DOCENT_ALLOWED_ORIGINS) : demo ? ['*'] : [],
    agent,
    automations: {
      notifications: [
        ...(env.DOCENT_SLACK_WEBHOOK_URL ? [{ kind: 'slack', url: { env: 'DOCENT_SLACK_WEBHOOK_URL' } }] : []),
        ...(env.DOCENT_NOTIFY_WEBHOOK_URL
          ? [
              {
                kind: 'webhook',
                url: { env: 'DOCENT_NOTIFY_WEBHOOK_URL' },
                ...(env.DOCENT_NOTIFY_WEBHOOK_SECRET ? { secret: { env: 'DOCENT_NOTIFY_WEBHOOK_SECRET' } } : {}),
              },
            ]
          : []),
      ],
    },
  }
}

function agentFromEnv(env: Env, docsRepository: string | undefined, gitToken: { env: string } | undefined): Record<string, unknown> {
  const repository = env.DOCENT_AGENT_REPOSITORY || docsRepository || 'local:demo'
  const ref = env.DOCENT_AGENT_REF || env.DOCENT_DOCS_REF || 'main'
  if (repository.startsWith('local:')) return { repository, ref }
  const url = URL.parse(repository)
  const kind = env.DOCENT_AGENT_HOST || (url?.hostname === 'gitlab.com' ? 'gitlab' : url?.hostname === 'github.com' ? 'github' : undefined)
  const token = env.DOCENT_HOST_TOKEN ? { env: 'DOCENT_HOST_TOKEN' } : gitToken
  // The repository path without `.git`: GitHub's owner/name, GitLab's group/name.
  const path = url ? repositoryName(url.pathname) : undefined
  const hostRepo = env.DOCENT_AGENT_HOST_REPO || path
  const apiBase = env.DOCENT_AGENT_API_BASE ? { apiBase: env.DOCENT_AGENT_API_BASE } : {}
  const host =
    kind === 'github'
      ? { kind, repo: hostRepo, token, ...apiBase }
      : kind === 'gitlab'
        ? { kind, project: hostRepo, token, ...apiBase }
        : kind === undefined
          ? undefined
          : { kind }
  if (!host) {
    throw new ConfigError(`invalid config: DOCENT_AGENT_HOST: set github or gitlab for the agent repository ${repository}`)
  }
  if (host.kind !== 'local' && !token) {
    throw new ConfigError(`invalid config: DOCENT_GIT_TOKEN: the ${host.kind} host needs a token to push and open pull requests`)
  }
  return { repository, ref, token: gitToken, host }
}

/** The config file read when DOCENT_CONFIG is unset: its absence is the embedded demo. */
export const DEFAULT_CONFIG_FILE = 'docent.config.json'

/** The config file a deployment reads: DOCENT_CONFIG, else docent.config.json. */
export const configFilePath = (env: Env): string => env.DOCENT_CONFIG || DEFAULT_CONFIG_FILE

/**
 * The config file's text, read with the runtime's own `readText` (Node's readFile, Deno.readTextFile, Bun.file), or
 * undefined when docent.config.json does not exist (the demo). A file DOCENT_CONFIG names must be read: skipping it
 * would start the demo with a fresh admin key where the operator meant their own projects.
 */
export async function readConfigText(env: Env, readText: (path: string) => Promise<string>): Promise<string | undefined> {
  const path = configFilePath(env)
  try {
    return await readText(path)
  } catch (error) {
    if (!env.DOCENT_CONFIG && readFailure(error) === NOT_FOUND) return undefined
    const named = env.DOCENT_CONFIG ? 'DOCENT_CONFIG: cannot read' : 'cannot read'
    throw new ConfigError(`invalid config: ${named} the config file ${path}: ${readFailure(error)}`)
  }
}

/** The config file's JSON, the error naming the file. A UTF-8 byte order mark (Notepad writes one) is not JSON: dropped. */
export function parseConfigText(text: string, path: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new ConfigError(`invalid config: the config file ${path} is not valid JSON (${(error as Error).message})`)
  }
}

const NOT_FOUND = 'no such file'

/** Why a read failed, in words: Node and Bun name it by `code`, Deno by the error's class (and `code` since 2.0). */
function readFailure(error: unknown): string {
  const { code, name, message } = (error ?? {}) as { code?: string; name?: string; message?: string }
  if (code === 'ENOENT' || name === 'NotFound') return NOT_FOUND
  if (code === 'EISDIR' || name === 'IsADirectory') return 'it is a directory'
  if (code === 'EACCES' || code === 'EPERM' || name === 'PermissionDenied') return 'permission denied'
  return message ?? String(error)
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
  // Decimal digits only: Number() reads "0x22c3" as 8899 and "1e3" as 1000. An empty PORT is unset, as for HOST.
  if (env.PORT && !/^\d{1,5}$/.test(env.PORT.trim())) {
    throw new ConfigError('invalid config: PORT: must be a whole number from 0 to 65535, in decimal digits')
  }
  const port = env.PORT ? Number(env.PORT) : file.port

  const storeFromFile = (file.store ?? {}) as Record<string, unknown>
  const storeKind = storeKindFrom(env, file)
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

  const projects = (file.projects as unknown[] | undefined) ?? [projectFromEnv(env)]
  const trustProxy = booleanFromEnv(env, 'DOCENT_TRUST_PROXY')
  const worker = booleanFromEnv(env, 'DOCENT_WORKER')
  const accessLog = booleanFromEnv(env, 'DOCENT_ACCESS_LOG')
  return parseConfig(
    {
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
      trustProxy: trustProxy ?? file.trustProxy,
      publicUrl: env.DOCENT_PUBLIC_URL || file.publicUrl,
      trustedHosts: env.DOCENT_TRUSTED_HOSTS ? listOf(env.DOCENT_TRUSTED_HOSTS) : file.trustedHosts,
      worker: worker ?? file.worker,
      accessLog: accessLog ?? file.accessLog,
      agentWorker: {
        ...(file.agentWorker as Record<string, unknown> | undefined),
        ...integerFromEnv(env, 'DOCENT_AGENT_LEASE_MS', 'leaseMs'),
        ...integerFromEnv(env, 'DOCENT_AGENT_POLL_MS', 'pollMs'),
      },
      ...integerFromEnv(env, 'DOCENT_GAP_POLL_MS', 'gapPollMs'),
      automationsWorker: {
        ...(file.automationsWorker as Record<string, unknown> | undefined),
        ...integerFromEnv(env, 'DOCENT_AUTOMATIONS_TICK_MS', 'tickMs'),
        ...integerFromEnv(env, 'DOCENT_AUTOMATIONS_PR_CHECK_MS', 'prCheckMs'),
      },
      webhooks: {
        ...(file.webhooks as object | undefined),
        ...(env.DOCENT_GITHUB_WEBHOOK_SECRET ? { github: { secret: { env: 'DOCENT_GITHUB_WEBHOOK_SECRET' } } } : {}),
        ...(env.DOCENT_GITLAB_WEBHOOK_TOKEN ? { gitlab: { token: { env: 'DOCENT_GITLAB_WEBHOOK_TOKEN' } } } : {}),
      },
    },
    fieldSources(env, file.projects === undefined),
  )
}

/** Which variable set which field, for the errors: the variable is what the operator will edit. */
function fieldSources(env: Env, projectFromEnvironment: boolean): Record<string, string> {
  const sources: Record<string, string> = {
    port: 'PORT',
    host: 'HOST',
    dataDir: 'DOCENT_DATA_DIR',
    'store.url': 'DATABASE_URL',
    'store.kind': 'DOCENT_STORE',
    'model.id': 'DOCENT_MODEL',
    'model.baseURL': 'OPENAI_BASE_URL',
    'model.embeddingId': 'DOCENT_EMBEDDING_MODEL',
    adminKey: 'DOCENT_ADMIN_KEY',
    assistantKey: 'DOCENT_ASSISTANT_KEY',
    publicUrl: 'DOCENT_PUBLIC_URL',
    trustedHosts: 'DOCENT_TRUSTED_HOSTS',
    'agentWorker.leaseMs': 'DOCENT_AGENT_LEASE_MS',
    'agentWorker.pollMs': 'DOCENT_AGENT_POLL_MS',
    gapPollMs: 'DOCENT_GAP_POLL_MS',
    'automationsWorker.tickMs': 'DOCENT_AUTOMATIONS_TICK_MS',
    'automationsWorker.prCheckMs': 'DOCENT_AUTOMATIONS_PR_CHECK_MS',
    ...(projectFromEnvironment
      ? {
          'projects.0.id': 'DOCENT_PROJECT_ID',
          'projects.0.organization': 'DOCENT_ORGANIZATION',
          'projects.0.domain': 'DOCENT_DOMAIN',
          'projects.0.siteUrl': 'DOCENT_SITE_URL',
          'projects.0.allowedOrigins': 'DOCENT_ALLOWED_ORIGINS',
        }
      : {}),
  }
  // Only the variables that are set: a field the file or a default set is named as a field alone.
  return Object.fromEntries(Object.entries(sources).filter(([, name]) => env[name]))
}

/**
 * An on/off variable: true/false, 1/0, yes/no in any case; undefined when unset or empty. Anything else is an error,
 * not a silent false (`DOCENT_TRUST_PROXY=1` read as off, `DOCENT_WORKER=no` as on).
 */
function booleanFromEnv(env: Env, name: string): boolean | undefined {
  const value = env[name]?.trim().toLowerCase()
  if (value === undefined || value === '') return undefined
  if (['true', '1', 'yes'].includes(value)) return true
  if (['false', '0', 'no'].includes(value)) return false
  throw new ConfigError(`invalid config: ${name}: must be true or false (or 1/0, yes/no), not ${JSON.stringify(env[name])}`)
}

/** `{ [field]: n }` from an integer environment variable, `{}` when unset; a ConfigError names the variable otherwise. */
function integerFromEnv(env: Env, name: string, field: string): Record<string, number> {
  const value = env[name]
  if (value === undefined || value === '') return {}
  const number = Number(value)
  if (!Number.isInteger(number)) throw new ConfigError(`invalid config: ${name}: must be an integer`)
  return { [field]: number }
}

/** `a, b,c` → `['a', 'b', 'c']`. */
const listOf = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
