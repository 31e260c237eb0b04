import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import type { Corpus } from '../search/types.ts'

/** The project's corpus, or a 503 the client may retry when its docs cannot be loaded (logged with the cause). */
export async function loadCorpus(ctx: DocentContext, project: ProjectConfig, purpose: string): Promise<Corpus> {
  try {
    return await ctx.search.corpus(project.id)
  } catch (error) {
    ctx.log.error(`docs unavailable for ${purpose}`, { project: project.id, error: String(error) })
    throw new ApiError(503, 'the docs of this project are not available right now', { 'retry-after': '30' })
  }
}
