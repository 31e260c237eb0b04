import { describe, expect, it } from 'vitest'
import type { ProjectConfig } from '../config.ts'
import { docsRoot } from './workspace-docs.ts'

const project = (root: string, repository = 'https://git.example.com/acme/app') =>
  ({ docs: { repository: 'https://git.example.com/acme/app', ref: 'main', root }, agent: { repository } }) as unknown as ProjectConfig

describe('docsRoot', () => {
  it('is the docs folder in the agent’s repository, without slashes around it', () => {
    expect(docsRoot(project('/docs/site/'))).toBe('docs/site')
    expect(docsRoot(project('docs'))).toBe('docs')
    expect(docsRoot(project('//'))).toBe('')
    expect(docsRoot(project('docs', 'https://git.example.com/acme/other'))).toBe('')
  })

  it('reads long runs of slashes in time linear in them', () => {
    // `/^\/+|\/+$/g` read the rest of a run from each slash of it.
    expect(docsRoot(project(`\u0000${'/'.repeat(100_000)}/\u0000`))).toBe(`\u0000${'/'.repeat(100_001)}\u0000`)
    expect(docsRoot(project(`${'/'.repeat(100_000)}docs${'/'.repeat(100_000)}`))).toBe('docs')
  })
})
