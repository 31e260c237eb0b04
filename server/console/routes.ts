import type { DocentContext } from '../context.ts'
import type { Route } from '../http/route.ts'
import { consoleJobRoutes } from './job-routes.ts'
import { keyRoutes } from './key-routes.ts'
import { projectRoutes } from './projects.ts'
import { sessionRoutes } from './session-routes.ts'

/** The console's server side: sign-in, keys, projects, and the Agent screen's job list. */
export function consoleRoutes(ctx: DocentContext): Route[] {
  return [...sessionRoutes(ctx), ...keyRoutes(ctx), ...projectRoutes(ctx), ...consoleJobRoutes(ctx)]
}
