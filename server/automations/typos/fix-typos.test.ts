import { beforeAll, describe, expect, it } from 'vitest'
import { parseMarkdown } from '../../search/markdown.ts'
import { findFrontmatter, readDocsTree } from '../docs-tree.ts'
import { applyFileEdits } from '../edits.ts'
import { slipCost } from './corrections.ts'
import { fixTypos } from './fix-typos.ts'
import { proseWords } from './prose-words.ts'
import { loadEnglishSpeller, type Speller } from './speller.ts'

let speller: Speller
beforeAll(async () => {
  speller = await loadEnglishSpeller()
})

const words = (source: string) => proseWords(parseMarkdown(source).tree, source, findFrontmatter(source)).map((word) => word.word)

describe('proseWords', () => {
  it('reads prose and leaves code, URLs, paths, tags, attributes and frontmatter keys out', () => {
    // A possessive or contracted `'s` is left off: `It's` is read as `It`, `Acme's` as `Acme`.
    const source = [
      '---',
      'title: "Quick start"',
      'icon: rocket',
      'description: Install it fast.',
      '---',
      '',
      '# Set up',
      '',
      'Run `npm install` then open docs.json, api/v2, https://example.com/path or --flag and my_var x=1.',
      '',
      '<Card title="Card title" href="/cards">Card body text</Card>',
      '',
      '```js',
      'const notProse = true',
      '```',
      '',
      "It's the [link text](/not/this) and {expression} with <b>bold</b>.",
    ].join('\n')
    expect(words(source)).toEqual([
      'Quick',
      'start',
      'Install',
      'it',
      'fast',
      'Set',
      'up',
      'Run',
      'then',
      'open',
      'or',
      'and',
      'Card',
      'body',
      'text',
      'It',
      'the',
      'link',
      'text',
      'and',
      'with',
      'bold',
    ])
  })

  it('marks words that start a sentence or sit in a title', () => {
    const source = '## Big Title\n\nFirst word. Then Acme: Next one, and Acme again.\n'
    const read = proseWords(parseMarkdown(source).tree, source)
    expect(read.filter((word) => word.sentenceStart).map((word) => word.word)).toEqual(['Big', 'First', 'Then', 'Next'])
    expect(read.filter((word) => word.title).map((word) => word.word)).toEqual(['Big', 'Title'])
  })

  it('reads a word without the punctuation after it, and a quoted frontmatter value with spaces after the quote', () => {
    const source = '---\ntitle: "Quick start" \t\ndescription: \'It\'s fast\'\n---\n\nWell (done)!” Really?… "Yes".\n'
    expect(words(source)).toEqual(['Quick', 'start', 'It', 'fast', 'Well', 'done', 'Really', 'Yes'])
    const title = proseWords(parseMarkdown(source).tree, source, findFrontmatter(source))[0]!
    expect(source.slice(title.start, title.end)).toBe('Quick')
  })

  it('reads long runs of punctuation, quotes and spaces in time linear in them', () => {
    // Trailing punctuation was read again from each mark of a run; frontmatter values of many quotes and spaces too.
    expect(words(`Done${'!'.repeat(100_000)} and${'!'.repeat(100_000)}x too\n`)).toEqual(['Done', 'too'])
    expect(words(`---\ntitle: "${'"\t'.repeat(50_000)}x\n---\n`)).toEqual(['x'])
    expect(words(`---\ntitle: "Quick${'\t'.repeat(100_000)}"${'\t'.repeat(100_000)}\n---\n`)).toEqual(['Quick'])
  })
})

describe('slipCost', () => {
  it('weighs the slips people make lightly and others fully', () => {
    expect(slipCost('recieve', 'receive')).toBe(0.5)
    expect(slipCost('occured', 'occurred')).toBe(0.5)
    expect(slipCost('seperate', 'separate')).toBe(0.75)
    expect(slipCost('truely', 'truly')).toBe(0.75)
    expect(slipCost('futher', 'father')).toBe(1)
    expect(slipCost('enviroment', 'environment')).toBe(1)
  })
})

/** Real-world misspellings (Wikipedia's list of common misspellings), none of them known to the checker in advance. */
const PLANTED: Array<[string, string]> = [
  ['recieve', 'receive'],
  ['seperate', 'separate'],
  ['enviroment', 'environment'],
  ['dependancy', 'dependency'],
  ['occured', 'occurred'],
  ['definately', 'definitely'],
  ['accomodate', 'accommodate'],
  ['untill', 'until'],
  ['begining', 'beginning'],
  ['existance', 'existence'],
  ['goverment', 'government'],
  ['neccessary', 'necessary'],
  ['occurence', 'occurrence'],
  ['persistant', 'persistent'],
  ['succesful', 'successful'],
  ['threshhold', 'threshold'],
  ['writting', 'writing'],
  ['acheive', 'achieve'],
  ['immediatly', 'immediately'],
  ['foriegn', 'foreign'],
]

function site(pages: Record<string, string>) {
  return readDocsTree(
    new Map(Object.entries({ 'docs.json': JSON.stringify({ name: 'Acme Flux', navigation: { pages: Object.keys(pages) } }), ...pages })),
  )
}

describe('fixTypos', () => {
  it('corrects misspellings it was not given, keeping case, and changes nothing else', () => {
    const prose = PLANTED.map(([wrong], i) =>
      i % 2 ? `Then ${wrong} here.` : `${wrong[0]!.toUpperCase()}${wrong.slice(1)} starts this one.`,
    )
    const text = `# Guide\n\n${prose.join(' ')}\n`
    const tree = site({ 'guide.mdx': text })
    const { edits, report } = fixTypos(tree, { speller })
    const fixed = applyFileEdits(tree.files, edits).get('guide.mdx')
    const expected = PLANTED.reduce(
      (out, [wrong, right]) =>
        out.replace(new RegExp(`\\b${wrong}\\b`, 'i'), (found) =>
          found[0] === found[0]!.toUpperCase() ? right[0]!.toUpperCase() + right.slice(1) : right,
        ),
      text,
    )
    expect(fixed).toBe(expected)
    expect(report).toMatchObject({ fixed: PLANTED.length, listed: 0, files: 1 })
  })

  it('leaves code, URLs, identifiers, product names and the docs’ own words alone', () => {
    const page = [
      '# Acme Flux',
      '',
      'Use `recieve()` and the seperate_value flag, RECIEVE, recieveMessage, https://recieve.example.com/enviroment.',
      '',
      '```sh',
      'flux --enviroment prod',
      '```',
      '',
      'Our product Fluxly works with Fluxly agents. The fluxlet runs each fluxlet in a fluxlet pool.',
      '',
      '<Tip icon="enviroment">Card text.</Tip>',
    ].join('\n')
    const { edits, report } = fixTypos(site({ 'index.mdx': page }), { speller })
    expect(edits).toEqual([])
    expect(report.misspellings).toEqual([])
  })

  it('lists what it is not sure of with suggestions, and a British spelling as a style, not a slip', () => {
    const { edits, report, summary } = fixTypos(site({ 'index.mdx': '# Home\n\nThe peice of it. We initialise the colour here.\n' }), {
      speller,
    })
    expect(edits).toEqual([])
    // `colour` is in the dictionary already; `initialise` is not, and stays.
    expect(report.misspellings.map((item) => [item.word, item.suggestions[0]])).toEqual([
      ['peice', 'piece'],
      ['initialise', 'initialize'],
    ])
    expect(summary).toContain('- `index.mdx:3` peice (maybe piece, peace, price)')
  })

  it('skips pages in other languages and knows words built from known words', () => {
    const tree = readDocsTree(
      new Map([
        [
          'docs.json',
          JSON.stringify({
            navigation: {
              languages: [
                { language: 'en', pages: ['index'] },
                { language: 'fr', pages: ['fr/index'] },
              ],
            },
          }),
        ],
        ['index.mdx', '# Home\n\nThe webhook dropdown and the unclosed tags, expirations and load balancers.\n'],
        ['fr/index.mdx', '# Accueil\n\nLa documentation est recieve.\n'],
      ]),
    )
    const { report } = fixTypos(tree, { speller })
    expect(report).toMatchObject({ files: 1, skippedFiles: 1, misspellings: [] })
  })

  it('takes the project’s terms as given', () => {
    const { report } = fixTypos(site({ 'index.mdx': '# Home\n\nThe fluxlet agent.\n' }), { speller, terms: ['fluxlet'] })
    expect(report.misspellings).toEqual([])
  })
})
