import { describe, expect, it } from 'vitest'
import { normalizePath, readNavigation } from './navigation.ts'
import { pageUrl } from './page-url.ts'

describe('readNavigation', () => {
  it('walks versions, tabs, nested groups and root pages of docs.json', () => {
    const nav = readNavigation({
      name: 'Docs',
      description: 'About',
      navigation: {
        versions: [
          {
            version: 'v2',
            tabs: [
              {
                tab: 'Guides',
                groups: [
                  {
                    group: 'Start',
                    root: 'start/index',
                    pages: ['index', '/quickstart.mdx', { group: 'SDKs', pages: ['sdks/js'] }],
                  },
                ],
              },
              { tab: 'API', groups: [{ group: 'REST', pages: ['api/flags', 'https://example.com/external'] }] },
            ],
          },
          { version: 'v1', groups: [{ group: 'Old', pages: ['index', 'api/v1'] }] },
        ],
      },
    })
    expect(nav.name).toBe('Docs')
    expect(nav.versions).toEqual(['v2', 'v1'])
    expect([...nav.entries.keys()]).toEqual(['start/index', 'index', 'quickstart', 'sdks/js', 'api/flags', 'api/v1'])
    expect(nav.entries.get('sdks/js')).toMatchObject({ groups: ['Guides', 'Start', 'SDKs'], version: 'v2', versions: ['v2'] })
    expect(nav.entries.get('index')).toMatchObject({ version: 'v2', versions: ['v2', 'v1'] })
    expect(nav.entries.get('api/v1')).toMatchObject({ groups: ['Old'], versions: ['v1'] })
    // Pages of one list are neighbours; a nested group is a list of its own.
    expect(nav.entries.get('index')!.list).toBe(nav.entries.get('quickstart')!.list)
    expect(nav.entries.get('sdks/js')!.list).not.toBe(nav.entries.get('quickstart')!.list)
  })

  it('reads languages and $ref files', () => {
    const files: Record<string, unknown> = { './fr.json': { tabs: [{ tab: 'Guides', pages: ['fr/index'] }] } }
    const nav = readNavigation(
      {
        navigation: {
          languages: [{ language: 'en', groups: [{ group: 'Start', pages: ['index'] }] }, { $ref: './fr.json' }, { $ref: './de.json' }],
        },
      },
      (path) => files[path],
    )
    expect(nav.languages).toEqual(['en', 'fr', 'de'])
    expect(nav.entries.get('fr/index')).toMatchObject({ language: 'fr', groups: ['Guides'] })
    expect(nav.entries.get('index')).toMatchObject({ language: 'en', languages: ['en'] })
  })

  it('reads the older mint.json', () => {
    const nav = readNavigation({
      name: 'Old',
      versions: ['v1', 'v2'],
      navigation: [{ group: 'Start', pages: ['intro', { group: 'More', pages: ['more/a'] }] }],
    })
    expect(nav.versions).toEqual(['v1', 'v2'])
    expect(nav.entries.get('more/a')).toMatchObject({ groups: ['Start', 'More'] })
  })

  it('reads hidden and searchable containers, seo.indexing, and the languages whose navigation file is missing', () => {
    const nav = readNavigation(
      {
        seo: { indexing: 'all' },
        navigation: {
          languages: [
            {
              language: 'en',
              tabs: [
                { tab: 'Home', pages: ['index'] },
                {
                  tab: 'Internal',
                  hidden: true,
                  groups: [
                    { group: 'Ops', pages: ['ops'] },
                    { group: 'Kept', searchable: true, pages: ['kept'] },
                  ],
                },
              ],
            },
            { $ref: './fr.json' },
          ],
        },
      },
      () => undefined,
    )
    expect(nav.entries.get('index')).toMatchObject({ hidden: false, searchable: false })
    expect(nav.entries.get('ops')).toMatchObject({ hidden: true, searchable: false })
    expect(nav.entries.get('kept')).toMatchObject({ hidden: true, searchable: true })
    expect(nav).toMatchObject({ indexAll: true, languages: ['en', 'fr'], unreadLanguages: ['fr'] })
    expect(readNavigation({ navigation: { pages: ['a'] } })).toMatchObject({ indexAll: false, unreadLanguages: [] })
  })

  it('survives junk', () => {
    expect(readNavigation(null).entries.size).toBe(0)
    expect(readNavigation({ navigation: 'nope' }).entries.size).toBe(0)
    expect(readNavigation({ navigation: { groups: [{ group: 1, pages: [null, 2, 'ok'] }] } }).entries.size).toBe(1)
  })
})

describe('page paths and URLs', () => {
  it('normalizes navigation and file paths', () => {
    expect(normalizePath('/sdks/javascript.mdx')).toBe('sdks/javascript')
    expect(normalizePath('./a/b.md#x')).toBe('a/b')
    expect(normalizePath('/')).toBe('index')
    expect(normalizePath('https://x.y')).toBeUndefined()
    expect(normalizePath('#top')).toBeUndefined()
    expect(normalizePath('.//guides/setup/?tab=cli')).toBe('guides/setup')
  })

  it('cuts queries, fragments and slashes in time linear in the path', () => {
    const slashes = '/'.repeat(100_000)
    expect(normalizePath(`a${slashes}\u0000/`)).toBe(`a${slashes}\u0000`)
    expect(normalizePath(`guides${slashes}`)).toBe('guides')
    // Up to the first `?` or `#`, even with a line break after it (`/[?#].*$/`, whose `.` stopped at line breaks,
    // cut there only the last `#`).
    expect(normalizePath(`a${'#'.repeat(100_000)}\n#`)).toBe('a')
  })

  it('serves index pages at their folder', () => {
    expect(pageUrl('index')).toBe('/')
    expect(pageUrl('cli/index')).toBe('/cli')
    expect(pageUrl('sdks/javascript')).toBe('/sdks/javascript')
  })
})
