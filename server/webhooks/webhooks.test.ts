import { createHmac } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { sameRepositoryUrl } from '../git/repository-url.ts'
import { gitHubEvent, gitLabEvent, type HostEvent } from './payloads.ts'
import { createWebhookRegistry } from './registry.ts'
import { gitHubSigners, gitLabSigners } from './signature.ts'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('webhook signatures', () => {
  test('GitHub’s documented example: secret "It\'s a Secret to Everybody", body "Hello, World!"', async () => {
    const signature = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17'
    expect(await gitHubSigners(["It's a Secret to Everybody"], bytes('Hello, World!'), signature)).toEqual([0])
    expect(await gitHubSigners(["It's a Secret to Everybody"], bytes('Hello, World?'), signature)).toEqual([])
    expect(await gitHubSigners(['another secret'], bytes('Hello, World!'), signature)).toEqual([])
    expect(await gitHubSigners(["It's a Secret to Everybody"], bytes('Hello, World!'), undefined)).toEqual([])
    expect(await gitHubSigners(["It's a Secret to Everybody"], bytes('Hello, World!'), signature.replace('sha256=', 'sha1='))).toEqual([])
  })

  test('GitLab’s token', async () => {
    expect(await gitLabSigners(['tok'], 'tok')).toEqual([0])
    expect(await gitLabSigners(['tok'], 'tok2')).toEqual([])
    expect(await gitLabSigners(['tok'], undefined)).toEqual([])
  })

  test('several secrets (the server’s and code repositories’ own): any one of them signs, and which one says who vouches for the delivery', async () => {
    const body = bytes('{"zen":"Keep it logically awesome."}')
    const sign = (secret: string, data: Uint8Array) => `sha256=${createHmac('sha256', secret).update(data).digest('hex')}`
    expect(await gitHubSigners(['other', 's3cret'], body, sign('s3cret', body))).toEqual([1])
    expect(await gitHubSigners(['s3cret'], body, sign('s3cret', body).toUpperCase().replace('SHA256', 'sha256'))).toEqual([0])
    expect(await gitHubSigners(['s3cret'], body, sign('wrong', body))).toEqual([])
    expect(await gitHubSigners(['s3cret'], bytes('{"zen":"Keep it logically awesome!"}'), sign('s3cret', body))).toEqual([])
    for (const header of ['', 'sha1=abc', `sha256=${'0'.repeat(63)}`, sign('s3cret', body).slice(0, -2)]) {
      expect(await gitHubSigners(['s3cret'], body, header)).toEqual([])
    }
    expect(await gitHubSigners([], body, sign('s3cret', body))).toEqual([])
    expect(await gitLabSigners(['other', 't0ken'], 't0ken')).toEqual([1])
    expect(await gitLabSigners(['t0ken'], 't0ken ')).toEqual([])
    expect(await gitLabSigners(['t0ken'], '')).toEqual([])
    expect(await gitLabSigners([], 't0ken')).toEqual([])
  })
})

describe('webhook payloads', () => {
  test('GitHub: merged and closed pull requests, pushes, the rest ignored', () => {
    const repository = {
      full_name: 'acme/docs',
      id: 7,
      clone_url: 'https://github.com/acme/docs.git',
      html_url: 'https://github.com/acme/docs',
    }
    const closed = (merged: boolean) => ({
      action: 'closed',
      pull_request: { number: 12, merged, merge_commit_sha: merged ? 'abc' : null, head: { ref: 'docent/x' }, base: { ref: 'main' } },
      repository,
    })
    expect(gitHubEvent('pull_request', closed(true))).toEqual({
      kind: 'pull_request',
      action: 'merged',
      repository: { path: 'acme/docs', id: '7', urls: ['https://github.com/acme/docs.git', 'https://github.com/acme/docs'] },
      number: '12',
      branch: 'docent/x',
      base: 'main',
      mergeCommit: 'abc',
      title: '',
      body: '',
      labels: [],
      url: null,
    })
    expect(gitHubEvent('pull_request', closed(false))).toMatchObject({ action: 'closed', mergeCommit: null })
    expect(gitHubEvent('pull_request', { ...closed(true), action: 'opened' })).toEqual({ kind: 'other' })
    expect(gitHubEvent('push', { ref: 'refs/heads/main', after: 'def', repository })).toMatchObject({
      kind: 'push',
      branch: 'main',
      after: 'def',
    })
    expect(gitHubEvent('push', { ref: 'refs/tags/v1', repository })).toMatchObject({ kind: 'push', branch: null })
    expect(gitHubEvent('issues', {})).toEqual({ kind: 'other' })
    // Read strictly (from a probe): a closed pull request names itself with a positive number, and `merged` says
    // whether it merged when the host sends it.
    expect(gitHubEvent('pull_request', { action: 'closed', number: 1, pull_request: null, repository })).toEqual({ kind: 'other' })
    for (const number of [-1, 0, 1.5, '12', null]) {
      expect(gitHubEvent('pull_request', { ...closed(true), pull_request: { ...closed(true).pull_request, number } })).toEqual({
        kind: 'other',
      })
    }
    const mergedAt = { merged_at: '2026-11-29T10:00:00Z' }
    expect(gitHubEvent('pull_request', { ...closed(false), pull_request: { ...closed(false).pull_request, ...mergedAt } })).toMatchObject({
      action: 'closed',
    })
    const withoutMerged = { ...closed(true).pull_request, merged: undefined, ...mergedAt }
    expect(gitHubEvent('pull_request', { ...closed(true), pull_request: withoutMerged })).toMatchObject({ action: 'merged' })
    expect(gitHubEvent('push', null)).toMatchObject({ kind: 'push', branch: null })
  })

  test('GitLab: merge and close of merge requests (a fast-forward merge names its last commit), pushes', () => {
    const project = { id: 42, path_with_namespace: 'acme/docs', git_http_url: 'https://gitlab.com/acme/docs.git' }
    const mr = (attributes: object) => ({
      object_kind: 'merge_request',
      project,
      object_attributes: { iid: 3, source_branch: 'docent/x', target_branch: 'main', ...attributes },
    })
    expect(gitLabEvent(mr({ action: 'merge', merge_commit_sha: 'abc' }))).toMatchObject({
      kind: 'pull_request',
      action: 'merged',
      number: '3',
      mergeCommit: 'abc',
    })
    expect(gitLabEvent(mr({ action: 'merge', merge_commit_sha: null, last_commit: { id: 'ff1' } }))).toMatchObject({ mergeCommit: 'ff1' })
    expect(gitLabEvent(mr({ action: 'close' }))).toMatchObject({ action: 'closed', repository: { path: 'acme/docs', id: '42' } })
    expect(gitLabEvent(mr({ action: 'update' }))).toEqual({ kind: 'other' })
    for (const iid of [-3, 0, '3', null]) expect(gitLabEvent(mr({ action: 'merge', iid }))).toEqual({ kind: 'other' })
    expect(gitLabEvent({ object_kind: 'push', ref: 'refs/heads/main', after: 'x', project })).toMatchObject({
      kind: 'push',
      branch: 'main',
    })
  })

  test('what automations read: a merged pull request’s title, body, labels and link; a push’s commits', () => {
    const repository = { full_name: 'acme/api' }
    const pull_request = {
      number: 42,
      merged: true,
      title: 'feat: export flags',
      body: 'Adds `lumen flags export`.',
      labels: [{ name: 'enhancement' }, { name: 7 }],
      merge_commit_sha: 'a'.repeat(40),
      html_url: 'https://github.com/acme/api/pull/42',
      base: { ref: 'main' },
      head: { ref: 'export' },
    }
    expect(gitHubEvent('pull_request', { action: 'closed', repository, pull_request })).toMatchObject({
      action: 'merged',
      number: '42',
      title: 'feat: export flags',
      body: 'Adds `lumen flags export`.',
      labels: ['enhancement'],
      url: 'https://github.com/acme/api/pull/42',
    })
    const push = {
      ref: 'refs/heads/main',
      before: 'b'.repeat(40),
      after: 'c'.repeat(40),
      repository,
      commits: [
        {
          id: 'c'.repeat(40),
          message: 'docs: fix a link\n\nbody',
          url: 'https://github.com/acme/api/commit/c',
          author: { name: 'Ada', email: 'ada@acme.test' },
          added: ['a.mdx'],
          modified: ['b.mdx'],
          removed: [],
        },
        { message: 'no id' },
      ],
    }
    expect(gitHubEvent('push', push)).toEqual({
      kind: 'push',
      repository: { path: 'acme/api', id: null, urls: [] },
      branch: 'main',
      before: 'b'.repeat(40),
      after: 'c'.repeat(40),
      commits: [
        {
          id: 'c'.repeat(40),
          message: 'docs: fix a link\n\nbody',
          url: 'https://github.com/acme/api/commit/c',
          author: { name: 'Ada', email: 'ada@acme.test' },
          files: ['a.mdx', 'b.mdx'],
        },
      ],
    })
    const project = { path_with_namespace: 'acme/platform/api', web_url: 'https://gitlab.com/acme/platform/api' }
    const mr = {
      object_kind: 'merge_request',
      project,
      labels: [{ title: 'bug' }],
      object_attributes: { iid: 7, action: 'merge', title: 'fix: retry 502s', description: 'Retries.', target_branch: 'main' },
    }
    expect(gitLabEvent(mr)).toMatchObject({
      action: 'merged',
      number: '7',
      title: 'fix: retry 502s',
      body: 'Retries.',
      labels: ['bug'],
      url: 'https://gitlab.com/acme/platform/api/-/merge_requests/7',
    })
  })

  test('one repository however its URL is written', () => {
    expect(sameRepositoryUrl('https://token@GitHub.com/Acme/Docs.git/', 'https://github.com/acme/docs')).toBe(true)
    expect(sameRepositoryUrl('git@github.com:acme/docs.git', 'https://github.com/acme/docs.git')).toBe(true)
    expect(sameRepositoryUrl('http://127.0.0.1:4000/docs.git', 'http://127.0.0.1:4000/docs.git')).toBe(true)
    expect(sameRepositoryUrl('https://github.com/acme/docs', 'https://github.com/acme/docs-old')).toBe(false)
  })
})

test('the registry hands each delivery to every listener; one that throws does not stop the others', async () => {
  const registry = createWebhookRegistry()
  const seen: string[] = []
  const errors: unknown[] = []
  registry.onWebhookEvent(() => {
    throw new Error('boom')
  })
  const stop = registry.onWebhookEvent((host, event) => {
    seen.push(`${host} ${event.kind}`)
    return 2
  })
  registry.onWebhookEvent(async () => 1)
  const event: HostEvent = {
    kind: 'push',
    repository: { path: 'a/b', id: null, urls: [] },
    branch: 'main',
    before: null,
    after: null,
    commits: [],
  }
  expect(await registry.emit('github', event, { kind: 'server' }, (error) => errors.push(error))).toBe(3)
  expect(seen).toEqual(['github push'])
  expect(errors).toHaveLength(1)
  stop()
  expect(await registry.emit('github', event, { kind: 'server' }, () => {})).toBe(1)
})
