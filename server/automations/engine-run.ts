import type { Engine } from './catalog.ts'
import type { MergedChange } from './changelog/classify.ts'
import { draftChangelog } from './changelog/draft-changelog.ts'
import type { DocsTree } from './docs-tree.ts'
import type { FileEdit } from './edits.ts'
import { fixBrokenLinks } from './links/fix-broken-links.ts'
import { proposeFeedback, proposeGapQuestions } from './readers/propose.ts'
import type { ReaderFeedback, ReaderGap } from './readers/signals.ts'
import { fixSeo } from './seo/fix-seo.ts'
import { fixTypos } from './typos/fix-typos.ts'
import { loadEnglishSpeller } from './typos/speller.ts'

/** What a run gives an engine beyond the docs; the lists are read only by the engines that need them. */
export interface EngineInputs {
  /** Paths of the docs' other files (images...), so links to them are checked. */
  assets: string[]
  /** The run's day, `YYYY-MM-DD`, in the automation's time zone. */
  date: string
  /** The project's own words, never flagged as misspelt. */
  terms: string[]
  changes: () => Promise<MergedChange[]>
  gaps: () => Promise<ReaderGap[]>
  feedback: () => Promise<ReaderFeedback[]>
}

export interface EngineOutcome {
  edits: FileEdit[]
  /** The pull request's title. */
  title: string
  /** Markdown for the pull request: what changed, and what needs a person. */
  summary: string
  /** Why nothing changed (the run's note when `edits` is empty). */
  nothing: string
}

/** Runs one engine on the docs, with no model, and says what it did in words a pull request and a run history show. */
export async function runEngine(engine: Engine, tree: DocsTree, inputs: EngineInputs): Promise<EngineOutcome> {
  switch (engine) {
    case 'links': {
      const { edits, report, summary } = fixBrokenLinks(tree, { assets: inputs.assets })
      const left = report.unfixed
        ? ` ${report.unfixed} broken link${report.unfixed === 1 ? '' : 's'} cannot be fixed exactly: ${listed(report.problems.filter((p) => !p.fixedTo).map((p) => `${p.file}:${p.line} ${p.url}`))}.`
        : ''
      return {
        edits,
        title: `Fix ${report.fixed} broken link${report.fixed === 1 ? '' : 's'}`,
        summary,
        nothing: `No broken link to fix: ${report.checked} internal links checked in ${report.files} files.${left}`,
      }
    }
    case 'typos': {
      const { edits, report, summary } = fixTypos(tree, { speller: await loadEnglishSpeller(), terms: inputs.terms })
      const left = report.listed
        ? ` ${report.listed} unknown word${report.listed === 1 ? '' : 's'} left for a person: ${listed(report.misspellings.filter((m) => !m.correction).map((m) => m.word))}.`
        : ''
      return {
        edits,
        title: `Fix ${report.fixed} typo${report.fixed === 1 ? '' : 's'}`,
        summary,
        nothing: `No misspelling the dictionary is sure of: ${report.words} words read in ${report.files} files.${left}`,
      }
    }
    case 'seo': {
      const { edits, report, summary } = fixSeo(tree)
      const left = report.left.length ? ` ${report.left.length} left for a person.` : ''
      return {
        edits,
        title: `Fill ${report.changes.length} missing or duplicate title${report.changes.length === 1 ? '' : 's'} and descriptions`,
        summary,
        nothing: `Every page checked (${report.pages}) has its own title and description.${left}`,
      }
    }
    case 'changelog': {
      const changes = await inputs.changes()
      const { edits, summary } = draftChangelog(tree, { changes, date: inputs.date })
      return {
        edits,
        title: `Changelog for ${inputs.date}`,
        summary,
        nothing: changes.length === 0 ? 'Nothing merged since the last run.' : summary.split('\n')[0]!,
      }
    }
    case 'gaps': {
      const gaps = await inputs.gaps()
      const { edits, summary, proposed } = proposeGapQuestions(tree, gaps, inputs.date)
      return { edits, title: `Readers’ questions for a writer (${proposed})`, summary, nothing: summary }
    }
    case 'feedback': {
      const feedback = await inputs.feedback()
      const { edits, summary, proposed } = proposeFeedback(tree, feedback, inputs.date)
      return { edits, title: `Reader feedback for a writer (${proposed})`, summary, nothing: summary }
    }
  }
}

/** The first few items of a list, for a one-line note. */
function listed(items: string[], max = 5): string {
  return items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ')
}
