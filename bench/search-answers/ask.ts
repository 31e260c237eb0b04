// Asks a served Docent (in process, the default store PGlite in a fresh data directory, built-in offline-answer model) what a reader would, through the v2
// message endpoint, and reads back the sources and the answer as a client sees them.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKey } from '../../server/keys/keys.ts'
import { consoleLogger } from '../../server/log.ts'
import { createDocent } from '../../server/mod.ts'
import { isDecline } from '../../server/analytics/decline.ts'
import { listedPages } from '../search-quality/on-a-page.ts'

export interface Asked {
  /** Page paths of the sources, in order (`customize/fonts`), one per source part. */
  sources: string[]
  /** Page paths the answer cites with `[n]`. */
  cited: string[]
  text: string
  declined: boolean
}

export interface Reader {
  ask(question: string, options?: { page?: string; previous?: string[] }): Promise<Asked>
  /** The pages a reader can be on, in path order (see listedPages). */
  pages: string[]
  stop(): Promise<void>
}

/** A Docent serving the docs folder `directory` as project `docs`, and a reader that asks it questions. */
export async function serveDocs(directory: string): Promise<Reader> {
  const unlimited = 1_000_000_000
  const dataDir = mkdtempSync(join(tmpdir(), 'docent-bench-answers-'))
  const docent = await createDocent(
    {
      dataDir,
      store: { kind: 'pglite' },
      worker: false,
      limits: { assistantKeyPerMonth: unlimited, organizationPerHour: unlimited, ipPerDay: unlimited, assistantIpPerHour: unlimited },
      projects: [{ id: 'docs', organization: 'docs', domain: 'docs', docs: { directory } }],
    },
    { log: consoleLogger('silent') },
  )
  const key = (await createKey(docent.context.store, { kind: 'assistant', organization: 'docs', projectId: 'docs' })).secret
  const pages = listedPages(await docent.context.search.corpus('docs'))

  const post = async (messages: unknown[], page?: string) => {
    const response = await docent.app.request('/discovery/v2/assistant/docs/message', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ fp: 'bench', messages, ...(page ? { currentPath: page } : {}) }),
    })
    if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`)
    const chunks = (await response.text())
      .split('\n\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string; url?: string })
    const text = chunks.flatMap((c) => (c.type === 'text-delta' ? [c.delta!] : [])).join('')
    const sources = chunks.flatMap((c) => (c.type === 'source-url' ? [pagePath(c.url!)] : []))
    const cited = [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => sources[Number(m[1]) - 1]).filter(Boolean))] as string[]
    return { text, sources, cited, declined: isDecline(text) }
  }

  return {
    pages,
    async ask(question, { page, previous = [] } = {}) {
      // Earlier questions are asked first, so the conversation carries the answers a reader saw.
      const messages: unknown[] = []
      for (const [i, earlier] of previous.entries()) {
        const user = { id: `u${i}`, role: 'user', parts: [{ type: 'text', text: earlier }] }
        const answer = await post([...messages, user], page)
        messages.push(user, { id: `a${i}`, role: 'assistant', parts: [{ type: 'text', text: answer.text }] })
      }
      return post([...messages, { id: 'q', role: 'user', parts: [{ type: 'text', text: question }] }], page)
    },
    stop: () => docent.stop().finally(() => rmSync(dataDir, { recursive: true, force: true })),
  }
}

/** `http://host/customize/fonts#local-fonts` → `customize/fonts`; the site root → `index`. */
export function pagePath(url: string): string {
  const path = new URL(url).pathname.replace(/^\/+|\/+$/g, '')
  return path || 'index'
}

/** Same page, whether written `a/index`, `a/` or `a`. */
export const samePage = (a: string, b: string) => a.replace(/(^|\/)index$/, '') === b.replace(/(^|\/)index$/, '')
