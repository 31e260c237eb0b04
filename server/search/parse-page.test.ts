import { describe, expect, it } from 'vitest'
import { parsePage, readPage } from './parse-page.ts'

const PAGE = `---
title: "Install the SDK"
description: Add the SDK to your app.
tags: [sdk, install]
keywords: setup, getting started
version: v2
groups: [admins]
---

import Prereqs from '/snippets/prereqs.mdx'
export const meta = { internal: true }

# Install the SDK

Intro with an {"inline"} expression and a <Tooltip tip="hint">tooltip</Tooltip> word.

<Prereqs />

<Note>
  Keep your **server** key secret.
</Note>

<CardGroup cols={2}>
  <Card title="Node.js" href="/sdks/node">Server side.</Card>
  <Card title="Browser" icon="globe" />
</CardGroup>

<Card title="Flags" icon="flag" href="../flags/create">
  Create and target **flags**.

  Any plan.
</Card>

<Card title="Status page" href="https://status.example.com">
  Uptime of every region.
</Card>

## Configure

<Tabs>
  <Tab title="npm">
    \`\`\`bash
    npm install @lumenflags/node
    \`\`\`
  </Tab>
</Tabs>

{/* a comment readers never see */}

<ParamField path="flagKey" type="string" required>
  The flag's key.
</ParamField>
`

describe('parsePage', () => {
  const snippet = readPage('snippets/prereqs', 'You need an **account**.\n').blocks
  const page = parsePage('sdks/install', PAGE, { snippet: (path) => (path === '/snippets/prereqs.mdx' ? snippet : undefined) })
  const markdown = page.markdown

  it('reads frontmatter', () => {
    expect(page.title).toBe('Install the SDK')
    expect(page.meta).toMatchObject({
      description: 'Add the SDK to your app.',
      tags: ['sdk', 'install'],
      keywords: ['setup', 'getting started'],
      version: 'v2',
      groups: ['admins'],
      hidden: false,
      noindex: false,
    })
    expect(page.mdx).toBe(true)
  })

  it('reduces MDX components, imports, exports and expressions to the text a reader sees', () => {
    expect(markdown).not.toMatch(/import |export const|<Note>|<\/?Tabs?|<Card|<Tooltip|\{\/\*|cols=/)
    expect(markdown).toContain('Intro with an inline expression and a tooltip word.')
    expect(markdown).toContain('Keep your **server** key secret.')
    expect(markdown).toContain('Node.js')
    expect(markdown).toContain('Server side.')
    expect(markdown).toContain('flagKey string')
    expect(markdown).toContain("The flag's key.")
    expect(markdown).not.toContain('a comment readers never see')
  })

  it("links a card's title to the page its href leads to, on one line with its first paragraph", () => {
    expect(markdown).toContain('[Node.js](/sdks/node): Server side.')
    expect(markdown).toContain('[Flags](../flags/create): Create and target **flags**.\n\nAny plan.')
    // An external site is not a page of the docs: its title stays a label.
    expect(markdown).toContain('Status page\n\nUptime of every region.')
    expect(markdown).not.toContain('[Status page]')
    expect(markdown).toContain('Browser')
  })

  it("ends a field's description with its default, as the rendered docs show it beside the field's name", () => {
    const fields = [
      '<ParamField query="limit" type="integer" default="50">',
      '  1–200.',
      '</ParamField>',
      '',
      '<ResponseField name="cols" type="number" default={2} />',
      '',
      '<ParamField body="tags" type="array" default="[]">',
      '  - one tag',
      '  - another',
      '</ParamField>',
    ].join('\n')
    const text = parsePage('api/list', fields).markdown
    expect(text).toContain('limit integer\n\n1–200. Default: `50`.')
    expect(text).toContain('cols number\n\nDefault: `2`.')
    // After a list, the default is a sentence of its own, not a list item.
    expect(text).toContain('- another\n\nDefault: `[]`.')
  })

  it('inlines imported snippets and keeps code blocks with their language, dedented', () => {
    expect(markdown).toContain('You need an **account**.')
    expect(markdown).toContain('```bash\nnpm install @lumenflags/node\n```')
  })

  it('keeps the heading structure', () => {
    const headings = readPage('sdks/install', PAGE)
      .blocks.filter((b) => b.kind === 'heading')
      .map((b) => (b.kind === 'heading' ? `${b.depth} ${b.text}` : ''))
    expect(headings).toEqual(['1 Install the SDK', '2 Configure'])
    expect(markdown.startsWith('# Install the SDK\n')).toBe(true)
  })

  it('reads hidden and noindex pages, titles from the first heading or the file name', () => {
    expect(parsePage('a', '---\nhidden: true\n---\n# A\n').meta.hidden).toBe(true)
    expect(parsePage('a', '---\nnoindex: true\n---\n# A\n').meta.noindex).toBe(true)
    expect(parsePage('a', '---\nrobots: "noindex, nofollow"\n---\n# A\n').meta.noindex).toBe(true)
    expect(parsePage('guides/x', '# From heading\n\ntext').title).toBe('From heading')
    expect(parsePage('guides/rate-limits', 'text only').title).toBe('Rate limits')
    expect(parsePage('guides/rate-limits', 'text only').markdown).toBe('# Rate limits\n\ntext only\n')
  })

  it('reads a page that is not valid MDX as markdown, and broken YAML as no metadata', () => {
    const broken = parsePage('x', '# Title\n\nUse a < b and {oops here.\n\n<div>unclosed\n')
    expect(broken.mdx).toBe(false)
    expect(broken.markdown).toContain('Use a < b and {oops here.')
    const badYaml = parsePage('y', '---\ntitle: [unclosed\n---\n\n# Heading\n\nBody.\n')
    expect(badYaml.title).toBe('Heading')
    expect(badYaml.markdown).toContain('Body.')
  })
})

describe('titles and frontmatter text', () => {
  it('lose control characters, wherever the title comes from: search results, sources and MCP show it', () => {
    const fromFrontmatter = parsePage('a', '---\ntitle: "Secret\\x1b[31m runbook\\0"\ndescription: "One\\x07 line"\n---\n\nText.\n')
    expect(fromFrontmatter.title).toBe('Secret[31m runbook')
    expect(fromFrontmatter.meta.description).toBe('One line')
    expect(parsePage('b', '# Heading\u001b with an ESC\u202e\n\nText.\n').title).toBe('Heading with an ESC')
    // A title of control characters alone is no title: the file name is.
    expect(parsePage('guides/setup', '---\ntitle: "\\x1b\\x1b"\n---\n\nText.\n').title).toBe('Setup')
  })
})
