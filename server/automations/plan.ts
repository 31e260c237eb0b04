import { modelIdOf } from '../context.ts'
import type { DocentContext } from '../context.ts'
import type { AutomationRecord } from '../store/types.ts'
import { definitionOf, type Engine } from './catalog.ts'

/** Who does a run's work: an engine of this folder (exact, no model), or the agent with a model (or the offline editor). */
export type RunPlan = { kind: 'engine'; engine: Engine } | { kind: 'agent' }

/** Whether a language model (not the built-in offline editor) edits for the agent. */
export function hasLanguageModel(ctx: DocentContext): boolean {
  return modelIdOf(ctx.models.editor) !== 'offline-editor'
}

/**
 * Mechanical automations always run their engine: links, typos, SEO and changelogs are exact work a model would only
 * make less exact. Fill gaps and feedback go to the agent when a model is configured, else to their engine. Custom
 * automations and the rest are the agent's (custom ones run on the offline editor when there is no model).
 */
export function planOf(ctx: DocentContext, automation: AutomationRecord): RunPlan {
  const definition = automation.kind === 'predefined' ? definitionOf(automation.id) : undefined
  if (definition?.engine && !(definition.modelFirst && hasLanguageModel(ctx))) return { kind: 'engine', engine: definition.engine }
  return { kind: 'agent' }
}

export const usesEngine = (ctx: DocentContext, automation: AutomationRecord) => planOf(ctx, automation).kind === 'engine'
