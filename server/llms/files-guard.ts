import { docsArePublic } from '../config.ts'
import type { DocentContext } from '../context.ts'
import type { DocsAuthInfo } from '../http/auth.ts'
import { type DocsGuardOptions, docsGuard } from '../http/guards.ts'
import { quotaRules } from '../http/quotas.ts'
import { rateLimiter } from '../http/rate-limit.ts'
import type { Guard } from '../http/route.ts'

/**
 * The docs guard of the docs files (`llms.txt`, `llms-full.txt`, `<page>.md`): the files of public docs count on
 * their own per-IP budget (`publicFiles`, see quotas.ts), key or no key, since anyone may read them without one; the
 * files of private docs are reads of the docs like search and page, and count on the docs budget.
 */
export function docsFilesGuard(ctx: DocentContext, options: DocsGuardOptions): Guard<DocsAuthInfo> {
  const guard = docsGuard(ctx, options)
  const admit = rateLimiter({
    store: ctx.store,
    now: ctx.now,
    rules: (c) => {
      const { key, project } = guard.auth(c)
      return quotaRules(ctx.config, docsArePublic(project) ? 'publicFiles' : 'docs', { organization: project.organization, key })
    },
  })
  return { ...guard, admit }
}
