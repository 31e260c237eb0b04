import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { simpleYaml } from '../../server/search/frontmatter.ts'
import { readDirectory } from '../../server/search/sources/directory.ts'

// simpleYaml reads common frontmatter without the YAML parser; where it answers, it must answer as YAML does.

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---/

function expectAsYaml(yaml: string, name: string): boolean {
  const simple = simpleYaml(yaml)
  if (simple === undefined) return false
  expect(simple, name).toEqual(parse(yaml))
  return true
}

describe('simpleYaml reads frontmatter as YAML does, or leaves it to YAML', () => {
  it('reads the common forms', () => {
    const yaml =
      'title: "Quickstart: five minutes"\nsidebarTitle: Quickstart\ndescription: \'Install, configure, ship\'\ntags: ["sdk", \'cli\']\nkeywords: []\nhidden: true\nnoindex: false\n# a comment\n'
    expect(expectAsYaml(yaml, 'common')).toBe(true)
    expect(simpleYaml(yaml)).toMatchObject({ title: 'Quickstart: five minutes', tags: ['sdk', 'cli'], hidden: true })
  })

  it.each([
    ['a colon in a plain value', 'title: Step 1: install'],
    ['a number', 'version: 1.10'],
    ['a YAML 1.1 boolean', 'hidden: yes'],
    ['True in capitals', 'hidden: True'],
    ['null', 'description: null'],
    ['an escape in double quotes', 'title: "Tab\\there"'],
    ['a doubled single quote', "title: 'It''s here'"],
    ['a comment after a value', 'title: Setup # draft'],
    ['a block list', 'tags:\n  - sdk\n  - cli'],
    ['a multi-line value', 'description: >\n  Long\n  text'],
    ['a duplicate key', 'title: A\ntitle: B'],
    ['a plain item in a list', 'tags: [sdk, cli]'],
    ['a nested mapping', 'seo:\n  title: x'],
    ['an anchor', 'title: &t Setup'],
  ])('leaves %s to YAML', (_, yaml) => {
    expect(simpleYaml(yaml)).toBeUndefined()
  })

  it('on every page of demo/docs', async () => {
    const { files } = await readDirectory('demo/docs')
    let read = 0
    for (const [path, text] of files) {
      const yaml = FRONTMATTER.exec(text)?.[1]
      if (yaml && expectAsYaml(yaml, path)) read++
    }
    expect(read).toBeGreaterThan(20)
  })

  const CORPUS = '../shared/corpora/mintlify-docs'
  const present = existsSync(`${CORPUS}/docs.json`)
  if (!present) console.log(`skipping the Mintlify frontmatter check: ${CORPUS} is absent`)
  it.skipIf(!present)(
    'on every page of the Mintlify docs',
    async () => {
      const { files } = await readDirectory(CORPUS)
      let pages = 0
      let read = 0
      for (const [path, text] of files) {
        const yaml = FRONTMATTER.exec(text)?.[1]
        if (!yaml) continue
        pages++
        if (expectAsYaml(yaml, path)) read++
      }
      console.log(`simpleYaml read ${read} of ${pages} Mintlify frontmatters; YAML read the rest`)
      expect(read).toBeGreaterThan(pages / 2)
    },
    60_000,
  )
})
