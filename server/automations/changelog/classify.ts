/** A change merged since the last run: a pull request, or a commit pushed without one. */
export interface MergedChange {
  kind: 'pull_request' | 'commit'
  /** The commit's id or the pull request's number, as text. */
  id: string
  /** The pull request's title or the commit's subject line. */
  title: string
  body?: string
  labels?: string[]
  /** Paths the change touched. */
  files?: string[]
  /** Where a reader sees it (the pull request's page). */
  url?: string
  /** A pull request's number; for a commit, the pull request it came in with, when the host says so. */
  number?: number
}

export const GROUPS = ['Added', 'Changed', 'Fixed', 'Docs'] as const
export type Group = (typeof GROUPS)[number]

/** A change as one line of the changelog, in its group. */
export interface ChangelogItem {
  group: Group
  /** The line's markdown: the title cleaned, a scope in bold, a link to the pull request. */
  text: string
  breaking: boolean
  change: MergedChange
}

export interface Skipped {
  change: MergedChange
  reason: string
}

/**
 * `type(scope)!: subject`. The subject starts at a non-space (`\S.*`, not `.+` after `\s*`), linear: the two split a run
 * of spaces at each of its characters, reading the rest of the line each time, when the line did not end the title.
 * The same subject on the titles read here: they are trimmed, so none ends in a space the subject would have to be.
 */
const CONVENTIONAL = /^(?<type>[a-z]+)(?:\((?<scope>[^)]*)\))?(?<breaking>!)?:\s*(?<subject>\S.*)$/i
const TYPE_GROUPS: Record<string, Group | null> = {
  feat: 'Added',
  feature: 'Added',
  add: 'Added',
  fix: 'Fixed',
  bugfix: 'Fixed',
  hotfix: 'Fixed',
  docs: 'Docs',
  doc: 'Docs',
  perf: 'Changed',
  refactor: 'Changed',
  revert: 'Changed',
  change: 'Changed',
  deprecate: 'Changed',
  remove: 'Changed',
  security: 'Fixed',
  // Work readers of the docs never see.
  chore: null,
  ci: null,
  build: null,
  test: null,
  tests: null,
  style: null,
  release: null,
  deps: null,
}
const SKIP_LABELS = /^(skip[- _]?changelog|no[- _]?changelog|changelog[:/ -]?(skip|none|no)|internal|chore|dependencies|ci|release)$/i
const LABEL_GROUPS: Array<[RegExp, Group]> = [
  [/^(bug|fix|bugfix|regression|security)/i, 'Fixed'],
  [/^(feat|feature|enhancement|new)/i, 'Added'],
  [/^(doc|docs|documentation)\b/i, 'Docs'],
  [/^(breaking|change|improvement|refactor|perf|performance|deprecat)/i, 'Changed'],
]
const WORDING: Array<[RegExp, Group]> = [
  [/^(add|adds|added|adding|introduce[sd]?|support|supports|new|create[sd]?|allow[s]?|enable[sd]?|implement(s|ed)?)\b/i, 'Added'],
  [/^(fix|fixes|fixed|fixing|resolve[sd]?|correct[sed]*|prevent[sed]*|repair[sed]*|handle[sd]?|avoid[sed]*)\b/i, 'Fixed'],
  [/^(docs?|document(s|ed)?|readme|typo)\b/i, 'Docs'],
]
const DOCS_FILE = /(^|\/)(docs?|documentation)\/|\.(mdx?|rst|adoc)$/i
const MERGE = /^Merge (pull request|branch|remote-tracking branch) /i
/**
 * `(#123)` ending a title, as a squash merge names its pull request. The spaces before it are cut in code
 * (withoutPullNumber), linear, where a leading `\s*` read the rest of a run of spaces from each of them.
 */
const PULL_NUMBER = /\(#(\d+)\)\s*$/

/** A trimmed title without the `(#123)` it ends with, and the spaces before that. */
function withoutPullNumber(title: string): string {
  const pull = PULL_NUMBER.exec(title)
  return pull ? title.slice(0, pull.index).trimEnd() : title
}

/**
 * Sorts merged changes into changelog groups, with no model: by labels (`bug`, `enhancement`, `documentation`,
 * `skip-changelog`), else the conventional-commit type (`feat:`, `fix(cli):`, `docs:`, `chore:` is left out, `!` is
 * breaking), else the wording (`Add ...`, `Fix ...`), else the files (only docs touched: Docs), else Changed. Merge
 * commits read as the pull request they merge; a commit that came in with a listed pull request is left out, as
 * are changes labelled or typed as internal.
 */
export function classifyChanges(changes: readonly MergedChange[]): { items: ChangelogItem[]; skipped: Skipped[] } {
  const pulls = new Set(
    changes.filter((change) => change.kind === 'pull_request' && change.number !== undefined).map((change) => change.number),
  )
  const items: ChangelogItem[] = []
  const skipped: Skipped[] = []
  const seen = new Set<string>()
  for (const original of changes) {
    const change = asPullRequest(original)
    const number = change.number ?? (change.kind === 'commit' ? Number(PULL_NUMBER.exec(change.title)?.[1]) || undefined : undefined)
    if (original.kind === 'commit' && number !== undefined && pulls.has(number)) {
      skipped.push({ change: original, reason: `in pull request #${number}` })
      continue
    }
    if (MERGE.test(change.title)) {
      skipped.push({ change: original, reason: 'a merge commit' })
      continue
    }
    const skipLabel = change.labels?.find((label) => SKIP_LABELS.test(label.trim()))
    if (skipLabel) {
      skipped.push({ change: original, reason: `labelled ${skipLabel}` })
      continue
    }
    const title = withoutPullNumber(change.title.trim())
    const conventional = CONVENTIONAL.exec(title)?.groups
    const type = conventional?.type?.toLowerCase()
    const typed = type !== undefined && type in TYPE_GROUPS ? TYPE_GROUPS[type] : undefined
    if (typed === null) {
      skipped.push({ change: original, reason: `a ${type} change` })
      continue
    }
    const subject = typed !== undefined ? conventional!.subject! : title
    const breaking =
      Boolean(conventional?.breaking) ||
      /BREAKING[ -]CHANGE/.test(change.body ?? '') ||
      Boolean(change.labels?.some((label) => /breaking/i.test(label)))
    const group =
      labelGroup(change.labels) ??
      typed ??
      wordingGroup(subject) ??
      (change.files?.length && change.files.every((file) => DOCS_FILE.test(file)) ? 'Docs' : 'Changed')
    const key = `${group}\u0000${subject.toLowerCase()}`
    if (seen.has(key)) {
      skipped.push({ change: original, reason: 'the same as another change' })
      continue
    }
    seen.add(key)
    const scope = typed !== undefined && conventional?.scope ? `**${escapeMdx(conventional.scope)}:** ` : ''
    const link = number !== undefined ? (change.url ? ` ([#${number}](${change.url}))` : ` (#${number})`) : ''
    items.push({
      group,
      text: `${breaking ? '**Breaking:** ' : ''}${scope}${escapeMdx(sentenceCase(subject))}${link}`,
      breaking,
      change: original,
    })
  }
  return { items, skipped }
}

/** GitHub's merge commit names the pull request in its subject and carries its title as the body's first line. */
function asPullRequest(change: MergedChange): MergedChange {
  const merged = /^Merge pull request #(\d+) from \S+/.exec(change.title)
  const title = change.body?.trim().split('\n')[0]?.trim()
  if (change.kind !== 'commit' || !merged || !title) return change
  return { ...change, title, number: Number(merged[1]) }
}

function labelGroup(labels: string[] | undefined): Group | undefined {
  for (const label of labels ?? []) {
    const name = label.trim().replace(/^(type|kind)[:/ ]\s*/i, '')
    const found = LABEL_GROUPS.find(([pattern]) => pattern.test(name))
    if (found) return found[1]
  }
  return undefined
}

const wordingGroup = (subject: string): Group | undefined => WORDING.find(([pattern]) => pattern.test(subject.trim()))?.[1]

const sentenceCase = (text: string) => text.trim().replace(/^\p{Ll}/u, (letter) => letter.toUpperCase())

/**
 * Characters MDX reads as JSX or expressions (`<`, `{`), escaped so a title such as `Support <Card>` stays text; and
 * the backslash itself, so a title's own `\<Card>` does not turn the escape into an escaped backslash before a tag.
 */
export const escapeMdx = (text: string) => text.replace(/[\\<>{}]/g, (char) => `\\${char}`)
