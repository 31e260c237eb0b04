import type { ProjectConfig } from '../config.ts'
import type { Corpus } from './types.ts'

/**
 * What the docs are called wherever Docent names them (the assistant's prompt, the site's title, its widget and
 * starter questions, llms.txt, the MCP server): the site's own name (`docs.json`'s `name`), else the project's
 * `name`, else its domain. One rule, so a reader never meets "Ask Docs" on a site the assistant calls "Acme".
 */
export function docsNameOf(corpus: Pick<Corpus, 'siteName'>, project: Pick<ProjectConfig, 'name' | 'domain'>): string {
  return corpus.siteName ?? project.name ?? project.domain
}
