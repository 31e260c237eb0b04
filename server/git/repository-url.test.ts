import { describe, expect, it } from 'vitest'
import { repositoryName, sameRepositoryUrl, withoutCredentials } from './repository-url.ts'

describe('a repository named by a URL and by owner/name', () => {
  it('a path names the repository as webhooks do: no slashes around it, no `.git` at its end', () => {
    expect(repositoryName('/acme/docs.git')).toBe('acme/docs')
    expect(repositoryName('//acme/docs//')).toBe('acme/docs')
    expect(repositoryName('/group/sub/docs')).toBe('group/sub/docs')
    expect(repositoryName('/acme/docs.git/')).toBe('acme/docs')
    expect(repositoryName('/.git')).toBe('')
    expect(repositoryName('/')).toBe('')
  })

  it('reads long runs of slashes in time linear in them', () => {
    // `/\/+$/` read the rest of the run from each slash of it.
    expect(repositoryName(`/i${'/'.repeat(100_000)}/.`)).toBe(`i${'/'.repeat(100_001)}.`)
    expect(repositoryName(`${'/'.repeat(100_000)}acme/docs${'/'.repeat(100_000)}`)).toBe('acme/docs')
  })

  it('two URLs of one repository are the same, whatever the scheme, credentials, case or `.git`', () => {
    expect(sameRepositoryUrl('https://token@GitHub.com/Acme/Docs.git/', 'https://github.com/acme/docs')).toBe(true)
    expect(sameRepositoryUrl('git@github.com:acme/docs.git', 'github.com/acme/docs')).toBe(true)
    expect(sameRepositoryUrl('https://github.com/acme/docs', 'https://github.com/acme/docs-site')).toBe(false)
    expect(sameRepositoryUrl('https://gitlab.com/acme/docs', 'https://github.com/acme/docs')).toBe(false)
  })

  it('credentials a config put in a URL are not shown', () => {
    expect(withoutCredentials('https://x-access-token:ghp_secret@github.com/acme/docs.git')).toBe('https://github.com/acme/docs.git')
    expect(withoutCredentials('local:demo')).toBe('local:demo')
  })
})
