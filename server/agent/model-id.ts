import type { DocentConfig } from '../config.ts'

/** The model id jobs report: the configured agent model, or the built-in offline editor. */
export function agentModelId(config: DocentConfig): string {
  if (config.model.provider === 'offline') return 'offline-editor'
  return config.model.agentId ?? config.model.id ?? 'gpt-4o-mini'
}
