/**
 * The automation engines the run executor calls: pure functions of the docs (and, for the changelog, of what merged),
 * each returning exact edits, a report and a summary for the pull request body. None calls a model, a store or the
 * network, except `sendNotification`, which is handed `fetch`.
 *
 *   const tree = readDocsTree(files)                      // path → text of the docs repository, docs.json included
 *   fixBrokenLinks(tree)                                  // { edits, report, summary }
 *   fixTypos(tree, { speller: await loadEnglishSpeller() })
 *   fixSeo(tree)
 *   draftChangelog(tree, { changes, date: '2026-11-23' })
 *   applyFileEdits(files, result.edits)                   // the changed files' new texts
 */
export { type DocsTree, readDocsTree, type TreePage } from './docs-tree.ts'
export { applyEdits, applyFileEdits, type FileEdit, type TextEdit } from './edits.ts'
export { type CronSchedule, type DueSlot, dueSlot, parseSchedule, scheduleProblem, slotsBetween } from './schedule.ts'
export {
  type BrokenLinksOptions,
  type BrokenLinksResult,
  fixBrokenLinks,
  type LinkProblem,
  type LinkReport,
} from './links/fix-broken-links.ts'
export { fixTypos, type Misspelling, type TyposOptions, type TyposReport, type TyposResult } from './typos/fix-typos.ts'
export { createSpeller, loadEnglishSpeller, type Speller, type SpellerData } from './typos/speller.ts'
export { fixSeo, type SeoChange, type SeoOptions, type SeoProblem, type SeoReport, type SeoResult } from './seo/fix-seo.ts'
export { type ChangelogItem, classifyChanges, type Group, type MergedChange } from './changelog/classify.ts'
export {
  type ChangelogInput,
  type ChangelogReport,
  type ChangelogResult,
  draftChangelog,
  findChangelogPage,
} from './changelog/draft-changelog.ts'
export {
  AutomationEvent,
  AutomationWebhookBody,
  eventText,
  type SlackMessage,
  slackMessage,
  webhookBody,
} from './notifications/payloads.ts'
export { type NotificationTarget, sendNotification, type SendOptions, type SendResult } from './notifications/send.ts'
