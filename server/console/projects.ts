import { type ConsoleProject, ProjectList, ProjectStatus } from '../../shared/console.ts'
import { modelIdOf } from '../context.ts'
import { withoutCredentials } from '../git/repository-url.ts'
import { docsArePublic, type ProjectConfig } from '../config.ts'
import { siteProject } from '../site/routes.ts'
import type { DocentContext } from '../context.ts'
import { adminGuard, organizationGuard } from '../http/guards.ts'
import { type Route, route } from '../http/route.ts'
import { sameOrganization } from './shown-organization.ts'

const projectView = (project: ProjectConfig): ConsoleProject => ({
  id: project.id,
  name: project.name ?? project.id,
  domain: project.domain,
  agent: Boolean(project.agent),
})

/** The organization's projects, for the console's project switcher. */
export const consoleProjects = (ctx: DocentContext, organization: string): ConsoleProject[] =>
  ctx.projects.all.filter((project) => project.organization === organization).map(projectView)

/** What the Project screen shows: where the docs come from and how they loaded, the models, the agent's host. */
export async function projectStatus(ctx: DocentContext, project: ProjectConfig): Promise<ProjectStatus> {
  // Asking for the corpus starts the first load if nothing did yet; a failed load is reported, not thrown.
  await ctx.search.corpus(project.id).catch(() => undefined)
  const docs = ctx.search.status?.(project.id) ?? null
  const { model } = ctx.config
  const host = project.agent?.host
  return {
    ...projectView(project),
    organization: project.organization,
    siteUrl: project.siteUrl ?? null,
    site: siteOf(ctx, project),
    docs: {
      kind: 'directory' in project.docs ? 'directory' : 'git',
      location: 'directory' in project.docs ? project.docs.directory : withoutCredentials(project.docs.repository),
      ref: 'directory' in project.docs ? null : project.docs.ref,
      revision: docs?.revision ?? null,
      pages: docs?.pages ?? 0,
      sections: docs?.sections ?? 0,
      loadedAt: docs?.loadedAt?.toISOString() ?? null,
      loadMs: docs?.loadMs ?? null,
      checkedAt: docs?.checkedAt?.toISOString() ?? null,
      error: docs?.error ?? null,
      notMdx: docs?.notMdx ?? [],
      problems: docs?.problems ?? [],
    },
    model: {
      provider: model.provider,
      answer: modelIdOf(ctx.models.answer),
      agent: modelIdOf(ctx.models.editor),
      embedding: model.provider === 'openai' ? (model.embeddingId ?? null) : null,
    },
    agent: project.agent
      ? {
          repository: withoutCredentials(project.agent.repository),
          ref: project.agent.ref,
          host: host?.kind ?? 'local',
          target: host?.kind === 'github' ? host.repo : host?.kind === 'gitlab' ? host.project : null,
        }
      : null,
    // The MCP server asks for a key exactly when the docs do (mcp.public alone is the deprecated name of docs.public).
    mcp: { path: `/mcp/${project.domain}`, public: docsArePublic(project) },
  }
}

/** Where the pages source links point to are served (see ProjectStatus.site): the Project screen said "served by Docent" for pages that were 404. */
function siteOf(ctx: DocentContext, project: ProjectConfig): ProjectStatus['site'] {
  if (project.siteUrl) return { servedBy: 'external', url: project.siteUrl, why: null }
  if (!docsArePublic(project)) return { servedBy: 'none', url: null, why: 'private' }
  if (siteProject(ctx) !== project) return { servedBy: 'none', url: null, why: 'another-project' }
  return { servedBy: 'docent', url: ctx.config.publicUrl ?? '/', why: null }
}

/** `/v2/projects`: the organization's projects and each one's status. */
export function projectRoutes(ctx: DocentContext): Route[] {
  return [
    route({
      method: 'get',
      path: '/v2/projects',
      tag: 'console',
      summary: "The organization's projects",
      guard: sameOrganization(organizationGuard(ctx)),
      responses: { 200: { description: 'the projects', schema: ProjectList } },
      handler: (c, { auth }) => c.json({ projects: consoleProjects(ctx, auth.key.organization) } satisfies ProjectList),
    }),
    route({
      method: 'get',
      path: '/v2/projects/{projectId}',
      tag: 'console',
      summary: 'A project: docs source and revision, pages and sections indexed, last reload and parse problems, models, agent host',
      guard: adminGuard(ctx),
      responses: { 200: { description: 'the project', schema: ProjectStatus } },
      handler: async (c, { auth }) => c.json(await projectStatus(ctx, auth.project)),
    }),
  ]
}
