import { createHmac } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { githubEvent } from './github-events.ts'
import { gitlabEvent } from './gitlab-events.ts'
import { createWebhookRegistry } from './registry.ts'
import type { WebhookEvent } from './types.ts'
import { verifyGitHubSignature, verifyGitLabToken } from './verify.ts'

const body = new TextEncoder().encode('{"zen":"Keep it logically awesome."}')
const sign = (secret: string, bytes: Uint8Array) => `sha256=${createHmac('sha256', secret).update(bytes).digest('hex')}`

describe('signatures', () => {
  test('GitHub: HMAC-SHA256 of the raw body with one of the secrets', async () => {
    expect(await verifyGitHubSignature(body, sign('s3cret', body), ['s3cret'])).toBe(true)
    expect(await verifyGitHubSignature(body, sign('s3cret', body).toUpperCase().replace('SHA256', 'sha256'), ['other', 's3cret'])).toBe(
      true,
    )
    expect(await verifyGitHubSignature(body, sign('wrong', body), ['s3cret'])).toBe(false)
    // One byte of the body changed, the signature of the original: refused.
    expect(
      await verifyGitHubSignature(new TextEncoder().encode('{"zen":"Keep it logically awesome!"}'), sign('s3cret', body), ['s3cret']),
    ).toBe(false)
    for (const header of [undefined, '', 'sha1=abc', `sha256=${'0'.repeat(63)}`, sign('s3cret', body).slice(0, -2)]) {
      expect(await verifyGitHubSignature(body, header, ['s3cret'])).toBe(false)
    }
    expect(await verifyGitHubSignature(body, sign('s3cret', body), [])).toBe(false)
  })

  test('GitLab: the secret token itself', async () => {
    expect(await verifyGitLabToken('t0ken', ['other', 't0ken'])).toBe(true)
    expect(await verifyGitLabToken('t0ken ', ['t0ken'])).toBe(false)
    expect(await verifyGitLabToken('', ['t0ken'])).toBe(false)
    expect(await verifyGitLabToken(undefined, ['t0ken'])).toBe(false)
    expect(await verifyGitLabToken('t0ken', [])).toBe(false)
  })
})

describe('GitHub deliveries', () => {
  const repository = { full_name: 'acme/api' }
  test('a merged pull request', () => {
    const payload = {
      action: 'closed',
      repository,
      pull_request: {
        number: 42,
        merged: true,
        title: 'feat: export flags',
        body: 'Adds `lumen flags export`.',
        labels: [{ name: 'enhancement' }, { name: 7 }],
        merge_commit_sha: 'a'.repeat(40),
        html_url: 'https://github.com/acme/api/pull/42',
        base: { ref: 'main' },
        head: { ref: 'export' },
      },
    }
    expect(githubEvent('pull_request', payload)).toEqual({
      kind: 'merged',
      host: 'github',
      repository: 'acme/api',
      number: 42,
      title: 'feat: export flags',
      body: 'Adds `lumen flags export`.',
      labels: ['enhancement'],
      mergeCommit: 'a'.repeat(40),
      url: 'https://github.com/acme/api/pull/42',
      baseRef: 'main',
      headRef: 'export',
    })
    // Closed without merging, opened, or another event: nothing to act on.
    expect(githubEvent('pull_request', { ...payload, pull_request: { ...payload.pull_request, merged: false } })).toBeNull()
    expect(githubEvent('pull_request', { ...payload, action: 'opened' })).toBeNull()
    expect(githubEvent('issues', payload)).toBeNull()
    expect(githubEvent('ping', { zen: 'hi' })).toBeNull()
  })

  test('a push, and what is not one', () => {
    const payload = {
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
    expect(githubEvent('push', payload)).toEqual({
      kind: 'push',
      host: 'github',
      repository: 'acme/api',
      ref: 'refs/heads/main',
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
    expect(githubEvent('push', { ...payload, after: '0'.repeat(40), deleted: true })).toBeNull()
    expect(githubEvent('push', { ...payload, repository: null })).toBeNull()
    expect(githubEvent('push', 'not an object')).toBeNull()
  })
})

describe('GitLab deliveries', () => {
  const project = { path_with_namespace: 'acme/platform/api', web_url: 'https://gitlab.com/acme/platform/api' }
  test('a merged merge request', () => {
    const payload = {
      object_kind: 'merge_request',
      project,
      labels: [{ title: 'bug' }],
      object_attributes: {
        iid: 7,
        action: 'merge',
        title: 'fix: retry 502s',
        description: 'Retries.',
        merge_commit_sha: 'd'.repeat(40),
        url: 'https://gitlab.com/acme/platform/api/-/merge_requests/7',
        target_branch: 'main',
        source_branch: 'retry',
      },
    }
    expect(gitlabEvent('Merge Request Hook', payload)).toEqual({
      kind: 'merged',
      host: 'gitlab',
      repository: 'acme/platform/api',
      number: 7,
      title: 'fix: retry 502s',
      body: 'Retries.',
      labels: ['bug'],
      mergeCommit: 'd'.repeat(40),
      url: 'https://gitlab.com/acme/platform/api/-/merge_requests/7',
      baseRef: 'main',
      headRef: 'retry',
    })
    expect(
      gitlabEvent('Merge Request Hook', { ...payload, object_attributes: { ...payload.object_attributes, action: 'update' } }),
    ).toBeNull()
  })

  test('a push', () => {
    const payload = { object_kind: 'push', project, ref: 'refs/heads/main', before: 'e'.repeat(40), after: 'f'.repeat(40), commits: [] }
    expect(gitlabEvent('Push Hook', payload)).toMatchObject({
      kind: 'push',
      host: 'gitlab',
      repository: 'acme/platform/api',
      after: 'f'.repeat(40),
    })
    expect(gitlabEvent('Tag Push Hook', { ...payload, object_kind: 'tag_push' })).toBeNull()
  })
})

test('the registry hands each delivery to every listener; one that throws does not stop the others', async () => {
  const registry = createWebhookRegistry()
  const seen: string[] = []
  const errors: unknown[] = []
  registry.onWebhookEvent(() => {
    throw new Error('boom')
  })
  const stop = registry.onWebhookEvent((event) => {
    seen.push(event.kind)
    return 2
  })
  registry.onWebhookEvent(async () => 1)
  const event: WebhookEvent = {
    kind: 'push',
    host: 'github',
    repository: 'a/b',
    ref: 'refs/heads/main',
    before: '',
    after: '',
    commits: [],
  }
  expect(await registry.emit(event, (error) => errors.push(error))).toBe(3)
  expect(seen).toEqual(['push'])
  expect(errors).toHaveLength(1)
  stop()
  expect(await registry.emit(event, () => {})).toBe(1)
})
