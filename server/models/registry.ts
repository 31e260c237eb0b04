import { createOpenAI } from '@ai-sdk/openai'
import type { EmbeddingModel, LanguageModel } from 'ai'
import type { DocentConfig, Env } from '../config.ts'
import { offlineAnswerModel } from './offline-answer.ts'
import { OfflineEditor } from './offline-editor.ts'

export interface ModelDeps {
  fetch: typeof fetch
  env: Env
}

/**
 * A model on OpenAI or any OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp) through `@ai-sdk/openai`.
 * Chat completions, not the Responses API: it is the one API every compatible server speaks.
 */
export function openAiCompatibleModel(config: DocentConfig, id: string, deps: ModelDeps): LanguageModel {
  return openAiProvider(config, deps).chat(id)
}

/** The embedding model for hybrid search: `model.embeddingId` on the OpenAI(-compatible) server; none when not configured. */
export function embeddingModel(config: DocentConfig, deps: ModelDeps): EmbeddingModel | undefined {
  if (config.model.provider !== 'openai' || !config.model.embeddingId) return undefined
  return openAiProvider(config, deps).embedding(config.model.embeddingId)
}

function openAiProvider(config: DocentConfig, deps: ModelDeps) {
  const apiKey = config.model.apiKey ? deps.env[config.model.apiKey.env] : undefined
  return createOpenAI({
    baseURL: config.model.baseURL,
    // Local compatible servers take any key; the client insists on one.
    apiKey: apiKey ?? 'none',
    fetch: deps.fetch,
  })
}

/** The model that answers readers: the configured OpenAI(-compatible) model, or the built-in `offline-answer`. */
export function answerModel(config: DocentConfig, deps: ModelDeps): LanguageModel {
  if (config.model.provider === 'openai') return openAiCompatibleModel(config, config.model.id ?? 'gpt-4o-mini', deps)
  return offlineAnswerModel()
}

/**
 * The language model the agent edits with: any OpenAI or OpenAI-compatible server through `@ai-sdk/openai`'s chat
 * completions API (Ollama, vLLM, LM Studio and llama.cpp speak it; `model.agentId` overrides the id), else the
 * built-in offline editor.
 */
export function editorModel(config: DocentConfig, deps: ModelDeps): LanguageModel {
  if (config.model.provider === 'offline') return new OfflineEditor()
  return openAiCompatibleModel(config, config.model.agentId ?? config.model.id ?? 'gpt-4o-mini', deps)
}
