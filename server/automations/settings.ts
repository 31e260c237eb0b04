import type { Automation, AutomationTrigger, CreateAutomationBody, UpdateAutomationBody } from '../../shared/automations.ts'
import { MAX_PROMPT_CHARS } from '../../shared/agent.ts'
import { DocentError } from '../../shared/errors.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import type { AutomationRecord } from '../store/types.ts'
import { CATALOG, definitionOf } from './catalog.ts'
import { contentRevision } from './content.ts'
import { hasLanguageModel } from './plan.ts'
import { runView } from './run-view.ts'
import { parseSchedule } from './schedule.ts'
import { requestOf } from './start-run.ts'

/**
 * The most custom automations a project may have. Each may start an agent job as often as every minute (all of them
 * drawing on the project's hourly agent limit), and the scheduler reads every one on each tick.
 */
export const MAX_CUSTOM_AUTOMATIONS = 50

/** A predefined automation's settings before anyone changed them: off, with its default trigger. */
function defaultRecord(projectId: string, id: string): AutomationRecord | null {
  const definition = definitionOf(id)
  if (!definition) return null
  return {
    projectId,
    id,
    kind: 'predefined',
    name: definition.name,
    enabled: false,
    trigger: definition.trigger,
    mode: 'pull_request',
    instructions: null,
    languages: [],
    prompt: null,
    scheduleFrom: null,
    lastSlot: null,
    contentRevision: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  }
}

/** The automation's settings as they apply: stored, or a predefined one's defaults; null when there is no such automation. */
export async function findAutomation(ctx: DocentContext, projectId: string, id: string): Promise<AutomationRecord | null> {
  return (await ctx.store.getAutomation(projectId, id)) ?? defaultRecord(projectId, id)
}

export async function automationOr404(ctx: DocentContext, project: ProjectConfig, id: string): Promise<AutomationRecord> {
  const automation = await findAutomation(ctx, project.id, id)
  if (!automation) {
    throw new DocentError('not_found', `no automation "${id}" in project ${project.id}`, { automationId: id })
  }
  return automation
}

/** Every predefined automation (in the catalog's order), then the custom ones, oldest first. */
export async function listAutomations(ctx: DocentContext, project: ProjectConfig): Promise<AutomationRecord[]> {
  const stored = await ctx.store.listAutomations(project.id)
  const byId = new Map(stored.map((automation) => [automation.id, automation]))
  return [
    ...CATALOG.map((definition) => byId.get(definition.id) ?? defaultRecord(project.id, definition.id)!),
    ...stored.filter((automation) => automation.kind === 'custom'),
  ]
}

/** Why the automation cannot be turned on in this project; null when it can. */
export function unavailableReason(ctx: DocentContext, project: ProjectConfig, automation: AutomationRecord): string | null {
  if (!project.agent) return `project ${project.id} has no agent (agent.repository) to open pull requests`
  const definition = definitionOf(automation.id)
  if (automation.kind === 'predefined' && definition && !definition.engine && !hasLanguageModel(ctx)) {
    return (
      `it needs a language model: set OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server); ` +
      'the built-in offline models cannot do this work'
    )
  }
  if (automation.trigger.kind === 'code' && project.automations.codeRepositories.length === 0) {
    return `it runs on merged code changes, and project ${project.id} lists no code repositories (automations.codeRepositories)`
  }
  return null
}

export async function automationView(ctx: DocentContext, project: ProjectConfig, automation: AutomationRecord): Promise<Automation> {
  const [last] = (await ctx.store.listAutomationRuns(project.id, automation.id, { limit: 1 })).items
  const definition = definitionOf(automation.id)
  return {
    id: automation.id,
    name: automation.name,
    kind: automation.kind,
    enabled: automation.enabled,
    trigger: automation.trigger,
    mode: automation.mode,
    instructions: automation.instructions,
    ...(automation.id === 'translate' || automation.languages.length ? { languages: automation.languages } : {}),
    ...(automation.kind === 'custom' ? { prompt: automation.prompt ?? '' } : {}),
    nextRunAt: nextRunAt(ctx, automation),
    lastRun: last ? await runView(ctx, last) : null,
    description: definition?.description ?? automation.prompt?.split('\n')[0]?.slice(0, 200) ?? '',
    unavailable: unavailableReason(ctx, project, automation),
  }
}

function nextRunAt(ctx: DocentContext, automation: AutomationRecord): string | null {
  if (!automation.enabled || automation.trigger.kind !== 'schedule') return null
  try {
    const schedule = parseSchedule(automation.trigger.cron, automation.trigger.timeZone)
    const after = Math.max(ctx.now().getTime(), automation.lastSlot?.getTime() ?? 0)
    return schedule.next(new Date(after))?.toISOString() ?? null
  } catch {
    return null
  }
}

/**
 * `PUT .../automations/{id}`: changes the given settings; a bad trigger, languages for any automation but translate, or
 * an automation that cannot run here is a 400.
 */
export async function updateAutomation(
  ctx: DocentContext,
  project: ProjectConfig,
  id: string,
  body: UpdateAutomationBody,
): Promise<AutomationRecord> {
  const current = await automationOr404(ctx, project, id)
  if (body.languages !== undefined && current.id !== 'translate') {
    throw invalid('languages', `only the translate automation has target languages; ${current.name} (${current.id}) has none`)
  }
  const now = ctx.now()
  const next: AutomationRecord = {
    ...current,
    enabled: body.enabled ?? current.enabled,
    trigger: body.trigger ? checkTrigger(project, body.trigger) : current.trigger,
    mode: body.mode ?? current.mode,
    instructions: body.instructions === undefined ? current.instructions : body.instructions?.trim() || null,
    languages: body.languages ?? current.languages,
    createdAt: current.createdAt.getTime() === 0 ? now : current.createdAt,
    updatedAt: now,
  }
  if (body.instructions !== undefined) checkRequestLength(next)
  if (next.enabled) {
    const unavailable = unavailableReason(ctx, project, next)
    if (unavailable) throw invalid('enabled', `cannot turn on ${next.name}: ${unavailable}`)
    if (next.id === 'translate' && next.languages.length === 0) {
      throw invalid('languages', 'translate needs at least one target language, e.g. ["fr", "de"]')
    }
  }
  await startCounting(ctx, project, current, next)
  await ctx.store.putAutomation(next)
  return next
}

/** `POST .../automations`: a custom automation (a prompt on a trigger). */
export async function createAutomation(ctx: DocentContext, project: ProjectConfig, body: CreateAutomationBody): Promise<AutomationRecord> {
  const now = ctx.now()
  const automation: AutomationRecord = {
    projectId: project.id,
    id: ctx.ids('automation'),
    kind: 'custom',
    name: body.name.trim(),
    enabled: body.enabled ?? true,
    trigger: checkTrigger(project, body.trigger),
    mode: body.mode ?? 'pull_request',
    instructions: body.instructions?.trim() || null,
    languages: [],
    prompt: body.prompt,
    scheduleFrom: null,
    lastSlot: null,
    contentRevision: null,
    createdAt: now,
    updatedAt: now,
  }
  checkRequestLength(automation)
  if (automation.enabled) {
    const unavailable = unavailableReason(ctx, project, automation)
    if (unavailable) throw invalid('enabled', `cannot turn on ${automation.name}: ${unavailable}`)
  }
  // Read before the write, not with it: creations at the same moment may all pass it. The cap bounds a project's
  // automations against runaway numbers; it need not be exact.
  const custom = (await ctx.store.listAutomations(project.id)).filter((other) => other.kind === 'custom').length
  if (custom >= MAX_CUSTOM_AUTOMATIONS) {
    throw new DocentError(
      'conflict',
      `project ${project.id} has ${custom} custom automations, the most it may have (${MAX_CUSTOM_AUTOMATIONS}): delete one first`,
      { limit: MAX_CUSTOM_AUTOMATIONS },
    )
  }
  await startCounting(ctx, project, null, automation)
  await ctx.store.putAutomation(automation)
  return automation
}

/** `DELETE .../automations/{id}`: custom ones only. */
export async function deleteAutomation(ctx: DocentContext, project: ProjectConfig, id: string): Promise<void> {
  const automation = await automationOr404(ctx, project, id)
  if (automation.kind === 'predefined') {
    throw new DocentError('conflict', `${automation.name} is predefined: it cannot be deleted; turn it off instead`, { automationId: id })
  }
  await ctx.store.deleteAutomation(project.id, id)
}

/**
 * Turning an automation on, or changing its trigger, starts it from now: a schedule counts slots from this moment
 * (none from while it was off), a content trigger waits for the docs to move from the revision they are at.
 */
async function startCounting(
  ctx: DocentContext,
  project: ProjectConfig,
  before: AutomationRecord | null,
  after: AutomationRecord,
): Promise<void> {
  const turnedOn = after.enabled && !before?.enabled
  const retriggered = before !== null && JSON.stringify(before.trigger) !== JSON.stringify(after.trigger)
  if (!after.enabled || !(turnedOn || retriggered)) return
  after.scheduleFrom = ctx.now()
  after.lastSlot = null
  if (after.trigger.kind === 'content') after.contentRevision = await contentRevision(ctx, project).catch(() => null)
}

/**
 * A run sends the automation's name, task and instructions as its job prompt (`requestOf`), which must fit the job
 * prompt limit of the agent API: refused here, naming the field to shorten, so that nothing is cut when it runs.
 */
function checkRequestLength(automation: AutomationRecord): void {
  const length = requestOf(automation).length
  if (length <= MAX_PROMPT_CHARS) return
  const promptAlone = requestOf({ ...automation, instructions: null }).length
  const field = promptAlone > MAX_PROMPT_CHARS ? 'prompt' : 'instructions'
  throw invalid(
    field,
    `a run's job prompt (the name, prompt and instructions) would be ${length} characters, over the ` +
      `job prompt limit of ${MAX_PROMPT_CHARS}: shorten the prompt or the instructions by ${length - MAX_PROMPT_CHARS}`,
  )
}

/** A trigger the project can honour: a valid cron and time zone, code repositories that are configured. */
export function checkTrigger(project: ProjectConfig, trigger: AutomationTrigger): AutomationTrigger {
  switch (trigger.kind) {
    case 'schedule': {
      const schedule = parseSchedule(trigger.cron, trigger.timeZone)
      return { kind: 'schedule', cron: schedule.cron, timeZone: schedule.timeZone }
    }
    case 'content':
      return { kind: 'content' }
    case 'code': {
      const configured = project.automations.codeRepositories.map((entry) => entry.repository)
      if (configured.length === 0) {
        throw invalid(
          'trigger',
          `a code trigger needs code repositories, and project ${project.id} lists none (automations.codeRepositories)`,
        )
      }
      const repositories = [...new Set(trigger.repositories.map((name) => name.trim()))]
      for (const name of repositories) {
        if (!configured.includes(name)) {
          throw invalid(
            'trigger.repositories',
            `"${name}" is not a code repository of project ${project.id} (configured: ${configured.join(', ')})`,
          )
        }
      }
      return { kind: 'code', repositories }
    }
  }
}

const invalid = (field: string, message: string) => new DocentError('invalid_request', `${field}: ${message}`, { field })
