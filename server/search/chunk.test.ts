import { describe, expect, it } from 'vitest'
import { chunkPage } from './chunk.ts'
import type { DocPage } from './docs-site.ts'
import { type ChunkOptions, DEFAULT_CHUNKING } from './chunk.ts'
import { parsePage } from './parse-page.ts'

function page(path: string, source: string, chunking: ChunkOptions = DEFAULT_CHUNKING): DocPage {
  return {
    ...parsePage(path, source, { chunking }),
    url: `/${path}`,
    languages: [],
    versions: [],
    boost: 1,
    hidden: false,
    listed: true,
    inContext: true,
    searchable: true,
  }
}

const long = (word: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${word} sentence number ${i} says something useful about ${word}.`).join(' ')

describe('chunkPage', () => {
  it('splits at headings with title, heading trail, anchor and URL', () => {
    const sections = chunkPage(
      page(
        'guides/rollouts',
        `# Rollouts\n\n${long('intro', 6)}\n\n## Roll out to 10%\n\n${long('ramp', 6)}\n\n### Bucketing\n\n${long(
          'bucket',
          6,
        )}\n\n## Roll out to 10%\n\n${long('again', 6)}\n`,
      ),
    )
    expect(sections.map((s) => s.anchor)).toEqual(['', 'roll-out-to-10', 'bucketing', 'roll-out-to-10-1'])
    expect(sections[2]).toMatchObject({
      id: 'guides/rollouts#bucketing',
      path: 'guides/rollouts',
      url: '/guides/rollouts#bucketing',
      pageTitle: 'Rollouts',
      headings: ['Rollouts', 'Roll out to 10%', 'Bucketing'],
    })
    expect(sections[0]!.url).toBe('/guides/rollouts')
    expect(sections[2]!.content).toContain('bucket sentence number 0')
    expect(sections[2]!.content).not.toContain('ramp')
  })

  it('merges tiny sections into a neighbour', () => {
    const sections = chunkPage(page('a', `# A\n\n${long('intro', 6)}\n\n## Empty\n\n## Tiny\n\nOne line.\n\n## Big\n\n${long('big', 6)}\n`))
    expect(sections.map((s) => s.anchor)).toEqual(['', 'big'])
    expect(sections[0]!.content).toContain('## Tiny')
    expect(sections[0]!.content).toContain('One line.')
  })

  it('splits long sections on paragraph boundaries with overlap', () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i}: ${long('p', 1)}`)
    const sections = chunkPage(page('long', `# Long\n\n## Part\n\n${paragraphs.join('\n\n')}\n`, { minChars: 50, maxChars: 600 }))
    const parts = sections.filter((s) => s.anchor === 'part')
    expect(parts.length).toBeGreaterThan(3)
    expect(new Set(parts.map((s) => s.id)).size).toBe(parts.length)
    for (const part of parts) expect(part.content.length).toBeLessThanOrEqual(600 + 200)
    // Each piece starts with the paragraph the previous one ended with.
    for (let i = 1; i < parts.length; i++) {
      const previousLast = parts[i - 1]!.content.split('\n\n').at(-1)!
      expect(parts[i]!.content.startsWith(previousLast)).toBe(true)
    }
    const all = parts.map((s) => s.content).join('\n\n')
    for (const p of paragraphs) expect(all).toContain(p)
  })

  it('cuts a huge code block at line ends', () => {
    const code = Array.from({ length: 400 }, (_, i) => `console.log(${i}) // line ${i}`).join('\n')
    const sections = chunkPage(page('code', `# Code\n\n\`\`\`js\n${code}\n\`\`\`\n`, { minChars: 50, maxChars: 1000 }))
    expect(sections.length).toBeGreaterThan(5)
    expect(sections.every((s) => s.content.length <= 2000)).toBe(true)
    // Every piece is still a fenced code block.
    for (const section of sections) expect(section.content).toMatch(/^```js\n[\s\S]*\n```$/)
  })

  it('cuts a huge block of one line of backticks or tildes where pieces end, in time linear in it', () => {
    for (const line of ['`'.repeat(100_000), '~'.repeat(100_000)]) {
      const sections = chunkPage(page('fence', `# Fence\n\n${line}\n`, { minChars: 50, maxChars: 1000 }))
      expect(sections.map((section) => section.content.length)).toEqual(Array(100).fill(1000))
      expect(sections.map((section) => section.content).join('')).toBe(line)
    }
  })

  it('cuts a page written on one line after a space, so no section holds a megabyte', () => {
    const words = Array.from({ length: 100_000 }, (_, i) => `word${i}`)
    const sections = chunkPage(page('one-line', `# One line\n\n${words.join(' ')}\n`, { minChars: 50, maxChars: 1000 }))
    expect(sections.length).toBeGreaterThan(600)
    expect(Math.max(...sections.map((section) => section.content.length))).toBeLessThanOrEqual(1000)
    // Every word whole, in order: cut only at spaces.
    expect(sections.flatMap((section) => section.content.trim().split(/\s+/))).toEqual(words)
  })

  it('takes version, language, groups and tags from the page and its navigation', () => {
    const p = page('api/v1/flags', `---\ntags: [api]\nkeywords: [legacy]\ngroups: [admins]\n---\n# Flags\n\n${long('x', 3)}`)
    p.nav = {
      path: 'api/v1/flags',
      groups: ['API', 'v1'],
      version: 'v1',
      versions: ['v1'],
      languages: ['en'],
      language: 'en',
      order: 3,
      list: 2,
      boost: 1,
      hidden: false,
      searchable: false,
    }
    Object.assign(p, { version: 'v1', versions: ['v1'], language: 'en', languages: ['en'] })
    const [section] = chunkPage(p)
    expect(section).toMatchObject({
      version: 'v1',
      versions: ['v1'],
      language: 'en',
      languages: ['en'],
      groups: ['API', 'v1', 'admins'],
      tags: ['api', 'legacy'],
    })
  })
})
