import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consoleLogger } from '../../server/log.ts'
import { createDocent } from '../../server/mod.ts'
import { startApiServer } from './support/api-server.ts'

const GH_TOKEN = 'ghp_fromTheEnvironment42'
let api: Awaited<ReturnType<typeof startApiServer>>
beforeAll(async () => {
  api = await startApiServer((request) => {
    if (request.method === 'GET') return { status: 200, body: [] }
    return { status: 201, body: { number: 7, html_url: 'https://ghe.example/acme/docs/pull/7', state: 'open' } }
  })
})
afterAll(() => api.close())

async function docentWith(host: unknown, env: Record<string, string>) {
  return createDocent(
    {
      store: { kind: 'memory' },
      worker: false,
      projects: [
        {
          id: 'p',
          organization: 'o',
          domain: 'p.example',
          docs: { directory: 'demo/docs' },
          agent: { repository: 'https://git.example/acme/docs.git', ref: 'main', token: { env: 'GIT_TOKEN' }, host },
        },
      ],
    } as never,
    { log: consoleLogger('silent'), env },
  )
}

describe('git hosts from the config', () => {
  it('the github host takes its base URL from the config and its token from the environment', async () => {
    const docent = await docentWith(
      { kind: 'github', apiBase: `${api.url}/api/v3`, repo: 'acme/docs', token: { env: 'GH_TOKEN' } },
      {
        GH_TOKEN,
        GIT_TOKEN: 'git-token-1',
      },
    )
    const project = docent.context.config.projects[0]!
    const host = docent.context.agentGit.host(project)
    expect(host.kind).toBe('github')
    const pr = await host.openOrUpdatePullRequest({
      jobId: 'j',
      branch: 'docent/x-j',
      base: 'main',
      title: 't',
      body: 'b',
      addition: null,
      existing: null,
    })
    expect(pr).toEqual({ number: '7', url: 'https://ghe.example/acme/docs/pull/7' })
    expect(
      api.requests.every((r) => r.headers.authorization === `Bearer ${GH_TOKEN}` && r.path.startsWith('/api/v3/repos/acme/docs/pulls')),
    ).toBe(true)
    expect(docent.context.agentGit.repository(project)).toEqual({
      repository: 'https://git.example/acme/docs.git',
      ref: 'main',
      token: 'git-token-1',
    })
    await docent.stop()
  })

  it('a missing token names the variable, and a local host needs a local: repository', async () => {
    const docent = await docentWith({ kind: 'gitlab', project: 'acme/docs', token: { env: 'GL_TOKEN' } }, {})
    expect(() => docent.context.agentGit.host(docent.context.config.projects[0]!)).toThrow(/GL_TOKEN.*not set/)
    await docent.stop()
    const local = await docentWith({ kind: 'local' }, {})
    expect(() => local.context.agentGit.host(local.context.config.projects[0]!)).toThrow(/local:<name>/)
    await local.stop()
  })
})
