import { describe, expect, it } from 'vitest'
import { readRedirects, resolveLink, siteIndex } from './resolve.ts'

const PAGES = ['index', 'guides/setup', 'guides/acme/setup/install', 'setup', 'x/y']

const site = (redirects: Array<{ source: string; destination: string }>) => siteIndex(PAGES, readRedirects({ redirects }))

describe('resolveLink', () => {
  it('cuts a query and an anchor, and trailing slashes, from a target', () => {
    const index = site([])
    expect(resolveLink('/guides/setup///?tab=1#install', 'index.mdx', index)).toEqual({
      kind: 'page',
      page: 'guides/setup',
      anchor: 'install',
    })
    expect(resolveLink('/guides/setup#a?b', 'index.mdx', index)).toEqual({ kind: 'page', page: 'guides/setup', anchor: 'a?b' })
    expect(resolveLink('?x', 'index.mdx', index)).toEqual({ kind: 'external' })
    expect(resolveLink('/images/logo.png//', 'index.mdx', index)).toEqual({ kind: 'asset', file: 'images/logo.png//' })
  })

  it('follows redirects with `:name` and `:name*` parameters, each taking the most the rest allows', () => {
    const index = site([
      { source: '/old/:slug/guides/:rest*/', destination: '/guides/:slug/:rest*' },
      { source: '/v1/:a*/:b*', destination: '/:b*' },
      { source: '/same/:a/:a', destination: '/setup' },
      { source: '/digit/:1st', destination: '/setup' },
      { source: '/', destination: '/guides/setup' },
    ])
    const redirected = (url: string) => {
      const target = resolveLink(url, 'index.mdx', index)
      return target.kind === 'missing' ? target.found?.page : target.kind
    }
    expect(redirected('/old/acme/guides/setup/install/')).toBe('guides/acme/setup/install')
    expect(redirected('/old/acme/more/guides/setup/install')).toBeUndefined()
    expect(redirected('/v1/a/b/x/y')).toBe(undefined)
    expect(redirected('/v1/a/b/guides/setup')).toBe('setup')
    // A source whose parameters a regular expression could not name (repeated, or starting with a digit) is left out.
    expect(readRedirects({ redirects: [{ source: '/same/:a/:a', destination: '/' }] })).toEqual([])
    expect(redirected('/same/a/b')).toBeUndefined()
    expect(redirected('/digit/a')).toBeUndefined()
  })

  it('matches redirects and cuts targets in time linear in the target', () => {
    // Two `*` parameters tried every split of the path between them; `/\?.*$/` and `/\/+$/` read a run from each of it.
    const index = site([{ source: '/v1/:a*/:b*/end', destination: '/:b*' }])
    const redirected = (url: string) => {
      const target = resolveLink(url, 'index.mdx', index)
      return target.kind === 'missing' ? (target.found?.page ?? target.path.length) : target.kind
    }
    expect(redirected(`/v1/${'x/'.repeat(50_000)}setup/end`)).toBe('setup')
    expect(redirected(`/v1/${'x/'.repeat(50_000)}setup/nope`)).toBe(100_013)
    expect(resolveLink(`/guides/setup${'?'.repeat(100_000)}\n?`, 'index.mdx', index)).toEqual({ kind: 'page', page: 'guides/setup' })
    expect(resolveLink(`/x/y${'/'.repeat(100_000)}`, 'index.mdx', index)).toEqual({ kind: 'page', page: 'x/y' })
  })
})
