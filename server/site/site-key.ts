import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { createKey } from '../keys/keys.ts'

const SITE_KEY_NAME = 'demo site (made at start)'
const SITE_KEY_DAYS = 30

/**
 * The assistant key the demo site embeds in its pages. Assistant keys are public by design (every docs page
 * that embeds the widget shows one), but Docent keeps only hashes, so a key seeded on an earlier start cannot be
 * shown again. The site uses `DOCENT_ASSISTANT_KEY` when it is set for this project; otherwise each server process
 * makes one expiring key for its pages, the first time a page is served.
 */
export function siteKeyProvider(ctx: DocentContext, project: ProjectConfig): () => Promise<string> {
  let key: Promise<{ secret: string; expiresAt: Date }> | null = null
  const seededProject = ctx.projects.byId('demo') ?? ctx.projects.all[0]
  if (ctx.config.assistantKey && seededProject?.id === project.id) {
    const secret = ctx.config.assistantKey
    return async () => secret
  }
  const make = async () => {
    const now = ctx.now()
    const expiresAt = new Date(now.getTime() + SITE_KEY_DAYS * 86_400_000)
    const { secret } = await createKey(ctx.store, {
      kind: 'assistant',
      organization: project.organization,
      projectId: project.id,
      name: SITE_KEY_NAME,
      expiresAt,
      now,
    })
    return { secret, expiresAt }
  }
  return async () => {
    key ??= make().catch((error) => {
      key = null
      throw error
    })
    const current = await key
    // A process that outlives half the key's life makes a fresh one, so open pages never hold a key about to expire.
    if (current.expiresAt.getTime() - ctx.now().getTime() < (SITE_KEY_DAYS / 2) * 86_400_000) {
      key = make()
      return (await key).secret
    }
    return current.secret
  }
}
