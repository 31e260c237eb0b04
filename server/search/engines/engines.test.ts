import { readFile } from 'node:fs/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { chunkPage } from '../chunk.ts'
import { readDocsSite } from '../docs-site.ts'
import { readDirectory } from '../sources/directory.ts'
import type { Section } from '../types.ts'
import { miniSearchIndex } from './minisearch.ts'
import { packedIndex } from './packed.ts'
import { MINISEARCH_SATURATION } from './packed-postings.ts'
import type { SectionIndex } from './types.ts'
import type { SearchQuery } from '../query.ts'
import { contentWords, MAX_QUERY_TERMS } from '../terms.ts'

let sections: Section[]
let questions: string[]

beforeAll(async () => {
  const site = readDocsSite(await readDirectory('demo/docs'))
  sections = [...site.pages.values()].filter((p) => !p.meta.hidden).flatMap((page) => chunkPage(page))
  questions = (JSON.parse(await readFile('bench/search-quality/questions.json', 'utf8')) as Array<{ question: string }>).map(
    (q) => q.question,
  )
})

// Word families (`approve` for `approval`) and the short fields' saturation are the packed engine's own; without them it
// ranks as MiniSearch does.
describe('the packed engine ranks as MiniSearch does', () => {
  /** The top 5 as [id, score], ties ordered by id (the engines may order equal scores differently). */
  /** The question's own words only: synonyms are the packed engine's, not MiniSearch's. */
  const plain = (question: string): SearchQuery => ({
    words: contentWords(question, MAX_QUERY_TERMS).map((word) => ({ terms: [{ word, weight: 1 }], weight: 1, counts: true })),
  })
  const top = (index: SectionIndex, query: string, options: Partial<Parameters<SectionIndex['search']>[1]> = {}) => {
    const hits = index.search(plain(query), { limit: 10, ...options }).map((hit) => ({
      id: hit.section.id,
      score: Number(hit.score.toFixed(6)),
    }))
    hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
    const cut = hits.slice(0, 5)
    // A tie across the cut may keep either section.
    const boundary = hits[5] && hits[5].score === hits[4]!.score ? hits[4]!.score : undefined
    return cut.map((hit) => [hit.score === boundary ? '(tie)' : hit.id, hit.score])
  }

  it('gives the same top 5 sections and scores for every question', () => {
    const mini = miniSearchIndex(sections)
    const packed = packedIndex(sections, { family: false, saturation: MINISEARCH_SATURATION, lengthAsRead: false })
    for (const question of [...questions, 'percentge rollouts', 'webhk', 'sdk']) {
      expect(top(packed, question), question).toEqual(top(mini, question))
    }
  })

  it('applies filters and boosts alike', () => {
    const mini = miniSearchIndex(sections)
    const packed = packedIndex(sections, { family: false, saturation: MINISEARCH_SATURATION, lengthAsRead: false })
    const options = { filter: (s: Section) => s.path.startsWith('sdks/'), boost: (s: Section) => (s.path === 'sdks/go' ? 2 : 1) }
    for (const question of questions.slice(0, 40)) expect(top(packed, question, options), question).toEqual(top(mini, question, options))
  })

  it('scores favoured sections first and prunes the rest with the smaller bound, to the same results', () => {
    const packed = packedIndex(sections)
    const favoured = sections.flatMap((s, i) => (s.path.startsWith('sdks/') ? [i] : []))
    const boost = (s: Section) => (s.path.startsWith('sdks/') ? 1.5 : 1)
    for (const question of questions.slice(0, 60)) {
      const plain = top(packed, question, { boost, maxBoost: 1.5 })
      expect(top(packed, question, { boost, maxBoost: 1.5, favoured, restBoost: 1 }), question).toEqual(plain)
    }
  })
})

describe('pruning in the packed engine', () => {
  // With a limit as large as the corpus nothing is pruned: every posting is scored. The best 3 as [id, score]; a tie
  // across the cut may keep either section.
  const ranked = (index: SectionIndex, question: string, limit: number, options: Partial<Parameters<SectionIndex['search']>[1]> = {}) => {
    const hits = index
      .search(question, { limit, ...options })
      .map((hit) => ({ id: hit.section.id, score: Number(hit.score.toFixed(9)) }))
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
    const boundary = hits[3] && hits[3].score === hits[2]!.score ? hits[2]!.score : undefined
    return hits.slice(0, 3).map((hit) => [hit.score === boundary ? '(tie)' : hit.id, hit.score])
  }

  it('keeps the same best sections as scoring every posting, in whatever order the lists are read', () => {
    const packed = packedIndex(sections)
    const boost = (s: Section) => (s.path.startsWith('sdks/') ? 1.5 : 1)
    for (const question of [...questions, 'percentge rollouts', 'webhk', 'sdk']) {
      expect(ranked(packed, question, 4), question).toEqual(ranked(packed, question, sections.length))
      expect(ranked(packed, question, 4, { boost, maxBoost: 1.5 }), question).toEqual(
        ranked(packed, question, sections.length, { boost, maxBoost: 1.5 }),
      )
    }
  })
})

describe('what the packed engine indexes of links to other pages', () => {
  const section = (id: string, content: string): Section => ({
    id,
    path: id,
    url: `/${id}`,
    anchor: '',
    pageTitle: id,
    headings: [id],
    content,
    groups: [],
    tags: [],
  })
  const links = Array.from({ length: 12 }, (_, i) => `[Guide ${i} topic${i}](/guides/g${i})`).join(', ')
  const filler = Array.from({ length: 12 }, (_, i) => `Guide ${i} other${i} guides h${i}`).join(', ')
  const overview = section('overview', `Rollout basics. See ${links}.`)
  const page = section('page', `Rollout basics. See ${filler}.`)
  const guide = section('guide', 'Topic3 is explained here in full.')
  const query = (word: string): SearchQuery => ({ words: [{ terms: [{ word, weight: 1 }], weight: 1, counts: true }] })

  it("leaves a link's words to the page it leads to", () => {
    const hits = packedIndex([overview, page, guide]).search(query('topic3'), { limit: 5 })
    expect(hits.map((hit) => hit.section.id)).toEqual(['guide'])
  })

  it("finds a word's automatic kind ('merge' finds automerge), not other compounds ('view' is not preview)", () => {
    const automerge = section('automerge', 'Configure automerge so pull requests land on their own.')
    const preview = section('preview', 'Open a preview of every branch.')
    const index = packedIndex([automerge, preview, guide])
    expect(index.search(query('merges'), { limit: 5 }).map((hit) => hit.section.id)).toEqual(['automerge'])
    expect(index.search(query('view'), { limit: 5 })).toEqual([])
  })

  it("leaves a field's default out of the words searched: the answer quotes it, the ranking does not weigh it", () => {
    const field = section('field', 'context_kind string: The kind of context. Default: `user`.')
    const index = packedIndex([field, guide])
    expect(index.search(query('user'), { limit: 5 })).toEqual([])
    expect(index.search(query('kind'), { limit: 5 }).map((hit) => hit.section.id)).toEqual(['field'])
  })

  it('counts a section as long as it reads, links included', () => {
    const score = (index: SectionIndex, id: string) =>
      index.search(query('rollout'), { limit: 5 }).find((hit) => hit.section.id === id)!.score
    const asRead = packedIndex([overview, page, guide])
    expect(score(asRead, 'overview')).toBeCloseTo(score(asRead, 'page'), 6)
    // As indexed (MiniSearch's count), the overview is shorter than it reads and its other words weigh more.
    const asIndexed = packedIndex([overview, page, guide], { lengthAsRead: false })
    expect(score(asIndexed, 'overview')).toBeGreaterThan(score(asIndexed, 'page'))
  })
})
