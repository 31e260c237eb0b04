import type { AutomationTrigger, PredefinedAutomationId } from '../../shared/automations.ts'

/** Mechanical work done exactly by an engine of this folder, with no model. */
export type Engine = 'links' | 'seo' | 'typos' | 'changelog' | 'gaps' | 'feedback'

/**
 * `maintenance`: its fixes collect in one open pull request (a later run appends to it) until it is merged or closed.
 * `self-updating`: each run's change is its own pull request (a changelog entry, the docs for one release).
 */
export type AutomationClass = 'maintenance' | 'self-updating'

export interface AutomationDefinition {
  id: PredefinedAutomationId
  name: string
  description: string
  class: AutomationClass
  /** The engine that does the work with no model; null: the work needs a language model. */
  engine: Engine | null
  /** With a language model, the work goes to the agent instead of the engine (the engine is its offline fallback). */
  modelFirst: boolean
  trigger: AutomationTrigger
  /** What the agent is asked (a model's prompt), or what the engine does (the job's record of the request). */
  request: string
}

const WEEKLY: AutomationTrigger = { kind: 'schedule', cron: '0 9 * * mon', timeZone: 'UTC' }

export const CATALOG: readonly AutomationDefinition[] = [
  {
    id: 'update-from-code-changes',
    name: 'Update docs from code changes',
    description: 'When a pull request merges in a listed code repository, the agent updates the pages it makes wrong or incomplete.',
    class: 'self-updating',
    engine: null,
    modelFirst: true,
    trigger: { kind: 'code', repositories: [] },
    request:
      'Update the documentation for the code changes below, merged since the last run. Change only what they make wrong ' +
      'or missing (new options, changed behaviour, removed features), in the docs’ own style, and nothing else. When no ' +
      'page needs to change, change nothing and say why.',
  },
  {
    id: 'draft-changelog',
    name: 'Draft changelog',
    description:
      'Drafts a changelog entry from what merged since the last run (pull requests and commits, grouped), at the top of the changelog page.',
    class: 'self-updating',
    engine: 'changelog',
    modelFirst: false,
    trigger: WEEKLY,
    request: 'Draft a changelog entry from the pull requests and commits merged since the last run, grouped, in the changelog page.',
  },
  {
    id: 'fill-gaps',
    name: 'Fill gaps',
    description:
      'Questions readers asked that the docs did not answer become a pull request: answers where the docs hold them, else questions for a writer.',
    class: 'self-updating',
    engine: 'gaps',
    modelFirst: true,
    trigger: WEEKLY,
    request:
      'Readers asked the questions below and the docs did not answer them. For each, find where the answer belongs and ' +
      'write it from what the docs already say; when the docs hold it under other words, add the readers’ wording and a ' +
      'cross-link. Never invent facts: what the docs cannot answer goes to the FAQ page as a question marked for a writer.',
  },
  {
    id: 'improve-from-feedback',
    name: 'Improve docs from reader feedback',
    description: 'Readers’ comments on answers and pages become a pull request on the pages they concern.',
    class: 'self-updating',
    engine: 'feedback',
    modelFirst: true,
    trigger: WEEKLY,
    request:
      'Readers left the comments below on these pages. Improve each page where a comment shows it is unclear, wrong or ' +
      'missing something the docs can answer; leave a page alone when the comment is not about the docs.',
  },
  {
    id: 'translate',
    name: 'Translate',
    description: 'Keeps translations in the target languages up to date with the pages that changed.',
    class: 'self-updating',
    engine: null,
    modelFirst: true,
    trigger: { kind: 'content' },
    request:
      'Translate the pages that changed in the last docs change into the target languages below, at the paths the docs ' +
      'use for each language (the languages of docs.json, else a <language>/ folder), and list them in docs.json where ' +
      'the original is. Keep code, links, component names and frontmatter keys as they are.',
  },
  {
    id: 'fix-broken-links',
    name: 'Fix broken links',
    description:
      'Checks every internal link and anchor against the pages and docs.json; fixes moved or renamed pages exactly and lists what it cannot fix.',
    class: 'maintenance',
    engine: 'links',
    modelFirst: false,
    trigger: { kind: 'content' },
    request:
      'Fix broken internal links and anchors: point each to the page or heading that exists, and list the ones that cannot be fixed.',
  },
  {
    id: 'fix-seo',
    name: 'Fix SEO metadata',
    description: 'Fills missing or duplicate title and description frontmatter from the page itself.',
    class: 'maintenance',
    engine: 'seo',
    modelFirst: false,
    trigger: { kind: 'content' },
    request: 'Fill missing or duplicate title and description frontmatter from each page’s own heading and first paragraph.',
  },
  {
    id: 'fix-typos',
    name: 'Fix typos',
    description: 'Corrects misspellings a dictionary is sure of, in prose only (never code, URLs or the project’s own terms).',
    class: 'maintenance',
    engine: 'typos',
    modelFirst: false,
    trigger: { kind: 'content' },
    request: 'Correct the misspellings a dictionary is sure of, in prose only, and list the words it is not sure of.',
  },
  {
    id: 'style-guide',
    name: 'Enforce the style guide',
    description: 'Edits pages that depart from the style guide (the instructions, and a style guide file in the repository).',
    class: 'maintenance',
    engine: null,
    modelFirst: true,
    trigger: { kind: 'content' },
    request:
      'Review the pages that changed in the last docs change against the style guide (the instructions below, and any ' +
      'style guide in the repository such as STYLE.md or style-guide.mdx) and edit what departs from it. Change wording ' +
      'and form only, never facts, code or links.',
  },
]

const BY_ID = new Map<string, AutomationDefinition>(CATALOG.map((definition) => [definition.id, definition]))

export function definitionOf(id: string): AutomationDefinition | undefined {
  return BY_ID.get(id)
}
