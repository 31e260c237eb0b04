import { readFileSync } from 'node:fs'
import type { Heading, Nodes, Paragraph } from 'mdast'
import { toString as textOf } from 'mdast-util-to-string'
import { describe, expect, test } from 'vitest'
import { headingOf, offlineFixPrompt, sectionBody } from '../../server/analytics/gaps/prompt.ts'
import type { GapQuestion } from '../../server/analytics/gaps/questions.ts'
import { parseInstruction } from '../../server/models/edit-instructions.ts'
import { type PastCall, planNextStep } from '../../server/models/offline-plan.ts'
import { parseSource } from '../../server/search/parse-page.ts'
import { sampleGap } from '../../server/store/conformance-analytics.ts'

// A gap fix writes the readers' questions into a docs page: its heading, and the other wordings under "Also asked as".
// Readers type component names, HTML and braces; the page must stay valid MDX and show the questions as they asked.

const at = new Date('2026-03-01T00:00:00Z')
const asked = (query: string, count = 1): GapQuestion => ({ query, count, lastAskedAt: at, firstAskedAt: at, asked: true })

/** Questions a developer asks that MDX would read as markup if written as they are. */
const QUESTIONS = [
  'can I nest an <Accordion> inside a kayak step?',
  'nesting <Accordion> in kayak steps',
  "terraform provider lumen flags <img src=x onerror=alert('gap')>",
  'how do I print {x} or {process.env.KEY} in a page}',
  '<Card title="x">{1 + 1}</Card> <!-- a comment --> & C#',
  '1. what does *this* [link](javascript:alert(1)) do at https://lumen.test',
]
/** The page the sections are appended to, as the demo has it. */
const page = readFileSync(new URL('../../demo/docs/guides/testing.mdx', import.meta.url), 'utf8')
const facts = 'Put the `<Accordion>` inside the **kayak step**, one per step.'

/** What a reader sees of a node (word joiners, invisible, keep addresses from becoming links). */
const shown = (node: Nodes) => textOf(node).replaceAll('\u2060', '')
function* nodes(node: Nodes): Generator<Nodes> {
  yield node
  if ('children' in node) for (const child of node.children as Nodes[]) yield* nodes(child)
}

/** The page as the offline editor leaves it after carrying out the prompt, through its own planner. */
function carriedOut(prompt: string, text: string): string {
  const instruction = parseInstruction(prompt)
  expect(instruction).toMatchObject({ kind: 'append-section', page: 'guides/testing' })
  const listed: PastCall[] = [
    { toolName: 'list_files', input: {}, output: { files: ['guides/testing.mdx'] }, error: null },
    { toolName: 'search_docs', input: {}, output: { results: [] }, error: null },
  ]
  const read: PastCall[] = [{ toolName: 'read_file', input: { path: 'guides/testing.mdx' }, output: { content: text }, error: null }]
  const step = planNextStep(prompt, [listed, read])
  if (!('calls' in step)) throw new Error(`the offline editor did not write: ${step.text}`)
  expect(step.calls[0]).toMatchObject({ toolName: 'write_file', input: { path: 'guides/testing.mdx' } })
  return String(step.calls[0]!.input.content)
}

describe('readers’ questions written into a page by a gap fix', () => {
  test.each(QUESTIONS.map((question, index) => [question, QUESTIONS.filter((_, other) => other !== index)]))(
    'the page stays valid MDX and shows “%s” as asked',
    (first, others) => {
      const questions = [asked(first, 3), ...others.map((query) => asked(query))]
      const prompt = offlineFixPrompt({ gap: sampleGap(), questions, pages: [], page: 'guides/testing', text: facts })!
      expect(prompt).not.toBeNull()
      const written = carriedOut(prompt, page)

      // How the search index decides a page is not valid MDX (listed under `notMdx`; an MDX site's build fails on it).
      const { tree, mdx } = parseSource(written)
      expect(mdx).toBe(true)
      const added = tree.children.slice(parseSource(page).tree.children.length)
      const heading = added.find((node): node is Heading => node.type === 'heading')!
      const withoutQuotes = first.replace(/["“”`]/g, '')
      expect(shown(heading)).toBe(withoutQuotes.charAt(0).toUpperCase() + withoutQuotes.slice(1))
      const also = added.find((node): node is Paragraph => node.type === 'paragraph' && shown(node).startsWith('Also asked as: '))!
      expect(shown(also)).toBe(`Also asked as: ${others.map((query) => `“${query.replace(/["“”]/g, '')}”`).join(' · ')}`)
      // Nothing a reader wrote became markup.
      const kinds = new Set(added.flatMap((node) => [...nodes(node)].map((inner) => inner.type)))
      for (const kind of ['html', 'mdxJsxFlowElement', 'mdxJsxTextElement', 'mdxFlowExpression', 'mdxTextExpression', 'link', 'list'])
        expect(kinds).not.toContain(kind)
      // The writer's facts are the team's: written as they are, markup included.
      expect(written).toContain(`\n\n${facts}\n\nAlso asked as: `)
      expect(added.filter((node) => node.type === 'heading')).toHaveLength(1)
    },
  )

  test('the heading and the other wordings are inert on their own, and a wording like the heading is left out', () => {
    const heading = headingOf('## {x} <Accordion> `code` "quoted"?')
    expect(parseSource(`## ${heading}\n`).mdx).toBe(true)
    expect(shown(parseSource(`## ${heading}\n`).tree.children[0]!)).toBe('{x} <Accordion> code quoted?')
    const body = sectionBody('Facts.', [asked('{x} <Accordion> code quoted?'), asked('{y} </Accordion>')], heading)
    expect(body).toBe('Facts.\n\nAlso asked as: “\\{y\\} \\</Accordion\\>”')
    expect(parseSource(body).mdx).toBe(true)
  })
})
