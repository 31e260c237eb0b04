import type { ProjectConfig } from './config.ts'

/** The configured projects, looked up by id (admin routes) or by domain (assistant routes). */
export class Projects {
  private byIdMap = new Map<string, ProjectConfig>()
  private byDomainMap = new Map<string, ProjectConfig>()
  constructor(readonly all: ProjectConfig[]) {
    for (const project of all) {
      this.byIdMap.set(project.id, project)
      this.byDomainMap.set(project.domain, project)
    }
  }
  byId(id: string | null | undefined): ProjectConfig | undefined {
    return id ? this.byIdMap.get(id) : undefined
  }
  byDomain(domain: string | null | undefined): ProjectConfig | undefined {
    return domain ? this.byDomainMap.get(domain) : undefined
  }
}
