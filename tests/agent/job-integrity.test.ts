import { execFile } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { testDocent } from '../support/app.ts'
import { createRepo, git } from '../support/git-server.ts'
import type { ChatRequest } from '../support/scripted-openai.ts'
import { type AgentServers, agentApi, startAgentServers, toolCalls } from './support/agent-api.ts'

// What a job stores and what its runs write, end to end: a real git server, the GitHub pulls API, and a scripted model
// through @ai-sdk/openai. Each test queues the model's replies, creates a job and reads back the job, its events and the
// pushed branch (with the git CLI).

const SECRETS = {
  OPENAI_API_KEY: 'sk-test-integrity-openai-key',
  GITHUB_TOKEN: 'ghp_integrityGithubToken0123',
  GIT_TOKEN: 'git-integrity-http-password',
  // Another project's: a model gateway both projects share may echo it into this project's job.
  OTHER_HOST_TOKEN: 'glpat-otherProjectHostToken',
}
const ADMIN_KEY = 'svc_IntegrityConfigAdminKey000000001'

/** A PNG's first bytes (not UTF-8: 0x89), with "Lumen" in a text chunk, as the probe's logo had. */
const PNG = Uint8Array.from([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0x00,
  0x00,
  0x00,
  0x0d,
  0x74,
  0x45,
  0x58,
  0x74,
  ...Buffer.from('Lumen'),
  0xff,
  0xfe,
  0x00,
])

let servers: AgentServers
beforeAll(async () => {
  servers = await startAgentServers(SECRETS)
})
afterAll(() => servers?.close())

const run = promisify(execFile)

async function setup(name: string) {
  const repo = await createRepo(servers.gitServer, name, {
    files: {
      'docs.json': '{ "navigation": [] }\n',
      'index.mdx': '---\ntitle: Home\n---\n\nWelcome to Lumen.\n',
      'guides/webhooks.mdx': '---\ntitle: Webhooks\n---\n\nSend events.\n',
      'bom.mdx': '\uFEFF---\ntitle: BOM\n---\n\nSaved by an editor that writes a byte order mark.\n',
    },
  })
  // Binary files and a symbolic link, as a docs repository holds them.
  await mkdir(join(repo.work, 'images'))
  await writeFile(join(repo.work, 'images', 'logo.png'), PNG)
  await writeFile(join(repo.work, 'images', 'old.png'), PNG)
  await symlink('index.mdx', join(repo.work, 'home.mdx'))
  await git(repo.work, 'add', '-A')
  await git(repo.work, 'commit', '-q', '-m', 'images and a link')
  await git(repo.work, 'push', '-q', 'origin', 'main')

  const t = await testDocent(
    {
      worker: true,
      adminKey: ADMIN_KEY,
      model: { provider: 'openai', id: 'gpt-test', baseURL: servers.openai.baseURL, apiKey: { env: 'OPENAI_API_KEY' } },
      projects: [
        {
          id: 'demo',
          organization: 'demo',
          domain: 'demo',
          docs: { directory: servers.assistantDocs },
          agent: {
            repository: repo.url,
            ref: 'main',
            token: { env: 'GIT_TOKEN' },
            host: { kind: 'github', apiBase: servers.github.url, repo: 'acme/docs', token: { env: 'GITHUB_TOKEN' } },
          },
        },
        {
          id: 'other',
          organization: 'acme',
          domain: 'acme.example',
          docs: { directory: servers.assistantDocs },
          agent: {
            repository: 'https://gitlab.example/acme/docs.git',
            host: { kind: 'gitlab', apiBase: 'https://gitlab.example/api/v4', project: 'acme/docs', token: { env: 'OTHER_HOST_TOKEN' } },
          },
        },
      ],
    },
    { env: SECRETS },
  )
  await t.docent.start()
  return { ...t, repo, ...agentApi(t.app, t.keys.admin) }
}

/** What the model was told of each of its tool calls: the tool's error, or its result as JSON. */
function toolResultsOf(request: ChatRequest): string[] {
  return request.messages
    .filter((message) => message.role === 'tool')
    .map((message) => {
      const result = JSON.parse(String(message.content)) as { error?: string }
      return typeof result.error === 'string' ? result.error : JSON.stringify(result)
    })
}

/** Queues one reply of tool calls, then a finish; what the model was told of those calls is `told()` once it ran. */
function scriptRun(calls: Array<[string, Record<string, unknown>]>, summary: string): () => string[] {
  let told: string[] = []
  servers.replies.push(toolCalls(...calls), (request) => {
    told = toolResultsOf(request)
    return toolCalls(['finish', { summary }])
  })
  return () => told
}

describe('a job stores no secret', () => {
  test("a model error echoing every kind of secret reaches the job's error, events and runs scrubbed", async () => {
    const t = await setup('integrity-secrets')
    const echoed = [
      `git token ${SECRETS.GIT_TOKEN}`,
      `host ${SECRETS.GITHUB_TOKEN} and another project's ${SECRETS.OTHER_HOST_TOKEN}`,
      `model ${SECRETS.OPENAI_API_KEY}`,
      `admin ${ADMIN_KEY} and a key no config names svc_A2jQunnamedAdminKey9`,
      'header Bearer abcdefghijklmnop',
      'clone http://user:pass@git.example/x',
    ].join('; ')
    // 400: not retried, so one reply is the whole run.
    servers.replies.push({ status: 400, error: echoed })
    const created = await t.create('Rename Lumen')
    const done = await t.settled(created.id)
    expect(done.status).toBe('failed')
    expect(done.error).toContain('Bearer ***')
    const stored = JSON.stringify([done, await t.events(created.id), await t.store.listRuns(created.id)])
    for (const secret of [...Object.values(SECRETS), ADMIN_KEY, 'svc_A2jQunnamedAdminKey9', 'abcdefghijklmnop', 'user:pass']) {
      expect(stored).not.toContain(secret)
    }
    await t.docent.stop()
  })
})

describe('text tools and binary files', () => {
  test('reading, editing or replacing a binary file is refused with a clear tool error; deleting it works; no byte changes', async () => {
    const t = await setup('integrity-binary')
    const told = scriptRun(
      [
        ['read_file', { path: 'images/logo.png' }],
        ['edit_file', { path: 'images/logo.png', old_text: 'Lumen', new_text: 'Lumin' }],
        ['write_file', { path: 'images/logo.png', content: 'PNG' }],
        ['delete_file', { path: 'images/old.png' }],
        ['edit_file', { path: 'bom.mdx', old_text: 'Saved by', new_text: 'Written by' }],
      ],
      'Drop the old logo',
    )
    const created = await t.create('Rename Lumen in the logo')
    const done = await t.settled(created.id)
    expect(done.status).toBe('completed')
    expect(told().slice(0, 3)).toEqual([
      expect.stringContaining('"images/logo.png" is not UTF-8 text'),
      expect.stringContaining('"images/logo.png" is not UTF-8 text'),
      expect.stringContaining('"images/logo.png" is not UTF-8 text'),
    ])
    expect(told().join('\n')).not.toContain('\uFFFD')

    const branch = servers.github.pulls.at(-1)!.head
    expect((await git(t.repo.bare, 'diff', '--name-status', `main..${branch}`)).trim().split('\n').sort()).toEqual([
      'D\timages/old.png',
      'M\tbom.mdx',
    ])
    const logo = await run('git', ['-C', t.repo.bare, 'show', `${branch}:images/logo.png`], { encoding: 'buffer' })
    expect(Uint8Array.from(logo.stdout)).toEqual(PNG)
    // The byte order mark stays where the editor put it.
    expect(await git(t.repo.bare, 'show', `${branch}:bom.mdx`)).toMatch(/^\uFEFF---\ntitle: BOM[\s\S]*Written by an editor/)
    await t.docent.stop()
  })
})

describe('names a checkout could not hold', () => {
  test('too long, or an alias by case or Unicode normalization of a name in the tree or written this run: refused', async () => {
    const t = await setup('integrity-names')
    const nfc = 'guides/\u00e9v\u00e9nements.mdx'
    const told = scriptRun(
      [
        ['write_file', { path: `${'a'.repeat(300)}.mdx`, content: '# Long\n' }],
        ['write_file', { path: `${'deep/'.repeat(45)}page.mdx`, content: '# Deep\n' }],
        ['write_file', { path: 'Index.mdx', content: '# Home\n' }],
        ['write_file', { path: 'Guides/new.mdx', content: '# New\n' }],
        ['write_file', { path: 'guides/WEBHOOKS.mdx', content: '# Webhooks\n' }],
        ['write_file', { path: nfc, content: '# \u00c9v\u00e9nements\n' }],
        ['write_file', { path: nfc.normalize('NFD'), content: '# NFD\n' }],
        // A rename by case is no alias: the old name is gone.
        ['delete_file', { path: 'guides/webhooks.mdx' }],
        ['write_file', { path: 'guides/Webhooks.mdx', content: '# Webhooks\n' }],
      ],
      'Add pages',
    )
    const created = await t.create('Add pages')
    expect((await t.settled(created.id)).status).toBe('completed')
    expect(told()[0]).toContain('a name may be at most 255 bytes')
    expect(told()[1]).toContain("a new file's path may be at most 200 characters")
    expect(told()[2]).toContain('"Index.mdx" would be the same name as "index.mdx" on macOS and Windows')
    expect(told()[3]).toContain('"Guides" would be the same name as "guides"')
    expect(told()[4]).toContain('"guides/WEBHOOKS.mdx" would be the same name as "guides/webhooks.mdx"')
    expect(told()[5]).toContain('"kind":"added"')
    expect(told()[6]).toContain(`would be the same name as "${nfc}"`)
    expect(told()[8]).toContain('"kind":"added"')

    const branch = servers.github.pulls.at(-1)!.head
    const files = (await git(t.repo.bare, 'ls-tree', '-r', '--name-only', '-z', branch)).split('\0').filter(Boolean)
    expect(files.filter((file) => file.startsWith('guides/')).sort()).toEqual(['guides/Webhooks.mdx', nfc])
    expect(files.filter((file) => /^index\.mdx$/i.test(file))).toEqual(['index.mdx'])
    await t.docent.stop()
  })
})

describe('what the events and tool errors say', () => {
  test('identical content changes nothing and logs no change; a symbolic link is named as one when read or deleted', async () => {
    const t = await setup('integrity-words')
    const told = scriptRun(
      [
        ['write_file', { path: 'index.mdx', content: '---\ntitle: Home\n---\n\nWelcome to Lumen.\n' }],
        ['read_file', { path: 'home.mdx' }],
        ['delete_file', { path: 'home.mdx' }],
      ],
      'Nothing to change',
    )
    const created = await t.create('Touch the home page')
    expect((await t.settled(created.id)).status).toBe('completed')
    expect(told()[0]).toContain('"kind":"unchanged"')
    expect(told()[1]).toContain('"home.mdx" is a symbolic link, which Docent does not follow or replace')
    expect(told()[2]).toContain('"home.mdx" is a symbolic link, which Docent does not follow or replace')
    const events = await t.events(created.id)
    expect(events.filter((event) => event.type === 'file.changed')).toEqual([])
    await t.docent.stop()
  })
})

describe('a pull request a reviewer closed', () => {
  test('a follow-up opens a new one instead of reopening it, and prLink moves; after a merge too; the event says opened', async () => {
    const t = await setup('integrity-closed')
    const write = (path: string) => [
      toolCalls(['write_file', { path, content: `# ${path}\n` }]),
      toolCalls(['finish', { summary: `Add ${path}` }]),
    ]
    servers.replies.push(...write('guides/one.mdx'))
    const created = await t.create('Add a page')
    const first = await t.settled(created.id)
    const firstPull = servers.github.pulls.find((pull) => first.prLink?.endsWith(`/pull/${pull.number}`))!
    firstPull.state = 'closed'

    servers.replies.push(...write('guides/two.mdx'))
    await t.followUp(created.id, 'Add another page')
    const second = await t.settled(created.id)
    expect(second.status).toBe('completed')
    expect(second.prLink).not.toBe(first.prLink)
    expect(firstPull.state).toBe('closed')
    expect(
      servers.github.requests.filter((request) => request.method === 'PATCH' && JSON.stringify(request.body).includes('state')),
    ).toEqual([])
    const secondPull = servers.github.pulls.find((pull) => second.prLink?.endsWith(`/pull/${pull.number}`))!
    expect(secondPull.head).toBe(firstPull.head)
    expect(secondPull.state ?? 'open').toBe('open')

    secondPull.state = 'merged'
    servers.replies.push(...write('guides/three.mdx'))
    await t.followUp(created.id, 'And a third')
    const third = await t.settled(created.id)
    expect(third.prLink).not.toBe(second.prLink)
    const prEvents = (await t.events(created.id)).filter((event) => event.type === 'pr').map((event) => event.message)
    expect(prEvents).toEqual([
      `opened pull request ${first.prLink}`,
      `opened pull request ${second.prLink}`,
      `opened pull request ${third.prLink}`,
    ])
    await t.docent.stop()
  })
})
