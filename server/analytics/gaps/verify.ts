import { git } from '../../git/isomorphic.ts'
import type { ProjectConfig } from '../../config.ts'
import type { DocentContext } from '../../context.ts'
import type { GapRecord } from '../../store/types.ts'
import { allTime } from '../range.ts'
import { askAgain } from './ask-again.ts'
import { gapQuestions } from './questions.ts'
import { trimBoth } from '../../../shared/trim.ts'

/** Questions re-asked to verify a fix: the most asked wordings (one answer each, with the project's model). */
const REASKED = 10

/** The docs pages a job's commits changed (added or modified), as page paths relative to the docs root. */
export async function changedPages(ctx: DocentContext, project: ProjectConfig, jobId: string): Promise<Set<string>> {
  const root = 'repository' in project.docs ? trimBoth(project.docs.root, '/') : ''
  const pages = new Set<string>()
  for (const event of await ctx.store.listJobEvents(jobId)) {
    if (event.type !== 'commit') continue
    const files = (event.data?.files ?? []) as Array<{ path?: string; kind?: string }>
    for (const file of files) {
      if (!file.path || file.kind === 'deleted' || !/\.mdx?$/i.test(file.path)) continue
      if (root && !file.path.startsWith(`${root}/`)) continue
      const page = (root ? file.path.slice(root.length + 1) : file.path).replace(/\.mdx?$/i, '')
      pages.add(page)
      if (page.endsWith('/index')) pages.add(page.slice(0, -'/index'.length))
    }
  }
  return pages
}

/**
 * Whether the docs the assistant serves include the merge: the served revision is the merge commit or (for docs
 * in a local repository) one after it; for other docs, a revision that moved since the merge was seen.
 */
export async function docsReachedMerge(ctx: DocentContext, project: ProjectConfig, gap: GapRecord): Promise<boolean> {
  const merge = gap.merge
  if (!merge) return false
  const corpus = await ctx.search.corpus(project.id)
  if (corpus.revision === merge.commit) return true
  const docs = project.docs
  if ('repository' in docs && docs.repository.startsWith('local:') && merge.commit) {
    const repo = await ctx.agentGit.localRepositories.open(docs.repository.slice('local:'.length))
    return git.isDescendent({ ...repo, oid: corpus.revision, ancestor: merge.commit, depth: -1 }).catch(() => false)
  }
  return merge.revisionAtMerge !== null && corpus.revision !== merge.revisionAtMerge
}

export interface Verification {
  fixed: boolean
  reason: string | null
}

/**
 * The pages the fix changed that the docs as served now read as plain markdown, not valid MDX (an MDX site's build
 * fails on them), leaving out those that were already not valid MDX before the merge (`notMdxBefore`, null when
 * unknown: then every such page counts).
 */
export function pagesLeftNotMdx(
  changed: ReadonlySet<string>,
  notMdxNow: readonly string[],
  notMdxBefore: ReadonlySet<string> | null,
): string[] {
  return notMdxNow.filter((page) => changed.has(page) && !notMdxBefore?.has(page))
}

/**
 * Checks a fix against the docs as served now: not fixed when a page it changed stopped being valid MDX (see
 * pagesLeftNotMdx; `notMdxBefore` lists the pages that were not valid MDX before the merge). Otherwise re-asks the
 * gap's questions: fixed when every one is answered citing a page the fix changed; otherwise the reason says which
 * were not, and why.
 */
export async function verifyGap(
  ctx: DocentContext,
  project: ProjectConfig,
  gap: GapRecord,
  notMdxBefore: ReadonlySet<string> | null = null,
): Promise<Verification> {
  const changed = gap.jobId ? await changedPages(ctx, project, gap.jobId) : new Set<string>()
  const broken = pagesLeftNotMdx(changed, ctx.search.status?.(project.id)?.notMdx ?? [], notMdxBefore)
  if (broken.length > 0) {
    const pages = broken.slice(0, 10).join(', ')
    return {
      fixed: false,
      reason: `the fix left ${pages} invalid MDX: the docs now read ${broken.length === 1 ? 'it' : 'them'} as plain markdown, and an MDX site's build fails on ${broken.length === 1 ? 'it' : 'them'} (a tag left open, or a < or { meant as text?)`,
    }
  }
  const signals = await ctx.store.listGapSignals(project.id, gap.id, allTime(), 500)
  const questions = gapQuestions(signals, REASKED)
  if (questions.length === 0) return { fixed: false, reason: 'no question of this gap is left to re-ask (retention removed them)' }
  const failures: string[] = []
  for (const { query } of questions) {
    const result = await askAgain(ctx, project, query)
    if (!result.answered) failures.push(`"${query}" is still not answered`)
    else if (!result.cited.some((source) => changed.has(source.path))) {
      const from = [...new Set(result.cited.map((source) => source.path))].join(', ')
      failures.push(`"${query}" is answered from ${from || 'no page'}, not from a page the fix changed`)
    }
  }
  if (failures.length === 0) return { fixed: true, reason: null }
  return {
    fixed: false,
    reason: `re-asked after the merge: ${failures.length} of ${questions.length} question(s) not fixed: ${failures.join('; ')}`.slice(
      0,
      2000,
    ),
  }
}
