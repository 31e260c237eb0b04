import { describe, expect, it } from 'vitest'
import { repositoryPath } from './service.ts'

describe('repositoryPath', () => {
  it('is the repository as webhooks name it: no slashes around it, no `.git` at its end', () => {
    expect(repositoryPath('/acme/docs.git')).toBe('acme/docs')
    expect(repositoryPath('//acme/docs//')).toBe('acme/docs')
    expect(repositoryPath('/group/sub/docs')).toBe('group/sub/docs')
    // Only a `.git` that ends the path goes, as the pattern this replaces had it.
    expect(repositoryPath('/acme/docs.git/')).toBe('acme/docs.git')
    expect(repositoryPath('/.git')).toBe('')
    expect(repositoryPath('/')).toBe('')
  })

  it('reads long runs of slashes in time linear in them', () => {
    // `/\/+$/` read the rest of the run from each slash of it.
    expect(repositoryPath(`/i${'/'.repeat(100_000)}/.`)).toBe(`i${'/'.repeat(100_001)}.`)
    expect(repositoryPath(`${'/'.repeat(100_000)}acme/docs${'/'.repeat(100_000)}`)).toBe('acme/docs')
  })
})
