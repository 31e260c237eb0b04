import type { EmbeddingModel, LanguageModel } from 'ai'
import type { DocentConfig, Env } from '../config.ts'
import { boundedModelFetch, chatResponseBytes, MAX_MODEL_RESPONSE_BYTES } from './model-fetch.ts'
import { offlineAnswerModel } from './offline-answer.ts'
import { OfflineEditor } from './offline-editor.ts'

export interface ModelDeps {
  fetch: typeof fetch
  env: Env
}

export interface ConfiguredModels {
  /** The model that answers readers. */
  answer: LanguageModel
  /** The model the agent edits with. */
  editor: LanguageModel
  /** The embedding model for hybrid search, where one is configured. */
  embedding?: EmbeddingModel
}

/**
 * The models a config names: with `model.provider` `openai`, models on OpenAI or any OpenAI-compatible server
 * (Ollama, vLLM, LM Studio, llama.cpp) through `@ai-sdk/openai`: the answer model `model.id`, the agent's
 * `model.agentId` (else `model.id`), embeddings `model.embeddingId` (hybrid search; none when unset). Otherwise the
 * built-in `offline-answer` model and offline editor, and no embeddings.
 */
export async function configuredModels(config: DocentConfig, deps: ModelDeps): Promise<ConfiguredModels> {
  if (config.model.provider !== 'openai') return { answer: offlineAnswerModel(), editor: new OfflineEditor() }
  const chat = await chatProvider(config, deps)
  const id = config.model.id ?? 'gpt-4o-mini'
  return {
    answer: chat.chat(id),
    editor: chat.chat(config.model.agentId ?? id),
    embedding: config.model.embeddingId
      ? (await openAiProvider(config, deps, MAX_MODEL_RESPONSE_BYTES)).embedding(config.model.embeddingId)
      : undefined,
  }
}

/** A chat model `id` on the configured OpenAI(-compatible) server. */
export async function openAiCompatibleModel(config: DocentConfig, id: string, deps: ModelDeps): Promise<LanguageModel> {
  return (await chatProvider(config, deps)).chat(id)
}

/** Chat completions end far below the embeddings' cap: see chatResponseBytes. */
const chatProvider = (config: DocentConfig, deps: ModelDeps) =>
  openAiProvider(config, deps, chatResponseBytes(config.limits.agentMaxChangedBytes))

/**
 * Chat completions, not the Responses API: it is the one API every compatible server speaks. `@ai-sdk/openai` is
 * imported here, not at the top: it is 460 KB of JavaScript, a tenth of the server, which the offline demo need not
 * parse at start.
 */
async function openAiProvider(config: DocentConfig, deps: ModelDeps, maxResponseBytes: number) {
  const { createOpenAI } = await import('@ai-sdk/openai')
  const apiKey = config.model.apiKey ? deps.env[config.model.apiKey.env] : undefined
  return createOpenAI({
    baseURL: config.model.baseURL,
    // Local compatible servers take any key; the client insists on one.
    apiKey: apiKey ?? 'none',
    fetch: boundedModelFetch(deps.fetch, maxResponseBytes),
  })
}
