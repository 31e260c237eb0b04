import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModel } from 'ai'
import type { DocentConfig, Env } from '../config.ts'

export interface ModelDeps {
  fetch: typeof fetch
  env: Env
}

/**
 * A model on OpenAI or any OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp) through `@ai-sdk/openai`.
 * Chat completions, not the Responses API: it is the one API every compatible server speaks.
 */
export function openAiCompatibleModel(config: DocentConfig, id: string, deps: ModelDeps): LanguageModel {
  const apiKey = config.model.apiKey ? deps.env[config.model.apiKey.env] : undefined
  const provider = createOpenAI({
    baseURL: config.model.baseURL,
    // Local compatible servers take any key; the client insists on one.
    apiKey: apiKey ?? 'none',
    fetch: deps.fetch,
  })
  return provider.chat(id)
}
