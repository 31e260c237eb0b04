import { describe, expect, test } from 'vitest'
import { gitHubEvent, gitLabEvent, sameRepositoryUrl } from './payloads.ts'
import { verifyGitHubSignature, verifyGitLabToken } from './signature.ts'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('webhook signatures', () => {
  test('GitHub’s documented example: secret "It\'s a Secret to Everybody", body "Hello, World!"', async () => {
    const signature = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17'
    expect(await verifyGitHubSignature("It's a Secret to Everybody", bytes('Hello, World!'), signature)).toBe(true)
    expect(await verifyGitHubSignature("It's a Secret to Everybody", bytes('Hello, World?'), signature)).toBe(false)
    expect(await verifyGitHubSignature('another secret', bytes('Hello, World!'), signature)).toBe(false)
    expect(await verifyGitHubSignature("It's a Secret to Everybody", bytes('Hello, World!'), undefined)).toBe(false)
    expect(await verifyGitHubSignature("It's a Secret to Everybody", bytes('Hello, World!'), signature.replace('sha256=', 'sha1='))).toBe(
      false,
    )
  })

  test('GitLab’s token', async () => {
    expect(await verifyGitLabToken('tok', 'tok')).toBe(true)
    expect(await verifyGitLabToken('tok', 'tok2')).toBe(false)
    expect(await verifyGitLabToken('tok', undefined)).toBe(false)
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
    expect(gitLabEvent({ object_kind: 'push', ref: 'refs/heads/main', after: 'x', project })).toMatchObject({
      kind: 'push',
      branch: 'main',
    })
  })

  test('one repository however its URL is written', () => {
    expect(sameRepositoryUrl('https://token@GitHub.com/Acme/Docs.git/', 'https://github.com/acme/docs')).toBe(true)
    expect(sameRepositoryUrl('git@github.com:acme/docs.git', 'https://github.com/acme/docs.git')).toBe(true)
    expect(sameRepositoryUrl('http://127.0.0.1:4000/docs.git', 'http://127.0.0.1:4000/docs.git')).toBe(true)
    expect(sameRepositoryUrl('https://github.com/acme/docs', 'https://github.com/acme/docs-old')).toBe(false)
  })
})
