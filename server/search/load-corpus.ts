import { DocentError } from '../../shared/errors.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { type ResponseDoc, RETRY_AFTER } from '../http/route.ts'
import type { Corpus } from './types.ts'

/**
 * The project's corpus, or an `unavailable` error (503 with `Retry-After`) the client may retry when its docs cannot
 * be loaded; the cause is logged, never sent. Every route that reads the docs goes through here.
 */
export async function loadCorpus(ctx: DocentContext, project: ProjectConfig, purpose: string): Promise<Corpus> {
  try {
    return await ctx.search.corpus(project.id)
  } catch (error) {
    ctx.log.error(`docs unavailable for ${purpose}`, { project: project.id, error: String(error) })
    throw new DocentError('unavailable', 'the docs of this project cannot be loaded right now; try again later', {
      retryAfterSeconds: 30,
    })
  }
}

/** How routes that read the docs document the 503 of `loadCorpus`. */
export const DOCS_UNAVAILABLE: ResponseDoc = {
  description: 'the docs could not be loaded yet; retry later',
  headers: { 'Retry-After': RETRY_AFTER },
}
