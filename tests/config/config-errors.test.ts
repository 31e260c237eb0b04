// The config's edges as an operator meets them: values a timer cannot wait, misspelled fields, on/off variables, a
// config file that cannot be read, and error messages that say what to change.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { DocentConfig, MAX_TIMER_MS, parseConfig } from '../../server/config.ts'
import { createDocent } from '../../server/mod.ts'
import { configFromEnv, parseConfigText, readConfigText } from '../../server/config-from-env.ts'

const project = { id: 'docs', organization: 'acme', domain: 'docs.acme.com', docs: { directory: 'docs' } }
const withProject = (config: Record<string, unknown>) => ({ projects: [project], ...config })
const readText = (path: string) => readFile(path, 'utf8')

describe('durations fit a timer', () => {
  test('every millisecond and seconds field of the schema is bounded by the longest timer', () => {
    // Found by name, so a duration field added later without a bound fails here.
    const durations: Array<[path: string, schema: unknown]> = []
    type Def = { type: string; innerType?: unknown; in?: unknown; element?: unknown; options?: unknown[]; shape?: object }
    const walk = (schema: unknown, path: string): void => {
      const def = (schema as { _zod?: { def?: Def } })._zod?.def
      if (!def) return
      if (['optional', 'default', 'prefault', 'nullable'].includes(def.type)) return walk(def.innerType, path)
      if (def.type === 'pipe') return walk(def.in, path)
      if (def.type === 'array') return walk(def.element, `${path}.0`)
      if (def.type === 'union') return def.options!.forEach((option, i) => walk(option, `${path}|${i}`))
      if (def.type === 'object') {
        for (const [key, value] of Object.entries(def.shape!)) walk(value, path ? `${path}.${key}` : key)
        return
      }
      if (/(Ms|Seconds)$/.test(path)) durations.push([path, schema])
    }
    walk(DocentConfig, '')
    expect(durations.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        'projects.0.docs|1.refreshSeconds',
        'limits.agentRunSeconds',
        'limits.headersSeconds',
        'limits.bodySeconds',
        'analytics.prPollSeconds',
        'agentWorker.leaseMs',
        'agentWorker.pollMs',
        'gapPollMs',
        'automationsWorker.tickMs',
        'automationsWorker.prCheckMs',
      ]),
    )
    for (const [path, schema] of durations) {
      const limit = path.endsWith('Seconds') ? Math.floor(MAX_TIMER_MS / 1000) : MAX_TIMER_MS
      expect((schema as { maxValue: number | null }).maxValue, path).toBe(limit)
    }
  })

  test.each([
    ['DOCENT_AGENT_POLL_MS', /agentWorker\.pollMs: must be at most 2147483647 .*\(set by DOCENT_AGENT_POLL_MS\)/],
    ['DOCENT_AGENT_LEASE_MS', /agentWorker\.leaseMs: must be at most 2147483647/],
    ['DOCENT_GAP_POLL_MS', /gapPollMs: must be at most 2147483647 .*\(set by DOCENT_GAP_POLL_MS\)/],
    ['DOCENT_AUTOMATIONS_TICK_MS', /automationsWorker\.tickMs: must be at most 2147483647/],
    ['DOCENT_AUTOMATIONS_PR_CHECK_MS', /automationsWorker\.prCheckMs: must be at most 2147483647/],
  ])('%s=3000000000 is refused (a timer would fire after 1 ms)', (name, message) => {
    expect(() => configFromEnv({ [name]: '3000000000' })).toThrow(message)
    expect(() => configFromEnv({ [name]: String(MAX_TIMER_MS) })).not.toThrow()
  })

  test('seconds in the config file: run, request and poll limits', () => {
    expect(() => configFromEnv({}, withProject({ limits: { agentRunSeconds: 99_999_999_999 } }))).toThrow(
      /limits\.agentRunSeconds: must be at most 2147483 /,
    )
    expect(() => configFromEnv({}, withProject({ limits: { bodySeconds: 99_999_999 } }))).toThrow(
      /limits\.bodySeconds: must be at most 2147483 /,
    )
    expect(() => configFromEnv({}, withProject({ limits: { headersSeconds: 2_147_000, bodySeconds: 2_000 } }))).toThrow(
      /limits\.bodySeconds: headersSeconds and bodySeconds together must be at most 2147483/,
    )
    expect(() => configFromEnv({}, withProject({ analytics: { prPollSeconds: 3_000_000 } }))).toThrow(
      /analytics\.prPollSeconds: must be at most/,
    )
    const repository = { ...project, docs: { repository: 'local:docs', refreshSeconds: 3_000_000 } }
    expect(() => parseConfig({ projects: [repository] })).toThrow(/projects\.0\.docs\.refreshSeconds: must be at most 2147483 /)
    expect(configFromEnv({}, withProject({ limits: { agentRunSeconds: 2_147_483 } })).limits.agentRunSeconds).toBe(2_147_483)
  })
})

describe('unknown fields are errors', () => {
  test('a misspelled field is named, at any depth', () => {
    expect(() => configFromEnv({}, withProject({ limits: { organizationPerHuor: 5 } }))).toThrow(
      /limits: unknown field\(s\) organizationPerHuor/,
    )
    expect(() => configFromEnv({}, withProject({ prot: 80 }))).toThrow(/unknown field\(s\) prot/)
    expect(() => parseConfig({ projects: [{ ...project, agent: { repository: 'local:x', writeablePaths: ['*.md'] } }] })).toThrow(
      /projects\.0\.agent: unknown field\(s\) writeablePaths/,
    )
    // A docs source matches neither branch of its union: the nearer one says what is wrong, not "Invalid input".
    expect(() => parseConfig({ projects: [{ ...project, docs: { directory: 'docs', refreshSecond: 5 } }] })).toThrow(
      /projects\.0\.docs: unknown field\(s\) refreshSecond/,
    )
    expect(() => parseConfig({ projects: [{ ...project, docs: { repository: 'local:x', tokn: { env: 'T' } } }] })).toThrow(
      /projects\.0\.docs: unknown field\(s\) tokn/,
    )
  })

  test('the README example, the demo and a parsed config (createDocent parses again) still validate', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8')
    const examples = [...readme.matchAll(/^```json\n(\{[\s\S]*?)^```/gm)].map((match) => JSON.parse(match[1]!))
    const configs = examples.filter((example) => 'projects' in example)
    expect(configs.length).toBeGreaterThan(0)
    for (const config of configs) expect(() => configFromEnv({}, config)).not.toThrow()
    const automations = readme.match(/^```json\n("automations": \{[\s\S]*?)^```/m)![1]!
    expect(() => parseConfig({ projects: [{ ...project, ...JSON.parse(`{${automations}}`) }] })).not.toThrow()
    const demo = configFromEnv({})
    expect(parseConfig(demo)).toEqual(demo)
  })
})

describe('secrets are named, never written', () => {
  test('a literal token where an env reference is needed says what to write', () => {
    const message = /must be \{ "env": "VARIABLE" \}, naming the environment variable that holds the secret/
    expect(() => parseConfig({ projects: [{ ...project, docs: { repository: 'https://github.com/a/b.git', token: 'ghp_x' } }] })).toThrow(
      new RegExp(`projects\\.0\\.docs\\.token: ${message.source}`),
    )
    expect(() => configFromEnv({}, withProject({ webhooks: { github: { secret: 'hunter2' } } }))).toThrow(
      new RegExp(`webhooks\\.github\\.secret: ${message.source}`),
    )
  })
})

describe('on/off variables', () => {
  test.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['yes', true],
    ['Yes', true],
    ['false', false],
    ['FALSE', false],
    ['0', false],
    ['no', false],
  ])('%s is %s', (value, on) => {
    expect(configFromEnv({ DOCENT_TRUST_PROXY: value }).trustProxy).toBe(on)
    expect(configFromEnv({ DOCENT_WORKER: value }).worker).toBe(on)
    expect(configFromEnv({ DOCENT_ACCESS_LOG: value }).accessLog).toBe(on)
    expect(configFromEnv({ DOCENT_DOCS_PUBLIC: value }).projects[0]!.docs.public).toBe(on)
  })

  test('anything else is an error naming the variable; unset or empty keeps the default', () => {
    expect(() => configFromEnv({ DOCENT_TRUST_PROXY: 'on' })).toThrow(/DOCENT_TRUST_PROXY: must be true or false/)
    expect(() => configFromEnv({ DOCENT_WORKER: 'nope' })).toThrow(/DOCENT_WORKER: must be true or false/)
    expect(() => configFromEnv({ DOCENT_DOCS_PUBLIC: 'public' })).toThrow(/DOCENT_DOCS_PUBLIC: must be true or false/)
    expect(configFromEnv({ DOCENT_WORKER: '' }).worker).toBe(true)
    expect(configFromEnv({ DOCENT_TRUST_PROXY: '' }).trustProxy).toBe(false)
    expect(configFromEnv({}).accessLog).toBe(false)
    expect(() => configFromEnv({ DOCENT_ACCESS_LOG: 'verbose' })).toThrow(/DOCENT_ACCESS_LOG: must be true or false/)
  })
})

describe('messages say what to change', () => {
  test('a limit of 0 must be at least 1', () => {
    expect(() => configFromEnv({}, withProject({ limits: { organizationPerHour: 0 } }))).toThrow(
      /limits\.organizationPerHour: must be at least 1/,
    )
    expect(() => configFromEnv({}, withProject({ limits: { bodyBytes: 0 } }))).toThrow(/limits\.bodyBytes: must be at least 1/)
    expect(() => configFromEnv({}, withProject({ limits: { bodySeconds: 0 } }))).toThrow(/limits\.bodySeconds: must be more than 0/)
  })

  test('a seeded key too short says so, and names the variable', () => {
    expect(() => configFromEnv({ DOCENT_ADMIN_KEY: 'svc_a' })).toThrow(
      /adminKey: must be svc_ then 8 to 200 letters, digits or _ \(this one has 1 after svc_\) \(set by DOCENT_ADMIN_KEY\)/,
    )
    expect(() => configFromEnv({ DOCENT_ADMIN_KEY: 'key_abcdefghijkl' })).toThrow(
      /adminKey: must start with svc_ \(set by DOCENT_ADMIN_KEY\)/,
    )
    expect(() => configFromEnv({ DOCENT_ADMIN_KEY: 'svc_dsc_abcdefghijkl' })).toThrow(/adminKey: must not start with svc_dsc_/)
    expect(() => configFromEnv({ DOCENT_ASSISTANT_KEY: 'svc_abcdefghijkl' })).toThrow(
      /assistantKey: must start with svc_dsc_ \(set by DOCENT_ASSISTANT_KEY\)/,
    )
    expect(() => configFromEnv({}, withProject({ adminKey: 'svc_short' }))).toThrow(/adminKey: must be svc_ then 8 to 200/)
    // An assistant key counts after its own prefix.
    expect(() => configFromEnv({ DOCENT_ASSISTANT_KEY: 'svc_dsc_abc' })).toThrow(
      /assistantKey: must be svc_dsc_ then 8 to 200 letters, digits or _ \(this one has 3 after svc_dsc_\)/,
    )
    expect(configFromEnv({ DOCENT_ADMIN_KEY: 'svc_abcdefgh' }).adminKey).toBe('svc_abcdefgh')
  })
})

describe('the config file', () => {
  test('a file DOCENT_CONFIG names must be readable: missing, a directory, unreadable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docent-config-'))
    const missing = join(dir, 'nope.json')
    await expect(readConfigText({ DOCENT_CONFIG: missing }, readText)).rejects.toThrow(
      `invalid config: DOCENT_CONFIG: cannot read the config file ${missing}: no such file`,
    )
    await expect(readConfigText({ DOCENT_CONFIG: dir }, readText)).rejects.toThrow(`the config file ${dir}: it is a directory`)
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })
    await expect(readConfigText({ DOCENT_CONFIG: '/etc/docent.json' }, () => Promise.reject(denied))).rejects.toThrow(
      /DOCENT_CONFIG: cannot read the config file \/etc\/docent\.json: permission denied/,
    )
    // Deno names the failure by the error's class.
    const deno = Object.assign(new Error('No such file'), { name: 'NotFound' })
    await expect(readConfigText({ DOCENT_CONFIG: 'x.json' }, () => Promise.reject(deno))).rejects.toThrow(/x\.json: no such file/)
  })

  test('docent.config.json may be absent (the demo); present, it is read', async () => {
    const notFound = Object.assign(new Error('ENOENT'), { code: 'ENOENT' })
    await expect(readConfigText({}, () => Promise.reject(notFound))).resolves.toBeUndefined()
    await expect(readConfigText({ DOCENT_CONFIG: '' }, () => Promise.reject(notFound))).resolves.toBeUndefined()
    const paths: string[] = []
    await expect(readConfigText({}, async (path) => (paths.push(path), '{}'))).resolves.toBe('{}')
    expect(paths).toEqual(['docent.config.json'])
    const isDirectory = Object.assign(new Error('EISDIR'), { code: 'EISDIR' })
    await expect(readConfigText({}, () => Promise.reject(isDirectory))).rejects.toThrow(/docent\.config\.json: it is a directory/)
  })

  test('a byte order mark is dropped; bad JSON names the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docent-config-'))
    const path = join(dir, 'docent.json')
    await writeFile(path, `\uFEFF${JSON.stringify(withProject({}))}`)
    const text = await readConfigText({ DOCENT_CONFIG: path }, readText)
    expect(configFromEnv({}, parseConfigText(text!, path)).projects[0]!.id).toBe('docs')
    expect(() => parseConfigText('{ "port": 80, }', path)).toThrow(`invalid config: the config file ${path} is not valid JSON`)
  })
})

describe('where the server listens', () => {
  test('HOST is an IP address or a host name; a port in it, or no address at all, is named before the bind', () => {
    for (const [HOST, host] of [
      ['0.0.0.0', '0.0.0.0'],
      ['::', '::'],
      ['[::1]', '::1'],
      ['docs-server.internal', 'docs-server.internal'],
    ]) {
      expect(configFromEnv({ HOST }).host).toBe(host)
    }
    for (const HOST of ['127.0.0.1:80', '999.1.1.1', '1.2.3', 'a b', 'http://localhost', '[::1]:80']) {
      expect(() => configFromEnv({ HOST }), HOST).toThrow(
        'host: must be an IP address or a host name, without a port (the port is PORT) (set by HOST)',
      )
    }
  })

  test('PORT is written in decimal: hex and exponents are not ports; empty is unset', () => {
    expect(configFromEnv({ PORT: '8080' }).port).toBe(8080)
    expect(configFromEnv({ PORT: '0' }).port).toBe(0)
    expect(configFromEnv({ PORT: '' }).port).toBe(8787)
    for (const PORT of ['0x22c3', '1e3', '-1', '80.5', 'abc']) {
      expect(() => configFromEnv({ PORT }), PORT).toThrow('PORT: must be a whole number from 0 to 65535, in decimal digits')
    }
    expect(() => configFromEnv({ PORT: '70000' })).toThrow('port: must be at most 65535 (set by PORT)')
    expect(() => configFromEnv({}, withProject({ port: '8966' }))).toThrow('port: must be a number')
  })
})

describe('URLs are web URLs without credentials', () => {
  test('publicUrl, siteUrl, the model server and a git host API: http(s) only, no user or password', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ publicUrl: 'javascript:alert(1)' }, 'publicUrl: must be an http:// or https:// URL'],
      [{ publicUrl: 'ftp://docs.acme.com' }, 'publicUrl: must be an http:// or https:// URL'],
      [{ publicUrl: 'https://user:secret@docent.acme.com' }, 'publicUrl: must not hold a user or password'],
      [{ projects: [{ ...project, siteUrl: 'javascript:alert(1)' }] }, 'projects.0.siteUrl: must be an http:// or https:// URL'],
      [{ model: { provider: 'openai', baseURL: 'ftp://models.internal/v1' } }, 'model.baseURL: must be an http:// or https:// URL'],
      [
        {
          projects: [
            {
              ...project,
              agent: {
                repository: 'https://github.com/acme/docs',
                host: { kind: 'github', apiBase: 'api.github.com', repo: 'acme/docs', token: { env: 'T' } },
              },
            },
          ],
        },
        'projects.0.agent.host.apiBase: must be an http:// or https:// URL',
      ],
      [
        { projects: [{ ...project, docs: { repository: 'https://x-access-token:ghp_abc@github.com/acme/docs' } }] },
        'projects.0.docs.repository: must not hold a user or password: name the token with "token": { "env": "VARIABLE" }',
      ],
    ]
    for (const [config, message] of cases) {
      expect(() => parseConfig(withProject(config)), message).toThrow(message)
    }
    // Every message names the field and never echoes the password.
    expect(() => parseConfig(withProject({ publicUrl: 'https://user:secret@docent.acme.com' }))).not.toThrow(/secret@/)
    const ok = parseConfig(
      withProject({ publicUrl: 'https://docent.acme.com/', model: { provider: 'openai', baseURL: 'http://127.0.0.1:11434/v1' } }),
    )
    expect(ok.publicUrl).toBe('https://docent.acme.com/')
    expect(parseConfig(withProject({ projects: [{ ...project, docs: { repository: 'local:docs' } }] })).projects[0]!.docs).toMatchObject({
      repository: 'local:docs',
    })
  })

  test('a notification URL read from its variable is checked at start, and the error names the variable, not the URL', async () => {
    const notifying = (kind: string) =>
      withProject({
        projects: [{ ...project, automations: { notifications: [{ kind, url: { env: 'NOTIFY_URL' } }] } }],
        store: { kind: 'memory' },
      })
    for (const [value, problem] of [
      ['hooks.slack.com/services/T0/B0/secretpart', 'must be an http:// or https:// URL'],
      ['https://hook:secretpart@notify.acme.com/in', 'must not hold a user or password'],
    ]) {
      const started = createDocent(notifying('slack'), { env: { NOTIFY_URL: value } })
      await expect(started).rejects.toThrow(`projects.0.automations.notifications.0.url: the value of NOTIFY_URL ${problem}`)
      await expect(createDocent(notifying('webhook'), { env: { NOTIFY_URL: value } })).rejects.not.toThrow(/secretpart/)
    }
    const docent = await createDocent(notifying('slack'), { env: { NOTIFY_URL: 'https://hooks.slack.com/services/T0/B0/x' } })
    await docent.stop()
    // Unset, the notice is skipped and logged at the time (automations/notify.ts): not a start-up error.
    await (await createDocent(notifying('slack'), { env: {} })).stop()
  })
})
