import { describe, expect, test } from 'vitest'
import { ConfigError, DEFAULT_WRITABLE_PATHS, parseConfig } from '../../server/config.ts'

const project = (overrides: Record<string, unknown>) => ({
  id: 'docs',
  organization: 'acme',
  domain: 'docs.acme.test',
  docs: { directory: 'demo/docs' },
  ...overrides,
})
const config = (...projects: unknown[]) => parseConfig({ store: { kind: 'memory' }, projects })

describe('agent settings in the config', () => {
  test('writablePaths: documentation files by default, or the globs given', () => {
    expect(config(project({ agent: { repository: 'local:docs' } })).projects[0]!.agent!.writablePaths).toEqual([...DEFAULT_WRITABLE_PATHS])
    expect(
      config(project({ agent: { repository: 'local:docs', writablePaths: ['docs/**/*.mdx'] } })).projects[0]!.agent!.writablePaths,
    ).toEqual(['docs/**/*.mdx'])
    for (const writablePaths of [[], ['/etc/*'], ['../x/*.md'], ['']]) {
      expect(() => config(project({ agent: { repository: 'local:docs', writablePaths } }))).toThrow(/projects\.0\.agent\.writablePaths/)
    }
  })

  test('a token is never sent over plain http: the field is named (localhost is allowed, for tests)', () => {
    const token = { env: 'TOKEN' }
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ docs: { repository: 'http://git.acme.test/docs.git', token } }, 'projects.0.docs.repository'],
      [{ agent: { repository: 'http://git.acme.test/docs.git', token } }, 'projects.0.agent.repository'],
      [
        {
          agent: {
            repository: 'https://git.acme.test/docs.git',
            token,
            host: { kind: 'github', apiBase: 'http://git.acme.test/api/v3', repo: 'a/b', token },
          },
        },
        'projects.0.agent.host.apiBase',
      ],
      [{ agent: { repository: 'HTTP://git.acme.test/docs.git', token } }, 'projects.0.agent.repository'],
      // fetch reads these as plain http to git.acme.test: it drops leading controls and spaces, and tabs anywhere.
      [{ agent: { repository: '\u0001http://git.acme.test/docs.git', token } }, 'projects.0.agent.repository'],
      [{ agent: { repository: ' http://git.acme.test/docs.git', token } }, 'projects.0.agent.repository'],
      [{ docs: { repository: 'ht\ttp://git.acme.test/docs.git', token } }, 'projects.0.docs.repository'],
      [
        {
          agent: {
            repository: 'https://git.acme.test/docs.git',
            token,
            host: { kind: 'gitlab', apiBase: '\u0001http://git.acme.test/api/v4', project: 'a/b', token },
          },
        },
        'projects.0.agent.host.apiBase',
      ],
      [{ agent: { repository: 'http://localhost.evil.test/docs.git', token } }, 'projects.0.agent.repository'],
    ]
    for (const [settings, field] of cases) {
      const error = (() => {
        try {
          config(project(settings))
        } catch (e) {
          return e
        }
      })()
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toBe(
        `invalid config: ${field}: an http:// URL would send the token in clear text; use https:// (plain http is allowed only for localhost)`,
      )
    }
    // No token, https, or this machine: accepted.
    for (const settings of [
      { agent: { repository: 'http://git.acme.test/docs.git' } },
      { agent: { repository: 'https://git.acme.test/docs.git', token } },
      { agent: { repository: 'http://127.0.0.1:9418/docs.git', token } },
      { agent: { repository: 'http://localhost:8080/docs.git', token } },
      { docs: { repository: 'http://[::1]:8080/docs.git', token } },
    ])
      expect(() => config(project(settings))).not.toThrow()
  })
})
