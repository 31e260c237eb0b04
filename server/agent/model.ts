import type { LanguageModel } from 'ai'
import type { DocentConfig } from '../config.ts'
import { OfflineEditor } from '../models/offline-editor.ts'
import { type ModelDeps, openAiCompatibleModel } from '../models/registry.ts'

/**
 * The language model the agent edits with: any OpenAI or OpenAI-compatible server through `@ai-sdk/openai`'s chat
 * completions API (Ollama, vLLM, LM Studio and llama.cpp speak it; `model.agentId` overrides the id), else the
 * built-in offline editor. Built once, in `createDocent`.
 */
export function editorModel(config: DocentConfig, deps: ModelDeps): LanguageModel {
  if (config.model.provider === 'offline') return new OfflineEditor()
  return openAiCompatibleModel(config, config.model.agentId ?? config.model.id ?? 'gpt-4o-mini', deps)
}

/** The model id jobs report (`offline-editor` for the built-in model). */
export function modelIdOf(model: LanguageModel): string {
  return typeof model === 'string' ? model : model.modelId
}
