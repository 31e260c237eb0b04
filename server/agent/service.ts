import type { DocentContext } from '../context.ts'

export interface AgentService {
  start(): void
  stop(): Promise<void>
}

// Not built yet: replaced by the agent feature.
export function createAgentService(_ctx: DocentContext): AgentService {
  return { start() {}, async stop() {} }
}
