import type { DocentConfig, Env, ProjectConfig } from '../config.ts'
import type { Logger } from '../log.ts'
import { buildCorpus, type BuiltCorpus } from './corpus.ts'
import type { DocsSite } from './docs-site.ts'
import { type Embedder, embedSections, type VectorCache } from './embeddings.ts'
import { openDocsSource, type SourceDeps } from './sources/open.ts'
import type { DocsSource } from './sources/types.ts'
import type { Corpus, DocsStatus, SearchService } from './types.ts'

export interface SearchServiceDeps {
  config: DocentConfig
  log: Logger
  fetch: typeof fetch
  /** Where `{ env: NAME }` tokens of git sources resolve. */
  env?: Env
  /** Section and query embeddings for hybrid search (`ctx.models.embedder`); without one, BM25 alone. */
  embedder?: Embedder
  /** Opens a `local:<name>` repository of the embedded git host, for docs served from it. */
  openLocalRepository?: SourceDeps['openLocalRepository']
}

/** A reader waits for the query's embedding: past this, BM25 alone answers. */
const QUERY_EMBEDDING_TIMEOUT_MS = 3_000
/** Recent queries' vectors per project: the assistant and a reader retrying ask the same question again. */
const QUERY_VECTORS_KEPT = 256

/**
 * After a first load fails, queries get its error for this long before one tries again: a git source whose docs.json
 * is broken was cloned again for every query (the refresh timer retries meanwhile).
 */
const FAILED_LOAD_HOLD_MS = 5_000

/** The status lists this many problem files at most (the log has the count): a site of broken files is one fix. */
const MAX_PROBLEMS_KEPT = 200

/** A docs directory is re-read this often: a writer's edits show up without a restart (only changed pages are parsed again). */
const DIRECTORY_CHECK_SECONDS = 30

interface ProjectDocs {
  source?: Promise<DocsSource>
  /** The corpus queries use now; replaced only when a new one is fully built. */
  corpus?: Promise<Corpus>
  /** The last site read, whose parsed pages the next load reuses. */
  site?: DocsSite
  /** A reload in progress, shared by concurrent refreshes. */
  reloading?: Promise<{ revision: string; changed: boolean }>
  /** The last corpus's section vectors, which the next load reuses for sections whose text did not change. */
  vectors?: VectorCache
  /** The last load's embedding failed: the next refresh embeds again even if the docs did not move. */
  embeddingFailed?: boolean
  /** The first embedding of the docs, in the background while BM25 answers; it swaps in the hybrid corpus when done. */
  embedding?: Promise<void>
  status?: DocsStatus
  /** The last first load that failed, and when: the next queries wait FAILED_LOAD_HOLD_MS before trying again. */
  failed?: { at: number; error: unknown }
}

function noteFailure(state: ProjectDocs, error: unknown) {
  const message = error instanceof Error ? error.message : String(error)
  state.status = {
    ...(state.status ?? { revision: null, pages: 0, sections: 0, loadedAt: null, loadMs: null, notMdx: [], problems: [] }),
    checkedAt: new Date(),
    error: message,
  }
}

/** Loads each project's docs on first use, serves queries from the last good corpus, and rebuilds it when the docs move. */
export function createSearchService(deps: SearchServiceDeps): SearchService {
  const { config, log } = deps
  const { embedder } = deps
  const projects = new Map<string, ProjectDocs>()
  const timers: Array<ReturnType<typeof setInterval>> = []
  let started = false

  const projectOf = (id: string): ProjectConfig => {
    const project = config.projects.find((p) => p.id === id)
    if (!project) throw new Error(`no project "${id}"`)
    return project
  }
  const stateOf = (id: string): ProjectDocs => {
    let state = projects.get(id)
    if (!state) projects.set(id, (state = {}))
    return state
  }
  const sourceOf = (id: string): Promise<DocsSource> => {
    const state = stateOf(id)
    state.source ??= openDocsSource(projectOf(id).docs, {
      fetch: deps.fetch,
      env: deps.env ?? {},
      openLocalRepository: deps.openLocalRepository,
    })
    state.source.catch(() => (state.source = undefined))
    return state.source
  }
  /** Reads the docs and builds a corpus; when the docs are still at `unless`'s revision, returns that corpus as is. */
  const load = async (id: string, unless?: Corpus): Promise<Corpus> => {
    const started = Date.now()
    const snapshot = await (await sourceOf(id)).load()
    const state = stateOf(id)
    if (unless && snapshot.revision === unless.revision && !state.embeddingFailed) return unless
    // The MDX parser (micromark, acorn and yaml: 1 MB of JavaScript) loads with the first docs read, not with the server.
    const { loadDocsSite } = await import('./docs-site.ts')
    const site = await loadDocsSite(snapshot, state.site, {
      onWorkersFailed: (error) =>
        log.warn('parser threads could not start; pages are parsed on the main thread', { project: id, error: String(error) }),
    })
    const before = state.site?.pages.size ?? 0
    if (site.pages.size === 0 && before > 0) {
      // An emptied folder (a mount not there yet, a renamed root) replaced good docs with none, and /readyz said ok.
      throw new Error(`the docs source has no pages now (it had ${before}); the last docs loaded are still served`)
    }
    if (site.problems.length > 0) {
      log.warn('docs files left out or read in part', { project: id, count: site.problems.length, first: site.problems.slice(0, 5) })
    }
    state.site = site
    const corpus = buildCorpus(site)
    state.status = {
      revision: corpus.revision,
      pages: corpus.pages().length,
      sections: corpus.sections.length,
      loadedAt: new Date(),
      loadMs: Date.now() - started,
      checkedAt: new Date(),
      error: null,
      notMdx: [...site.pages.values()].filter((page) => !page.mdx).map((page) => page.path),
      problems: site.problems.slice(0, MAX_PROBLEMS_KEPT),
    }
    log.info('docs indexed', { project: id, pages: corpus.pages().length, revision: corpus.revision, ms: Date.now() - started })
    if (!embedder) return corpus
    // A reload embeds only the changed sections, before its corpus replaces the old one.
    if (state.vectors || state.embeddingFailed) return withEmbeddings(id, corpus, embedder)
    // Embedding a whole site can take minutes on a hosted model: readers get BM25 meanwhile, then hybrid search.
    state.embedding = withEmbeddings(id, corpus, embedder)
      .then(async (hybrid) => {
        if ((await state.corpus?.catch(() => undefined)) === corpus) state.corpus = Promise.resolve(hybrid)
      })
      .finally(() => (state.embedding = undefined))
    return corpus
  }
  /** The corpus with hybrid search; when the embedding model fails, the corpus as it is (BM25 alone), and the failure logged. */
  const withEmbeddings = async (id: string, corpus: BuiltCorpus, embedder: Embedder): Promise<Corpus> => {
    const state = stateOf(id)
    const started = Date.now()
    const queryVectors = new Map<string, Float32Array>()
    try {
      const { matrix, dimensions, cache, embedded } = await embedSections(corpus.sections, embedder, state.vectors)
      const embedding = corpus.withEmbeddings({
        matrix,
        dimensions,
        embedQuery: async (query) => {
          const known = queryVectors.get(query)
          if (known) return known
          const [vector] = await embedder.embed([query], { timeoutMs: QUERY_EMBEDDING_TIMEOUT_MS })
          if (queryVectors.size >= QUERY_VECTORS_KEPT) queryVectors.delete(queryVectors.keys().next().value!)
          queryVectors.set(query, vector!)
          return vector!
        },
        onQueryError: (error) => log.warn('query embedding failed; BM25 alone answers', { project: id, error: String(error) }),
      })
      state.vectors = cache
      state.embeddingFailed = false
      log.info('docs embedded', { project: id, sections: corpus.sections.length, embedded, ms: Date.now() - started })
      return embedding
    } catch (error) {
      state.embeddingFailed = true
      log.error('docs embedding failed; search uses BM25 alone until the next refresh', { project: id, error: String(error) })
      return corpus
    }
  }

  const service: SearchService = {
    async corpus(id) {
      projectOf(id)
      const state = stateOf(id)
      if (!state.corpus) {
        if (state.failed && Date.now() - state.failed.at < FAILED_LOAD_HOLD_MS) throw state.failed.error
        const loading = load(id)
        state.corpus = loading
        // A failed first load is retried by a later query (after FAILED_LOAD_HOLD_MS) rather than cached.
        loading.then(
          () => (state.failed = undefined),
          (error: unknown) => {
            noteFailure(state, error)
            state.failed = { at: Date.now(), error }
            if (state.corpus === loading) state.corpus = undefined
          },
        )
      }
      return state.corpus
    },
    async refresh(id) {
      projectOf(id)
      const state = stateOf(id)
      state.reloading ??= (async () => {
        try {
          // The first embedding's vectors are what a reload reuses.
          await state.embedding
          const before = state.corpus ? await state.corpus.catch(() => undefined) : undefined
          const source = await sourceOf(id)
          if (before && !state.embeddingFailed && source.currentRevision && (await source.currentRevision()) === before.revision) {
            if (state.status) Object.assign(state.status, { checkedAt: new Date(), error: null })
            return { revision: before.revision, changed: false }
          }
          const next = await load(id, before)
          if (next !== before) state.corpus = Promise.resolve(next)
          if (state.status) Object.assign(state.status, { checkedAt: new Date(), error: null })
          return { revision: next.revision, changed: next !== before }
        } catch (error) {
          noteFailure(state, error)
          throw error
        } finally {
          state.reloading = undefined
        }
      })()
      return state.reloading
    },
    status(id) {
      return projects.get(id)?.status ?? null
    },
    async embedded(id) {
      await service.corpus(id).catch(() => undefined)
      await stateOf(id).embedding
    },
    start() {
      if (started) return
      started = true
      for (const project of config.projects) {
        service
          .corpus(project.id)
          .catch((error: unknown) => log.error('docs failed to load', { project: project.id, error: String(error) }))
        const seconds = 'repository' in project.docs ? project.docs.refreshSeconds : DIRECTORY_CHECK_SECONDS
        const timer = setInterval(() => {
          service
            .refresh(project.id)
            .catch((error: unknown) => log.warn('docs refresh failed', { project: project.id, error: String(error) }))
        }, seconds * 1000)
        timers.push(timer)
      }
    },
    stop() {
      started = false
      for (const timer of timers.splice(0)) clearInterval(timer)
    },
  }
  return service
}
