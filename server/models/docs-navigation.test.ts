import { describe, expect, test } from 'vitest'
import { addToNavigation, parseJson, pickGroup } from './docs-navigation.ts'

const add = (text: string, group: string | null, page: string) => {
  const docs = parseJson(text)!
  const picked = pickGroup(docs.value, group)
  return picked && addToNavigation(docs.text, picked, page)
}

describe('adding a page to docs.json keeps the rest of the file as it was', () => {
  test('after the last entry, indented like it, in a file JSON.stringify would lay out differently', () => {
    const text =
      '{\n    "navigation": {\n      "groups": [\n        { "group": "Guides", "pages": [\n            "guides/a",\n            "guides/b"\n        ] }\n      ]\n    }\n}\n'
    expect(add(text, 'Guides', 'guides/c')).toBe(text.replace('"guides/b"', '"guides/b",\n            "guides/c"'))
  })

  test('an array on one line stays on one line; an empty one gets the page', () => {
    expect(add('{"navigation":{"groups":[{"group":"A","pages":["x", "y"]}]}}', 'a', 'z')).toBe(
      '{"navigation":{"groups":[{"group":"A","pages":["x", "y", "z"]}]}}',
    )
    expect(add('{"navigation":{"groups":[{"group":"A","pages":[]}]}}', 'A', 'z')).toBe(
      '{"navigation":{"groups":[{"group":"A","pages":["z"]}]}}',
    )
  })

  test('after a nested group, and with CRLF line endings', () => {
    const text =
      '{\r\n  "navigation": {\r\n    "groups": [\r\n      {\r\n        "group": "Start",\r\n        "pages": [\r\n          "index",\r\n          { "group": "CLI", "pages": ["cli/install"] }\r\n        ]\r\n      }\r\n    ]\r\n  }\r\n}\r\n'
    expect(add(text, 'Start', 'intro')).toBe(text.replace('["cli/install"] }', '["cli/install"] },\r\n          "intro"'))
    // The nested group is a group too.
    expect(add(text, 'cli', 'cli/update')).toBe(text.replace('["cli/install"]', '["cli/install", "cli/update"]'))
  })

  test('a group that does not exist is created beside the first one', () => {
    const text =
      '{\n  "navigation": {\n    "groups": [\n      {\n        "group": "Start",\n        "pages": ["index"]\n      }\n    ]\n  }\n}\n'
    const added = add(text, 'Recipes', 'recipes/rollback')!
    expect(JSON.parse(added).navigation.groups).toEqual([
      { group: 'Start', pages: ['index'] },
      { group: 'Recipes', pages: ['recipes/rollback'] },
    ])
    expect(added).toBe(
      text.replace(
        '      }\n    ]',
        '      },\n      {\n        "group": "Recipes",\n        "pages": [\n          "recipes/rollback"\n        ]\n      }\n    ]',
      ),
    )
  })

  test('no group at all: nothing to add to', () => {
    expect(add('{"navigation":{"tabs":[]}}', 'Guides', 'x')).toBeNull()
  })
})
