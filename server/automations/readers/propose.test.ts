import { describe, expect, it } from 'vitest'
import { readDocsTree } from '../docs-tree.ts'
import type { ReaderFeedback } from './signals.ts'
import { proposeFeedback } from './propose.ts'

const tree = readDocsTree(
  new Map([
    ['docs.json', JSON.stringify({ navigation: { pages: ['index', 'guides/setup', 'faq'] } })],
    ['index.mdx', '# Home\n'],
    ['guides/setup.mdx', '# Setup\n'],
    ['faq.mdx', '# FAQ\n'],
  ]),
)

/** The files the feedback's sections go to, one comment per path. */
const pagesFor = (...paths: string[]) => {
  const feedback = paths.map(
    (path, index): ReaderFeedback => ({ id: String(index), path, comment: 'Unclear.', helpful: false, createdAt: new Date(0) }),
  )
  return proposeFeedback(tree, feedback, '2026-01-05').edits.map((edit) => [edit.path, edit.edits.length])
}

describe('proposeFeedback', () => {
  it('sends feedback to the page its path names, with or without slashes, extension and anchor', () => {
    expect(pagesFor('/guides/setup.mdx#install', 'guides/setup', '//guides/setup.md#a#b', '/nowhere')).toEqual([
      ['guides/setup.mdx', 1],
      ['faq.mdx', 1],
    ])
  })

  it('reads paths of long runs of `#` and `/` in time linear in them', () => {
    // `/#.*$/` read the rest of the path from each `#` of a run.
    expect(pagesFor(`/guides/setup${'#'.repeat(100_000)}x`, `${'/'.repeat(100_000)}guides/setup.md`, `/faq${'#'.repeat(100_000)}`)).toEqual(
      [
        ['guides/setup.mdx', 1],
        ['faq.mdx', 1],
      ],
    )
  })
})
