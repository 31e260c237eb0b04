import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { createKey, verifyKey } from '../keys/keys.ts'

const SITE_KEY_NAME = 'demo site (made at start)'
const SITE_KEY_DAYS = 30

/**
 * The assistant key the demo site embeds in its pages. Assistant keys are public by design (every docs page
 * that embeds the widget shows one), but Docent keeps only hashes, so a key seeded on an earlier start cannot be
 * shown again. The site uses `DOCENT_ASSISTANT_KEY` when it is set for this project; otherwise it makes one expiring
 * key for its pages, the first time a page is served. On the embedded store the key is also kept in the data
 * directory beside it, so restarts reuse it instead of adding a key to the store each time.
 */
export function siteKeyProvider(ctx: DocentContext, project: ProjectConfig): () => Promise<string> {
  let key: Promise<{ secret: string; expiresAt: Date }> | null = null
  const seededProject = ctx.projects.byId('demo') ?? ctx.projects.all[0]
  if (ctx.config.assistantKey && seededProject?.id === project.id) {
    const secret = ctx.config.assistantKey
    return async () => secret
  }
  const keyFile = ctx.config.store.kind === 'pglite' ? `${ctx.config.dataDir}/site-key-${project.id}` : null
  const make = async () => (await remembered()) ?? remember(await create())
  /** The key a previous process kept, while it is valid for this project and has more than half its life left. */
  const remembered = async (): Promise<{ secret: string; expiresAt: Date } | null> => {
    if (!keyFile) return null
    const secret = await readText(keyFile)
    if (!secret) return null
    const check = await verifyKey(ctx.store, secret, ctx.now())
    if (!check.ok || check.key.kind !== 'assistant' || check.key.projectId !== project.id || !check.key.expiresAt) return null
    if (check.key.expiresAt.getTime() - ctx.now().getTime() < (SITE_KEY_DAYS / 2) * 86_400_000) return null
    return { secret, expiresAt: check.key.expiresAt }
  }
  const remember = async (key: { secret: string; expiresAt: Date }) => {
    if (keyFile) {
      await writeText(keyFile, key.secret).catch((error) =>
        ctx.log.warn('could not keep the demo site key', { file: keyFile, error: String(error) }),
      )
    }
    return key
  }
  const create = async () => {
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
      key = create().then(remember)
      return (await key).secret
    }
    return current.secret
  }
}

// The embedded store's data directory is on a filesystem (node:fs exists on Node, Deno and Bun); elsewhere, as on
// Deno Deploy with Deno KV, keyFile is null and these are never called.
async function readText(file: string): Promise<string | null> {
  const { readFile } = await import('node:fs/promises')
  return readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => null,
  )
}

async function writeText(file: string, text: string): Promise<void> {
  const { writeFile } = await import('node:fs/promises')
  await writeFile(file, `${text}\n`, { mode: 0o600 })
}
