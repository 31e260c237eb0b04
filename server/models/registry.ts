import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModel } from 'ai'
import type { DocentConfig, Env } from '../config.ts'
import { offlineAnswerModel } from './offline-answer.ts'

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

/** The model that answers readers: the configured OpenAI(-compatible) model, or the built-in `offline-answer`. */
export function answerModel(config: DocentConfig, deps: ModelDeps): LanguageModel {
  if (config.model.provider === 'openai') return openAiCompatibleModel(config, config.model.id ?? 'gpt-4o-mini', deps)
  return offlineAnswerModel()
}
