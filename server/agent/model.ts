import type { LanguageModel } from 'ai'
import type { DocentConfig, Env } from '../config.ts'
import { OfflineEditor } from '../models/offline-editor.ts'
import { openAiCompatibleModel } from '../models/registry.ts'
import { agentModelId } from './model-id.ts'

export interface AgentModel {
  model: LanguageModel
  /** The id reported on jobs (`offline-editor` for the built-in model). */
  id: string
}

/**
 * The language model the agent runs with: any OpenAI or OpenAI-compatible server through `@ai-sdk/openai`'s chat
 * completions API (Ollama, vLLM, LM Studio and llama.cpp speak it), else the offline editor.
 */
export function resolveAgentModel(config: DocentConfig, deps: { fetch: typeof fetch; env: Env }): AgentModel {
  const id = agentModelId(config)
  if (config.model.provider === 'offline') return { model: new OfflineEditor(), id }
  return { model: openAiCompatibleModel(config, id, deps), id }
}
