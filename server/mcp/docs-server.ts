import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { z } from 'zod'
import { SearchFilter } from '../../shared/search.ts'
import { absoluteLinks } from '../llms/absolute-links.ts'
import type { ProjectLinks } from '../llms/links.ts'
import { searchSections } from '../search/hybrid.ts'
import type { Corpus, PageInfo, SearchHit } from '../search/types.ts'
import { sectionPageUrl } from '../search/page-url.ts'
import { beforeFirst } from '../../shared/trim.ts'

const MAX_PAGE_SIZE = 20
const DEFAULT_PAGE_SIZE = 5

export interface DocsServerOptions {
  corpus: Corpus
  /** What the docs are called (docsNameOf). */
  docsName: string
  links: ProjectLinks
  /** Told of every `search_docs` call (analytics). */
  onSearch?: (query: string, hits: SearchHit[]) => void
}

// The SDK builds an Ajv instance per server unless given one (only elicitation uses it); sharing one across the
// stateless requests halved the time of a tools/list here (8.0 → 4.6 ms).
let sharedValidator: AjvJsonSchemaValidator | undefined

const SearchResultShape = z.object({
  title: z.string(),
  section: z.string().describe('Heading trail of the section inside its page'),
  path: z.string().describe('Page path, for get_page'),
  url: z.string().describe('Page URL with the section anchor'),
  markdownUrl: z.string(),
  content: z.string(),
  score: z.number(),
})

/**
 * The MCP server of one project's docs: `search_docs` and `get_page` tools and one resource per listed page.
 * Built per request (the transport is stateless), from the corpus the request sees.
 */
export function docsMcpServer({ corpus, docsName, links, onSearch }: DocsServerOptions): McpServer {
  const listed = () => corpus.pages().filter((page) => page.inContext)
  const server = new McpServer(
    {
      name: docsName,
      title: `${docsName} documentation`,
      version: corpus.revision.slice(0, 12) || '0',
      ...(corpus.description ? { description: corpus.description } : {}),
      websiteUrl: links.siteBase ?? links.pageOf({ url: '/' }),
    },
    {
      jsonSchemaValidator: (sharedValidator ??= new AjvJsonSchemaValidator()),
      instructions: [
        corpus.description,
        `Use search_docs to find the sections of the ${docsName} documentation that answer a question, then get_page ` +
          'to read a whole page. Cite the URLs the results give.',
      ]
        .filter(Boolean)
        .join('\n\n'),
    },
  )

  server.registerTool(
    'search_docs',
    {
      title: `Search the ${docsName} docs`,
      description: `Full-text search over the ${docsName} documentation. Returns the best matching sections, best first, each with its page title, URL and text.`,
      inputSchema: {
        query: z.string().trim().min(1).max(500).describe('What to look for, in words a reader would use'),
        pageSize: z
          .number()
          .int()
          .min(1)
          .max(MAX_PAGE_SIZE)
          .optional()
          .describe(`How many sections to return (default ${DEFAULT_PAGE_SIZE})`),
        filter: z.object(SearchFilter.shape).optional().describe('Only sections of this version, language, navigation groups or tag'),
      },
      outputSchema: { results: z.array(SearchResultShape) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, pageSize, filter }) => {
      const hits = await searchSections(corpus, query, { pageSize: pageSize ?? DEFAULT_PAGE_SIZE, filter })
      onSearch?.(query, hits)
      const results = hits.map((hit) => searchResult(hit, links))
      return {
        content: [
          {
            type: 'text',
            text: results.length > 0 ? results.map(resultMarkdown).join('\n\n---\n\n') : `No section of the docs matches "${query}".`,
          },
        ],
        structuredContent: { results },
      }
    },
  )

  server.registerTool(
    'get_page',
    {
      title: 'Read a docs page',
      description: `The whole page of the ${docsName} documentation as markdown, by its path (as search_docs returns it, e.g. "quickstart") or URL path.`,
      inputSchema: { path: z.string().trim().min(1).max(500).describe('Page path, e.g. "sdks/javascript" or "/sdks/javascript"') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ path }): CallToolResult => {
      // The path as search_docs returns it first: a page's own name may hold a `#` (`a#b`), which pagePathOf reads as
      // an anchor.
      const page = corpus.page(path) ?? corpus.page(pagePathOf(path, [links.llmsBase, links.siteBase ?? '']))
      if (!page) {
        // A tool error rather than a protocol error, so the model reads it and can search instead.
        return { isError: true, content: [{ type: 'text', text: `No page at "${path}". Use search_docs to find the right page.` }] }
      }
      return { content: [{ type: 'text', text: absoluteLinks(page.content, links.resolve) }] }
    },
  )

  const byMarkdownUrl = () => new Map(listed().map((page) => [links.markdownOf(page), page]))
  server.registerResource(
    'page',
    new ResourceTemplate(`${links.llmsBase}/{+path}`, {
      list: () => ({ resources: listed().map((page) => pageResource(page, links)) }),
    }),
    { title: `${docsName} docs page`, description: 'A page of the documentation as markdown', mimeType: 'text/markdown' },
    (uri) => {
      const page = byMarkdownUrl().get(uri.href)
      const content = page ? corpus.page(page.path)?.content : undefined
      if (!page || content === undefined) throw new Error(`no docs page at ${uri.href}`)
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: absoluteLinks(content, links.resolve) }] }
    },
  )
  return server
}

function searchResult({ section, score }: SearchHit, links: ProjectLinks) {
  const trail = section.headings.length > 0 ? section.headings : [section.pageTitle]
  return {
    title: section.pageTitle,
    section: trail.join(' › '),
    path: section.path,
    url: links.section(section),
    markdownUrl: links.markdownOf({ url: sectionPageUrl(section) }),
    content: absoluteLinks(section.content, links.resolve),
    score: Math.round(score * 1000) / 1000,
  }
}

function resultMarkdown(result: ReturnType<typeof searchResult>): string {
  return `## ${result.section}\n\nPage: ${result.title} (path \`${result.path}\`)\nURL: ${result.url}\n\n${result.content}`
}

function pageResource(page: PageInfo, links: ProjectLinks) {
  return {
    uri: links.markdownOf(page),
    name: page.path,
    title: page.title,
    ...(page.description ? { description: page.description } : {}),
    mimeType: 'text/markdown',
  }
}

/** `https://docs.example.com/sdks/go.md#x`, `/sdks/go` and `sdks/go` all name the page `sdks/go`. */
function pagePathOf(input: string, bases: string[]): string {
  let path = input.trim()
  const base = bases.find((prefix) => prefix && path.startsWith(prefix + '/'))
  if (base) path = path.slice(base.length)
  else if (/^https?:\/\//i.test(path)) path = path.replace(/^https?:\/\/[^/]*/i, '')
  path = beforeFirst(path, '?#').replace(/\.md$/i, '')
  return path === '' || path === '/' ? 'index' : path
}
