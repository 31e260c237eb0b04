import { describe, expect, test } from 'vitest'
import { ConfigError, parseConfig } from './config.ts'
import { configFromEnv } from './config-from-env.ts'

describe('config', () => {
  test('the embedded demo is the default', () => {
    const config = configFromEnv({})
    expect(config.port).toBe(8787)
    expect(config.dataDir).toBe('.docent')
    expect(config.store.kind).toBe('pglite')
    expect(config.model.provider).toBe('offline')
    expect(config.seedDemoKeys).toBe(true)
    expect(config.projects).toHaveLength(1)
    expect(config.projects[0]).toMatchObject({
      id: 'demo',
      organization: 'demo',
      domain: 'demo',
      docs: { repository: 'local:demo', ref: 'main', seed: 'demo/docs' },
      agent: { repository: 'local:demo' },
    })
    expect(config.analytics).toEqual({ enabled: true, retentionDays: 90, prPollSeconds: 300 })
  })

  test('env overrides: port, data dir, docs dir, store, Postgres, model, keys', () => {
    const config = configFromEnv({
      PORT: '9000',
      DOCENT_DATA_DIR: '/tmp/d',
      DOCENT_DOCS_DIR: '/srv/docs',
      DATABASE_URL: 'postgres://localhost/docent',
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
      DOCENT_MODEL: 'llama3.1',
      DOCENT_ADMIN_KEY: 'svc_abcdefghijkl',
    })
    expect(config.port).toBe(9000)
    expect(config.dataDir).toBe('/tmp/d')
    expect(config.projects[0]!.docs).toMatchObject({ repository: 'local:demo', seed: '/srv/docs', public: true })
    expect(config.store).toEqual({ kind: 'postgres', url: 'postgres://localhost/docent' })
    expect(config.model).toMatchObject({ provider: 'openai', id: 'llama3.1', baseURL: 'http://localhost:11434/v1' })
    expect(config.adminKey).toBe('svc_abcdefghijkl')
    expect(configFromEnv({ DOCENT_STORE: 'memory', DATABASE_URL: 'postgres://x' }).store.kind).toBe('memory')
    expect(configFromEnv({ DENO_DEPLOYMENT_ID: 'abc123' }).store.kind).toBe('denokv')
    expect(configFromEnv({ DENO_DEPLOYMENT_ID: 'abc123' }).projects[0]!.docs).toEqual({ directory: 'demo/docs', public: true })
    expect(configFromEnv({ DENO_DEPLOYMENT_ID: 'abc123', DATABASE_URL: 'postgres://x' }).store.kind).toBe('postgres')
    expect(configFromEnv({}).store.kind).toBe('pglite')
  })

  test('webhook secrets from the environment', () => {
    expect(configFromEnv({ DOCENT_GITHUB_WEBHOOK_SECRET: 's', DOCENT_GITLAB_WEBHOOK_TOKEN: 't' }).webhooks).toEqual({
      github: { secret: { env: 'DOCENT_GITHUB_WEBHOOK_SECRET' } },
      gitlab: { token: { env: 'DOCENT_GITLAB_WEBHOOK_TOKEN' } },
    })
    expect(configFromEnv({}).webhooks).toEqual({})
    expect(() => configFromEnv({}, { analytics: { retentionDays: 0 } })).toThrow(/analytics\.retentionDays: must be at least 1/)
  })

  test('a bad config names the field', () => {
    expect(() => configFromEnv({ PORT: 'eighty' })).toThrow(/PORT: must be a whole number from 0 to 65535/)
    expect(() => configFromEnv({ DOCENT_AGENT_LEASE_MS: '30s' })).toThrow(/DOCENT_AGENT_LEASE_MS: must be an integer/)
    expect(() => configFromEnv({ DOCENT_AGENT_POLL_MS: '1' })).toThrow(/agentWorker\.pollMs: must be at least 10/)
    expect(configFromEnv({ DOCENT_AGENT_LEASE_MS: '4000', DOCENT_AGENT_POLL_MS: '200' }).agentWorker).toEqual({
      leaseMs: 4000,
      pollMs: 200,
    })
    expect(configFromEnv({}).automationsWorker).toEqual({ tickMs: 15_000, prCheckMs: 1_800_000 })
    expect(configFromEnv({ DOCENT_AUTOMATIONS_TICK_MS: '100', DOCENT_AUTOMATIONS_PR_CHECK_MS: '60000' }).automationsWorker).toEqual({
      tickMs: 100,
      prCheckMs: 60_000,
    })
    expect(() => configFromEnv({ DOCENT_AUTOMATIONS_TICK_MS: 'often' })).toThrow(/DOCENT_AUTOMATIONS_TICK_MS: must be an integer/)
    expect(() => configFromEnv({ DOCENT_STORE: 'mongo' })).toThrow(ConfigError)
    expect(() => configFromEnv({ DOCENT_STORE: 'mongo' })).toThrow(expect.objectContaining({ code: 'invalid_config' }))
    expect(configFromEnv({ DOCENT_GAP_POLL_MS: '250' }).gapPollMs).toBe(250)
    expect(configFromEnv({}).gapPollMs).toBe(5_000)
    expect(() => configFromEnv({ DOCENT_GAP_POLL_MS: 'soon' })).toThrow(/DOCENT_GAP_POLL_MS: must be an integer/)
    expect(() => configFromEnv({ DOCENT_STORE: 'mongo' })).toThrow(/store\.kind/)
    expect(() => parseConfig({ projects: [{ id: 'bad id!', organization: 'o', domain: 'd', docs: { directory: 'x' } }] })).toThrow(
      /projects\.0\.id/,
    )
    // Lengths are checked apart from the patterns; both bounds hold.
    const project = (id: string, domain: string) => ({ projects: [{ id, organization: 'o', domain, docs: { directory: 'x' } }] })
    expect(parseConfig(project('a'.repeat(64), 'd'.repeat(253))).projects[0]).toMatchObject({ id: 'a'.repeat(64) })
    expect(() => parseConfig(project('a'.repeat(65), 'd'))).toThrow(/projects\.0\.id: must be 1-64 letters/)
    expect(() => parseConfig(project('', 'd'))).toThrow(/projects\.0\.id: must be 1-64 letters/)
    expect(() => parseConfig(project('a', 'd'.repeat(254)))).toThrow(/projects\.0\.domain: must be a host name/)
    expect(() => parseConfig(project('a', ''))).toThrow(/projects\.0\.domain: must be a host name/)
    expect(() => parseConfig(project('a', 'docs.acme.com/x'))).toThrow(/projects\.0\.domain: must be a host name/)
    expect(() => parseConfig({ projects: [] })).toThrow(/projects: must have at least 1 item$/)
    const twice = { id: 'a', organization: 'o', domain: 'd', docs: { directory: 'x' } }
    expect(() => parseConfig({ projects: [twice, { ...twice, id: 'b' }] })).toThrow(/duplicate domain/)
    expect(() => configFromEnv({}, [1, 2])).toThrow(/must hold a JSON object/)
  })

  test('a config file lists projects; secrets are env references', () => {
    const config = configFromEnv(
      {},
      {
        projects: [
          {
            id: 'docs',
            organization: 'acme',
            domain: 'docs.acme.com',
            docs: { repository: 'https://git.acme.com/docs.git', token: { env: 'DOCS_TOKEN' } },
            agent: {
              repository: 'https://git.acme.com/docs.git',
              host: { kind: 'github', repo: 'acme/docs', token: { env: 'GITHUB_TOKEN' } },
            },
          },
        ],
      },
    )
    expect(config.seedDemoKeys).toBe(false)
    expect(config.projects[0]!.docs).toMatchObject({ ref: 'main', refreshSeconds: 300, token: { env: 'DOCS_TOKEN' } })
    expect(config.projects[0]!.agent!.host).toEqual({
      kind: 'github',
      apiBase: 'https://api.github.com',
      repo: 'acme/docs',
      token: { env: 'GITHUB_TOKEN' },
    })
  })

  test('one project from the environment alone: docs and agent repositories, host guessed from the URL, tokens by name', () => {
    const [project] = configFromEnv({
      DOCENT_PROJECT_ID: 'docs',
      DOCENT_ORGANIZATION: 'acme',
      DOCENT_DOMAIN: 'docs.acme.com',
      DOCENT_SITE_URL: 'https://docs.acme.com',
      DOCENT_ALLOWED_ORIGINS: 'https://docs.acme.com, https://acme.com',
      DOCENT_DOCS_REPOSITORY: 'https://github.com/acme/docs.git',
      DOCENT_GIT_TOKEN: 'ghp_secret',
    }).projects
    expect(project).toMatchObject({
      id: 'docs',
      organization: 'acme',
      domain: 'docs.acme.com',
      siteUrl: 'https://docs.acme.com',
      allowedOrigins: ['https://docs.acme.com', 'https://acme.com'],
      mcp: { public: false },
      docs: { repository: 'https://github.com/acme/docs.git', ref: 'main', token: { env: 'DOCENT_GIT_TOKEN' } },
      agent: {
        repository: 'https://github.com/acme/docs.git',
        token: { env: 'DOCENT_GIT_TOKEN' },
        host: { kind: 'github', repo: 'acme/docs', apiBase: 'https://api.github.com', token: { env: 'DOCENT_GIT_TOKEN' } },
      },
    })
    // The token's value never lands in the config.
    expect(JSON.stringify(project)).not.toContain('ghp_secret')
    const gitlab = configFromEnv({
      DOCENT_DOCS_DIR: '/srv/docs',
      DOCENT_AGENT_REPOSITORY: 'https://gitlab.com/acme/group/docs.git',
      DOCENT_GIT_TOKEN: 'x',
      DOCENT_HOST_TOKEN: 'y',
    }).projects[0]!
    expect(gitlab.agent?.host).toMatchObject({ kind: 'gitlab', project: 'acme/group/docs', token: { env: 'DOCENT_HOST_TOKEN' } })
    expect(() => configFromEnv({ DOCENT_AGENT_REPOSITORY: 'https://git.example/docs.git', DOCENT_GIT_TOKEN: 'x' })).toThrow(
      /DOCENT_AGENT_HOST: set github or gitlab/,
    )
    expect(() => configFromEnv({ DOCENT_AGENT_REPOSITORY: 'https://github.com/acme/docs.git' })).toThrow(
      /DOCENT_GIT_TOKEN: the github host needs a token/,
    )
  })
})
