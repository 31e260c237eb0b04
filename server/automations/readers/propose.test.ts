import type { Heading, Nodes, Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { mdxFromMarkdown } from 'mdast-util-mdx'
import { toString as textOf } from 'mdast-util-to-string'
import { gfm } from 'micromark-extension-gfm'
import { mdxjs } from 'micromark-extension-mdxjs'
import { describe, expect, it } from 'vitest'
import { parseMarkdown } from '../../search/markdown.ts'
import { parsePage } from '../../search/parse-page.ts'
import { readDocsTree } from '../docs-tree.ts'
import { applyFileEdits } from '../edits.ts'
import type { ReaderFeedback, ReaderGap } from './signals.ts'
import { MAX_QUESTION, proposeFeedback, proposeGapQuestions } from './propose.ts'

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

/**
 * What anonymous readers may type into the assistant: HTML and JSX, MDX expressions and comments, Markdown blocks
 * (headings, lists, quotes, code fences, tables, thematic breaks) behind line breaks, links, images, footnotes,
 * emphasis, character references, and addresses a renderer would make links of.
 */
const HOSTILE = [
  'does lumen support kayak <img src=x onerror=alert(document.domain)> rentals',
  'does lumen support <script>alert(document.cookie)</script> canoes',
  'how do I read {process.env.SECRET} or {/* a comment */} in a page}',
  'export const x = 1',
  '# Owned\n\n## also owned',
  '- a list item\n+ another\n* and another\n1. numbered\n2) numbered too',
  'what about\n\n<div>\n\n> a quote\n\n```js\nalert(1)\n```\n\n---\n\n| a | b |\n| - | - |\n| c | d |',
  'click [here](javascript:alert(1)) or ![img](https://evil.example/x.png) or [^1]\n\n[^1]: note',
  '**bold** _em_ ~~gone~~ `code` &lt;b&gt; &amp; &#60;script&#62; \\<escaped\\> \\',
  'see https://evil.example/login or www.evil.example or mail support@evil.example ###',
  '<Card title="x">{1 + 1}</Card> <!-- comment -->',
]

/** The text a reader sees of a node: word joiners (invisible; they keep addresses from becoming links) left out. */
const shown = (node: Nodes) => textOf(node).replaceAll('\u2060', '')
/** A question as a reader wrote it, on one line. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()

/** Every node of a tree, depth first. */
function* nodes(node: Nodes): Generator<Nodes> {
  yield node
  if ('children' in node) for (const child of node.children as Nodes[]) yield* nodes(child)
}

/** The FAQ page once the gaps' questions are written into it (or into a new `faq.mdx`). */
function faqWith(gaps: ReaderGap[], docs = tree): string {
  const { edits } = proposeGapQuestions(docs, gaps, '2026-01-05')
  const texts = applyFileEdits(docs.files, edits)
  return texts.get('faq.mdx')!
}

const gap = (title: string, more: Partial<ReaderGap> = {}): ReaderGap => ({
  id: title,
  title,
  questions: [{ query: title, count: 1 }],
  pages: [],
  closest: [],
  ...more,
})

describe('proposeGapQuestions: readers’ text is written as inert text', () => {
  it('keeps the FAQ page valid MDX, each question one heading that shows it as asked', () => {
    for (const docs of [
      tree,
      readDocsTree(
        new Map([
          ['docs.json', '{"navigation":{"pages":["index"]}}'],
          ['index.mdx', '# Home\n'],
        ]),
      ),
    ]) {
      const page = faqWith(
        HOSTILE.map((title) => gap(title)),
        docs,
      )
      // How the search index decides a page is not MDX (a project lists it under `notMdx`; Mintlify fails its build).
      expect(parsePage('faq', page).mdx).toBe(true)
      const { tree: root, mdx } = parseMarkdown(page)
      expect(mdx).toBe(true)
      const questions = root.children.filter((node): node is Heading => node.type === 'heading' && node.depth === 3)
      expect(questions.map(shown)).toEqual(HOSTILE.map(oneLine))
      // Nothing a reader wrote became markup: no HTML, JSX, expression, ESM, list, code block, table or extra heading.
      const kinds = new Set([...nodes(root)].map((node) => node.type))
      for (const kind of ['html', 'mdxJsxFlowElement', 'mdxJsxTextElement', 'mdxFlowExpression', 'mdxTextExpression', 'mdxjsEsm'])
        expect(kinds).not.toContain(kind)
      for (const kind of ['list', 'code', 'inlineCode', 'table', 'thematicBreak', 'link', 'image', 'footnoteReference'])
        expect(kinds).not.toContain(kind)
      expect(root.children.filter((node) => node.type === 'heading').length).toBe((docs === tree ? 2 : 1) + HOSTILE.length)
    }
  })

  it('carries no link a reader wrote, even where GFM makes links of plain addresses', () => {
    const page = faqWith(HOSTILE.map((title) => gap(title)))
    const root: Root = fromMarkdown(page, { extensions: [mdxjs(), gfm()], mdastExtensions: [mdxFromMarkdown(), gfmFromMarkdown()] })
    expect([...nodes(root)].filter((node) => node.type === 'link' || node.type === 'image')).toEqual([])
    expect(root.children.filter((node) => node.type === 'heading' && node.depth === 3).map(shown)).toEqual(HOSTILE.map(oneLine))
  })

  it('writes other wordings, the pages readers were on and the nearest sections as inert text too', () => {
    const page = faqWith([
      gap('How do I rent a kayak?', {
        questions: [{ query: 'How do I rent a kayak?', count: 3 }, ...HOSTILE.slice(0, 4).map((query) => ({ query, count: 1 }))],
        pages: ['https://docs.example.com/a`b``c', 'https://docs.example.com/{x}<y>', '`'],
        closest: [
          { title: 'Rentals <Card> {x}', url: '/guides/rentals (old)' },
          { title: 'Elsewhere', url: 'javascript:alert(1)' },
        ],
      }),
    ])
    expect(parsePage('faq', page).mdx).toBe(true)
    const { tree: root } = parseMarkdown(page)
    const text = shown(root)
    for (const query of HOSTILE.slice(0, 4)) expect(text).toContain(`“${oneLine(query)}”`)
    const spans = [...nodes(root)].flatMap((node) => (node.type === 'inlineCode' ? [node.value] : []))
    expect(spans).toEqual(['https://docs.example.com/a`b``c', 'https://docs.example.com/{x}<y>', '`'])
    const links = [...nodes(root)].flatMap((node) => (node.type === 'link' ? [[shown(node), node.url]] : []))
    expect(links).toEqual([['Rentals <Card> {x}', '/guides/rentals%20%28old%29']])
    expect(text).toContain('Elsewhere')
  })

  it('bounds a question’s length, and knows the questions it already wrote', () => {
    const long = `why ${'<b>{x}</b> '.repeat(5_000)}?`
    const page = faqWith([gap(long), ...HOSTILE.map((title) => gap(title))])
    const heading = parseMarkdown(page).tree.children.find((node): node is Heading => node.type === 'heading' && node.depth === 3)!
    expect(Array.from(shown(heading)).length).toBe(MAX_QUESTION)
    expect(shown(heading).endsWith('…')).toBe(true)
    const again = readDocsTree(new Map([...tree.files, ['faq.mdx', page]]))
    expect(proposeGapQuestions(again, [gap(long), ...HOSTILE.map((title) => gap(title))], '2026-01-12').proposed).toBe(0)
  })

  it('lists the questions in the pull request’s summary as inert text', () => {
    const { summary } = proposeGapQuestions(
      tree,
      HOSTILE.map((title) => gap(title)),
      '2026-01-05',
    )
    const root = fromMarkdown(summary, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })
    const kinds = new Set([...nodes(root)].map((node) => node.type))
    for (const kind of ['html', 'link', 'image', 'code', 'heading', 'table']) expect(kinds).not.toContain(kind)
    for (const question of HOSTILE) expect(shown(root)).toContain(oneLine(question))
  })
})

describe('proposeFeedback: readers’ comments are written as inert text', () => {
  it('keeps the page valid MDX and shows each comment as written', () => {
    const feedback = HOSTILE.map(
      (comment, index): ReaderFeedback => ({ id: String(index), path: '/guides/setup', comment, helpful: false, createdAt: new Date(0) }),
    )
    const { edits } = proposeFeedback(tree, feedback, '2026-01-05')
    const page = applyFileEdits(tree.files, edits).get('guides/setup.mdx')!
    expect(parsePage('guides/setup', page).mdx).toBe(true)
    const { tree: root } = parseMarkdown(page)
    const items = [...nodes(root)].flatMap((node) => (node.type === 'listItem' ? [shown(node)] : []))
    expect(items).toEqual(HOSTILE.map((comment) => `“${oneLine(comment)}”`))
    const kinds = new Set([...nodes(root)].map((node) => node.type))
    for (const kind of ['html', 'mdxJsxFlowElement', 'mdxJsxTextElement', 'mdxTextExpression', 'link', 'image', 'code', 'table'])
      expect(kinds).not.toContain(kind)
    expect(root.children.filter((node) => node.type === 'heading').length).toBe(2)
  })
})
