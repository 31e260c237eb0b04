import type { Source } from '../../../shared/assistant.ts'
import { retrieve } from '../../assistant/retrieval.ts'
import { systemPrompt } from '../../assistant/system-prompt.ts'
import { aiSdk } from '../../models/ai-sdk.ts'
import type { ProjectConfig } from '../../config.ts'
import type { DocentContext } from '../../context.ts'
import { citedSources, resolutionOf } from '../decline.ts'

export interface AskedAgain {
  question: string
  answered: boolean
  /** The sources the new answer cites. */
  cited: Source[]
}

/**
 * Asks a reader's question again, as the assistant would answer it now (same retrieval, prompt and model), without
 * a thread and without recording it: whether the docs answer it, and from which pages.
 */
export async function askAgain(ctx: DocentContext, project: ProjectConfig, question: string): Promise<AskedAgain> {
  const origin = ctx.config.publicUrl ?? `http://localhost:${ctx.config.port}`
  const retrieval = await retrieve(ctx, project, { turns: [{ role: 'user', text: question }], pageSize: 5, origin })
  const { generateText } = await aiSdk()
  const { text } = await generateText({
    model: ctx.models.answer,
    instructions: systemPrompt({
      docsName: retrieval.docsName,
      sources: retrieval.blocks,
      unknownWords: retrieval.unknownWords,
    }),
    prompt: question,
    maxRetries: 1,
  })
  const answered = resolutionOf(text, retrieval.sources, true) === 'answered'
  return { question, answered, cited: answered ? citedSources(text, retrieval.sources) : [] }
}
