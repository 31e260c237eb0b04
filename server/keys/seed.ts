import type { DocentContext } from '../context.ts'
import { createKey, sha256Hex } from './keys.ts'

export interface SeededKeys {
  admin?: string
  assistant?: string
  /** True when the keys were made now (and so are shown now, once). */
  created: boolean
}

/**
 * First start of the demo: make one admin and one assistant key for the demo organization, or adopt the
 * ones given in DOCENT_ADMIN_KEY / DOCENT_ASSISTANT_KEY. The assistant key is public by design (it is embedded
 * in docs pages), so its secret is returned for the demo site to embed; the admin key is only printed.
 */
export async function seedDemoKeys(ctx: DocentContext): Promise<SeededKeys> {
  const project = ctx.projects.byId('demo') ?? ctx.projects.all[0]!
  const organization = project.organization
  const result: SeededKeys = { created: false }
  const ensure = async (kind: 'admin' | 'assistant', secret: string) => {
    if (await ctx.store.findKeyByHash(await sha256Hex(secret))) return
    await createKey(ctx.store, {
      kind,
      organization,
      projectId: kind === 'assistant' ? project.id : null,
      name: 'from env',
      secret,
      now: ctx.now(),
    })
  }
  if (ctx.config.adminKey) await ensure('admin', (result.admin = ctx.config.adminKey))
  if (ctx.config.assistantKey) await ensure('assistant', (result.assistant = ctx.config.assistantKey))
  if (ctx.config.seedDemoKeys && (await ctx.store.countKeys()) === 0) {
    result.admin = (await createKey(ctx.store, { kind: 'admin', organization, name: 'demo admin', now: ctx.now() })).secret
    result.assistant = (
      await createKey(ctx.store, { kind: 'assistant', organization, projectId: project.id, name: 'demo assistant', now: ctx.now() })
    ).secret
    result.created = true
  }
  return result
}
