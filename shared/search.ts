import { z } from 'zod'

export const SearchFilter = z
  .object({
    version: z.string().max(100).optional(),
    language: z.string().max(20).optional(),
    groups: z.array(z.string().max(200)).max(20).optional(),
    tag: z.string().max(100).optional(),
  })
  .meta({ id: 'SearchFilter' })
export type SearchFilter = z.infer<typeof SearchFilter>

export const SearchBody = z
  .object({
    query: z.string().trim().min(1).max(500),
    pageSize: z.number().int().min(1).max(50).default(10),
    scoreThreshold: z.number().min(0).max(1).optional(),
    filter: SearchFilter.nullable().optional(),
    /**
     * `false` for searches made as the reader types: the server does not record them (they are keystroke prefixes);
     * the settled search is reported once through the events endpoint instead.
     */
    analytics: z.boolean().default(true),
  })
  .meta({ id: 'SearchBody' })
export type SearchBody = z.infer<typeof SearchBody>

export const SearchResult = z
  .object({
    content: z.string(),
    path: z.string(),
    metadata: z.object({
      title: z.string(),
      description: z.string().optional(),
      url: z.string().optional(),
      score: z.number(),
    }),
  })
  .meta({ id: 'SearchResult' })
export type SearchResult = z.infer<typeof SearchResult>

export const SearchResponse = z.array(SearchResult).meta({ id: 'SearchResponse' })

export const PageBody = z.object({ path: z.string().min(1).max(500) }).meta({ id: 'PageBody' })
export const PageResponse = z.object({ path: z.string(), content: z.string() }).meta({ id: 'PageResponse' })
export type PageResponse = z.infer<typeof PageResponse>
