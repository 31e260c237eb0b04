import { addToNavigation, folderOf, parseJson, pickGroup } from './docs-navigation.ts'
import { type EditIntent, MISSPELLINGS, parseInstruction, UNDERSTOOD_INSTRUCTIONS } from './edit-instructions.ts'
import { correctSpelling } from './spelling.ts'
import { MAX_SUMMARY_CHARS } from '../agent/reply-limits.ts'

/** One tool call of an earlier step in this run, with what the tool answered (`error` when it refused). */
export interface PastCall {
  toolName: string
  input: Record<string, unknown>
  output: unknown
  error: string | null
}

export interface PlannedCall {
  toolName: string
  input: Record<string, unknown>
}

/** The next step: tool calls to make, or (once `finish` was called) a closing text. */
export type NextStep = { calls: PlannedCall[] } | { text: string }

const MAX_FILES = 500

/**
 * The offline editor's whole mind: from the instruction and the steps taken so far in this run, the next tool calls.
 * It acts only through the agent's tools, as an LLM would, so the tools' path confinement and limits apply to it too.
 */
export function planNextStep(instruction: string, steps: PastCall[][]): NextStep {
  if (steps.some((step) => step.some((call) => call.toolName === 'finish'))) return { text: 'Done.' }
  // A search or listing that failed ends the run as not done, saying why, whatever the instruction: read as "nothing
  // found", a repository the tools cannot read completed with "no page contains …", and a new page named without the
  // listing could replace an existing one.
  const failed = steps.at(-1)?.find((past) => past.error && (past.toolName === 'search_docs' || past.toolName === 'list_files'))
  if (failed) return finish(`No change: ${failed.toolName} failed: ${failed.error}`, false)
  const intent = parseInstruction(instruction)
  switch (intent.kind) {
    case 'replace':
      return intent.page ? replaceInPage(intent, steps) : replaceEverywhere(intent, steps)
    case 'add-page':
      return addPage(intent, steps)
    case 'append-section':
      return appendSection(intent, steps)
    case 'fix-spelling':
      return fixSpelling(intent, steps)
    case 'unknown':
      return finish(notUnderstood(instruction))
  }
}

export function notUnderstood(instruction: string): string {
  return [
    'No change: the offline editor did not understand this instruction.',
    '',
    `Instruction: ${instruction.length > 300 ? `${instruction.slice(0, 300)}…` : instruction}`,
    '',
    'The offline editor understands these instructions (configure a model for anything else):',
    ...UNDERSTOOD_INSTRUCTIONS.map((line) => `- ${line}`),
  ].join('\n')
}

/** Ends the run; `done: false` when the instruction could not be carried out (the job then fails with the summary). */
const finish = (summary: string, done = true): NextStep => ({
  calls: [{ toolName: 'finish', input: done ? { summary } : { summary, done } }],
})
const finishEdits = (result: { summary: string; done: boolean }) => finish(result.summary, result.done)
const call = (toolName: string, input: Record<string, unknown>): PlannedCall => ({ toolName, input })

type Replace = Extract<EditIntent, { kind: 'replace' }>

function replaceEverywhere(intent: Replace, steps: PastCall[][]): NextStep {
  if (steps.length === 0) return { calls: [call('search_docs', { query: intent.from, exact: true, limit: MAX_FILES })] }
  if (steps.length === 1) {
    const paths = searchPaths(steps[0]!)
    if (paths.length === 0) return finish(`No change: no page contains "${intent.from}".`)
    return { calls: paths.map((path) => call('edit_file', { path, old_text: intent.from, new_text: intent.to, replace_all: true })) }
  }
  return finishEdits(editSummary(`Replace "${intent.from}" with "${intent.to}" everywhere`, steps[1]!))
}

function replaceInPage(intent: Replace, steps: PastCall[][]): NextStep {
  const found = findPage(intent.page!, steps)
  if ('step' in found) return found.step
  if (steps.length === 1) {
    return { calls: [call('edit_file', { path: found.path, old_text: intent.from, new_text: intent.to, replace_all: true })] }
  }
  return finishEdits(editSummary(`Replace "${intent.from}" with "${intent.to}" in ${found.path}`, steps[1]!))
}

type AddPage = Extract<EditIntent, { kind: 'add-page' }>

function addPage(intent: AddPage, steps: PastCall[][]): NextStep {
  if (steps.length === 0) return { calls: [call('read_file', { path: 'docs.json' }), call('list_files', {})] }
  const [docsJson, listing] = steps[0]!
  const navigation = docsJson?.error ? null : parseJson((docsJson?.output as { content?: string })?.content)
  const picked = navigation ? pickGroup(navigation.value, intent.group) : null
  if (steps.length === 1) {
    const files = new Set(((listing?.output as { files?: string[] })?.files ?? []) as string[])
    const folder = picked ? folderOf(picked.group.pages) : ''
    const slug = slugify(intent.title) || 'new-page'
    let path = `${folder ? `${folder}/` : ''}${slug}.mdx`
    for (let n = 2; files.has(path); n++) path = `${folder ? `${folder}/` : ''}${slug}-${n}.mdx`
    return { calls: [call('write_file', { path, content: newPage(intent.title, intent.body) })] }
  }
  // The navigation entry is written only once the page exists: a refused page leaves docs.json as it was.
  const page = steps[1]![0]!
  if (page.error) return finish(`Could not add the page "${intent.title}": ${page.error}`, false)
  const path = String(page.input.path)
  if (steps.length === 2) {
    const updated = navigation && picked ? addToNavigation(navigation.text, picked, path.replace(/\.mdx$/, '')) : null
    if (updated) return { calls: [call('write_file', { path: 'docs.json', content: updated })] }
    return finish(`Add the page "${intent.title}"\n\nCreated ${path} (no docs.json navigation found, so it is not in the navigation).`)
  }
  const nav = steps[2]![0]!
  if (nav.error) {
    return finish(
      `Add the page "${intent.title}"\n\nCreated ${path}, but could not add it to the navigation in docs.json: ${nav.error}`,
      false,
    )
  }
  return finish(`Add the page "${intent.title}"\n\nCreated ${path} and added it to the navigation in docs.json.`)
}

type AppendSection = Extract<EditIntent, { kind: 'append-section' }>

function appendSection(intent: AppendSection, steps: PastCall[][]): NextStep {
  const found = findPage(intent.page, steps)
  if ('step' in found) return found.step
  if (steps.length === 1) return { calls: [call('read_file', { path: found.path })] }
  if (steps.length === 2) {
    const read = steps[1]![0]!
    if (read.error) return finish(`Could not append to ${found.path}: ${read.error}`, false)
    const content = String((read.output as { content?: string }).content ?? '')
    const section = `## ${intent.heading}\n\n${intent.body ?? placeholder}\n`
    return { calls: [call('write_file', { path: found.path, content: `${content.trimEnd()}\n\n${section}` })] }
  }
  const write = steps[2]![0]!
  if (write.error) return finish(`Could not append to ${found.path}: ${write.error}`, false)
  return finish(`Add the section "${intent.heading}" to ${found.path}\n\nAppended the section at the end of the page.`)
}

type FixSpelling = Extract<EditIntent, { kind: 'fix-spelling' }>

function fixSpelling(intent: FixSpelling, steps: PastCall[][]): NextStep {
  let words: Array<[string, string]>
  if (intent.word) {
    const correction = intent.correction ?? MISSPELLINGS[intent.word.toLowerCase()]
    if (!correction) {
      return finish(
        `No change: I do not know the right spelling of "${intent.word}". Say: Fix the misspelling "${intent.word}" -> "correct spelling".`,
        false,
      )
    }
    words = [[intent.word, correction]]
  } else {
    words = Object.entries(MISSPELLINGS)
  }
  // Steps: find the files (by page, or by searching each word), read them, write the corrected ones, finish.
  let offset: number
  let paths: string[]
  if (intent.page) {
    const found = findPage(intent.page, steps)
    if ('step' in found) return found.step
    offset = 1
    paths = [found.path]
  } else {
    if (steps.length === 0) {
      return { calls: words.map(([word]) => call('search_docs', { query: word, exact: true, ignore_case: true, limit: MAX_FILES })) }
    }
    offset = 1
    paths = [...new Set(steps[0]!.flatMap((past) => searchPaths([past])))].sort()
    if (paths.length === 0) return finish('No change: found none of the misspellings I know.')
  }
  if (steps.length === offset) return { calls: paths.map((path) => call('read_file', { path })) }
  if (steps.length === offset + 1) {
    const calls: PlannedCall[] = []
    for (const read of steps[offset]!) {
      if (read.error) continue
      const content = String((read.output as { content?: string }).content ?? '')
      const fixed = correctSpelling(content, words)
      if (fixed !== content) calls.push(call('write_file', { path: String(read.input.path), content: fixed }))
    }
    if (calls.length === 0) return finish('No change: the misspelling appears only inside code or as part of other words.')
    return { calls }
  }
  const label = intent.word ? `Fix the misspelling "${words[0]![0]}" -> "${words[0]![1]}"` : 'Fix common misspellings'
  return finishEdits(editSummary(label, steps[offset + 1]!))
}

/**
 * Resolves `<page>` (a path, a path without extension, or a page title) with one list_files + search_docs step. The
 * search is exact (a page titled X contains X): a substring scan, where a ranked search would index the whole repository.
 */
function findPage(ref: string, steps: PastCall[][]): { path: string } | { step: NextStep } {
  if (steps.length === 0) {
    return {
      step: { calls: [call('list_files', {}), call('search_docs', { query: ref, exact: true, ignore_case: true, limit: MAX_FILES })] },
    }
  }
  const [listing, search] = steps[0]!
  const files = ((listing?.output as { files?: string[] })?.files ?? []).filter((path) => /\.mdx?$/i.test(path))
  const wanted = ref
    .trim()
    .replace(/^\/+/, '')
    .replace(/\.mdx?$/i, '')
    .toLowerCase()
  const bare = (path: string) => path.replace(/\.mdx?$/i, '').toLowerCase()
  const byPath = files.find((path) => bare(path) === wanted) ?? files.find((path) => bare(path).endsWith(`/${wanted}`))
  if (byPath) return { path: byPath }
  const hits = (search?.output as { results?: Array<{ path: string; title: string | null }> })?.results ?? []
  const byTitle = hits.find((hit) => hit.title?.toLowerCase() === ref.trim().toLowerCase())
  if (byTitle) return { path: byTitle.path }
  const slug = slugify(ref)
  const bySlug = files.find((path) => bare(path).split('/').pop() === slug)
  if (bySlug) return { path: bySlug }
  return {
    step: finish(`No change: I could not find the page "${ref}". Give its path (e.g. guides/webhooks.mdx) or its exact title.`, false),
  }
}

function searchPaths(step: PastCall[]): string[] {
  return step.flatMap((past) => ((past.output as { results?: Array<{ path: string }> })?.results ?? []).map((hit) => hit.path))
}

/** What a step of edits did (its first line is the commit title); not done when any edit was refused. */
function editSummary(title: string, step: PastCall[]): { summary: string; done: boolean } {
  const done = step.filter((past) => !past.error)
  const refused = step.filter((past) => past.error)
  const count = (past: PastCall) => (past.output as { replacements?: number })?.replacements ?? 1
  const lines = [title, '']
  if (done.length === 0) lines[0] = `No change: ${title.charAt(0).toLowerCase()}${title.slice(1)} failed`
  else {
    lines.push(
      `Changed ${done.length} file(s):`,
      ...done.map((past) => `- ${past.input.path}${past.toolName === 'edit_file' ? ` (${count(past)} replacement(s))` : ''}`),
    )
  }
  if (refused.length > 0) lines.push('', 'Not changed:', ...refused.map((past) => `- ${past.input.path}: ${past.error}`))
  return { summary: withinChars(lines, MAX_SUMMARY_CHARS), done: refused.length === 0 }
}

/** The lines, as many as fit in `max` characters, then how many were left out (a large repository's file list). */
function withinChars(lines: string[], max: number): string {
  const kept: string[] = []
  let size = 0
  for (const [index, line] of lines.entries()) {
    const left = `… and ${lines.length - index} more line(s)`
    if (size + line.length + 1 + left.length + 1 > max) return [...kept, left].join('\n')
    kept.push(line)
    size += line.length + 1
  }
  return kept.join('\n')
}

const placeholder = '{/* Write this section here. */}'

function newPage(title: string, body: string | null): string {
  const description = body ? firstSentence(body) : null
  return [
    '---',
    `title: ${JSON.stringify(title)}`,
    ...(description ? [`description: ${JSON.stringify(description)}`] : []),
    '---',
    '',
    body ?? '{/* Write this page here. */}',
    '',
  ].join('\n')
}

function firstSentence(text: string): string {
  const sentence = /^[^.!?\n]+[.!?]?/.exec(text.trim())?.[0] ?? text
  return sentence.length > 160 ? `${sentence.slice(0, 157)}…` : sentence
}

export function slugify(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      // One dash at most at either end after the line above.
      .replace(/^-|-$/g, '')
      .slice(0, 60)
  )
}
