import { generateText, streamText } from 'ai'
import { beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_WRITABLE_PATHS } from '../../server/config.ts'
import { UNDERSTOOD_INSTRUCTIONS } from '../../server/models/edit-instructions.ts'
import type { JobEvents } from '../../server/agent/events.ts'
import { runAgentLoop } from '../../server/agent/loop.ts'
import { MAX_SUMMARY_CHARS } from '../../server/agent/reply-limits.ts'
import { agentSystemPrompt } from '../../server/agent/system-prompt.ts'
import { OfflineEditor } from '../../server/models/offline-editor.ts'
import { readDocsFolder } from './support/demo-files.ts'
import { MemoryWorkspace } from './support/memory-workspace.ts'

let demo: Record<string, string>
beforeAll(async () => {
  demo = await readDocsFolder('demo/docs')
})

async function edit(
  prompt: string,
  files: Record<string, string> = demo,
  writablePaths: readonly string[] = DEFAULT_WRITABLE_PATHS,
  limits = { maxSteps: 10, maxFilesTouched: 500 },
) {
  const workspace = new MemoryWorkspace(files)
  const seen: string[] = []
  const events: JobEvents = { add: async (type, message) => void seen.push(`${type}: ${message}`) }
  const result = await runAgentLoop({
    model: new OfflineEditor(),
    workspace,
    conversation: [],
    prompt,
    instructions: agentSystemPrompt({ repository: 'local:demo', ref: 'main', writablePaths }),
    writablePaths,
    limits: { maxChangedBytes: 5_000_000, ...limits },
    events,
    signal: new AbortController().signal,
  })
  return { workspace, result, events: seen, files: workspace.snapshot(), changes: workspace.changes() }
}

const textFiles = (files: Record<string, string>) => Object.entries(files).filter(([path]) => /\.(mdx?|json)$/.test(path))

describe('offline-editor on the demo docs, through the agent tools', () => {
  test('Replace "Lumen Flags" with "Lumen Toggles" everywhere', async () => {
    const before = textFiles(demo)
      .filter(([, text]) => text.includes('Lumen Flags'))
      .map(([path]) => path)
      .sort()
    expect(before.length).toBeGreaterThan(10)
    const { files, changes, result, events } = await edit('Replace "Lumen Flags" with "Lumen Toggles" everywhere')
    expect(changes.map((change) => change.path)).toEqual(before)
    expect(changes.every((change) => change.kind === 'modified')).toBe(true)
    for (const [path, text] of textFiles(files)) expect(text, path).not.toContain('Lumen Flags')
    const count = (text: string, phrase: string) => text.split(phrase).length - 1
    for (const path of before) {
      expect(count(files[path]!, 'Lumen Toggles')).toBe(count(demo[path]!, 'Lumen Flags') + count(demo[path]!, 'Lumen Toggles'))
    }
    expect(result.summary).toMatch(/^Replace "Lumen Flags" with "Lumen Toggles" everywhere\n/)
    expect(result.summary).toContain(`Changed ${before.length} file(s)`)
    expect(result.hitStepLimit).toBe(false)
    expect(result.steps).toBe(3)
    expect(events.filter((event) => event.startsWith('file.changed'))).toHaveLength(before.length)
  })

  test('on a repository of many pages, the edits go out 50 to a reply, and every page is changed', async () => {
    const many = Object.fromEntries(Array.from({ length: 180 }, (_, i) => [`pages/p${i}.mdx`, `# Page ${i}\n\nLumen Flags page ${i}.\n`]))
    const { changes, result } = await edit('Replace "Lumen Flags" with "Lumen Toggles" everywhere', many, DEFAULT_WRITABLE_PATHS, {
      maxSteps: 40,
      maxFilesTouched: 200,
    })
    expect(changes).toHaveLength(180)
    // A search, four replies of edits (50, 50, 50, 30), the finish.
    expect(result.steps).toBe(6)
    expect(result.summary).toContain('Changed 180 file(s)')
    expect(result.gaveUp).toBe(false)
  })

  test('past the files a run may touch, it ends saying so, in a summary that fits its limit', async () => {
    const many = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`pages/p${i}.mdx`, `# Page ${i}\n\nLumen Flags page ${i}.\n`]))
    const { changes, result } = await edit('Replace "Lumen Flags" with "Lumen Toggles" everywhere', many, DEFAULT_WRITABLE_PATHS, {
      maxSteps: 40,
      maxFilesTouched: 100,
    })
    expect(changes).toHaveLength(100)
    expect(result.gaveUp).toBe(true)
    expect(result.summary!.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS)
    expect(result.summary).toContain('Changed 100 file(s)')
    expect(result.summary).toContain('Not changed:')
    expect(result.summary).toMatch(/… and \d+ more line\(s\)$/)
  })

  test('a repository the tools cannot read ends the run as not done, saying why, never "no page contains"', async () => {
    // As isomorphic-git answers for a tree holding a name git itself refuses (`..`, `.GIT`).
    class Unreadable extends MemoryWorkspace {
      override async listFiles(): Promise<string[]> {
        throw new Error('The filepath "a/.." contains unsafe character sequences')
      }
    }
    for (const prompt of [
      'Replace "Lumen Flags" with "Lumen Toggles" everywhere',
      'Add a page titled "Billing"',
      'Fix misspellings',
      'Fix the misspelling "recieve" in quickstart',
    ]) {
      const result = await runAgentLoop({
        model: new OfflineEditor(),
        workspace: new Unreadable(demo),
        conversation: [],
        prompt,
        instructions: 'x',
        limits: { maxSteps: 10, maxChangedBytes: 5_000_000, maxFilesTouched: 500 },
        events: { add: async () => {} },
        signal: new AbortController().signal,
      })
      expect(result.gaveUp, `${prompt}: ${result.summary}`).toBe(true)
      expect(result.summary, prompt).toMatch(/^No change: (search_docs|list_files) failed: .*unsafe character sequences/)
    }
  })

  test('Replace a phrase in one page, named by path or by title', async () => {
    const byPath = await edit('Replace "Lumen Flags" with "Lumen Toggles" in quickstart.mdx')
    expect(byPath.changes.map((change) => change.path)).toEqual(['quickstart.mdx'])
    expect(byPath.files['quickstart.mdx']).not.toContain('Lumen Flags')
    const byTitle = await edit('Replace "Lumen Flags" with "Lumen Toggles" in "Quickstart"')
    expect(byTitle.changes.map((change) => change.path)).toEqual(['quickstart.mdx'])
    const missing = await edit('Replace "Lumen Flags" with "Lumen Toggles" in "No such page"')
    expect(missing.changes).toEqual([])
    expect(missing.result.summary).toMatch(/could not find the page "No such page"/)
  })

  test('Add a page with a title to a group: a new MDX page with frontmatter, listed in docs.json navigation', async () => {
    const { files, changes, result } = await edit(
      'Add a page titled "Rollback plans" in the "Guides" group with the text "Plan how to turn a flag off safely."',
    )
    expect(changes.map((change) => [change.path, change.kind])).toEqual([
      ['docs.json', 'modified'],
      ['guides/rollback-plans.mdx', 'added'],
    ])
    expect(files['guides/rollback-plans.mdx']).toBe(
      '---\ntitle: "Rollback plans"\ndescription: "Plan how to turn a flag off safely."\n---\n\nPlan how to turn a flag off safely.\n',
    )
    const docs = JSON.parse(files['docs.json']!)
    const guides = docs.navigation.versions[0].tabs[0].groups.find((group: { group: string }) => group.group === 'Guides')
    expect(guides.pages.at(-1)).toBe('guides/rollback-plans')
    // Only that line changed: same indentation, nothing else moved.
    const diff = files['docs.json']!.split('\n').filter(
      (line, i, all) => !demo['docs.json']!.split('\n').includes(line) || all.indexOf(line) !== i,
    )
    expect(diff.map((line) => line.trim())).toContain('"guides/rollback-plans"')
    expect(result.summary).toMatch(/^Add the page "Rollback plans"/)
  })

  test('a refused page write leaves docs.json alone, and the run says it could not finish', async () => {
    const { changes, result, events } = await edit('Add a page titled "Rollback plans" in the "Guides" group', demo, ['**/docs.json'])
    expect(changes).toEqual([])
    expect(result.gaveUp).toBe(true)
    expect(result.summary).toMatch(
      /^Could not add the page "Rollback plans": .*guides\/rollback-plans\.mdx.* refused: the agent may write only/,
    )
    expect(events.filter((event) => event.startsWith('file.changed'))).toEqual([])
  })

  test('Append a section to a page', async () => {
    const { files, changes } = await edit('Append a section "Next steps" to quickstart with the text "Read the targeting guide."')
    expect(changes.map((change) => change.path)).toEqual(['quickstart.mdx'])
    expect(files['quickstart.mdx']!.startsWith(demo['quickstart.mdx']!.trimEnd())).toBe(true)
    expect(files['quickstart.mdx']!.endsWith('\n\n## Next steps\n\nRead the targeting guide.\n')).toBe(true)
  })

  test('Fix a misspelling, keeping capitals and leaving code and other words alone', async () => {
    const files = {
      'docs.json': '{}',
      'guides/a.mdx': '---\ntitle: A\n---\n\nYou will recieve a webhook. Recieve it twice.\n\n```js\nconst recieve = 1\n```\n',
      'guides/b.mdx': '---\ntitle: B\n---\n\nNothing to see; recieved is another word.\n',
    }
    const one = await edit('Fix the misspelling "recieve"', files)
    expect(one.changes.map((change) => change.path)).toEqual(['guides/a.mdx'])
    expect(one.files['guides/a.mdx']).toBe(
      '---\ntitle: A\n---\n\nYou will receive a webhook. Receive it twice.\n\n```js\nconst recieve = 1\n```\n',
    )
    const all = await edit('Fix all misspellings', files)
    expect(all.changes.map((change) => change.path)).toEqual(['guides/a.mdx', 'guides/b.mdx'])
    expect(all.files['guides/b.mdx']).toContain('received is another word')
  })

  test('Anything else: no change, and the summary lists the instructions it understands', async () => {
    const { changes, result } = await edit('Make the docs friendlier and add more examples')
    expect(changes).toEqual([])
    expect(result.summary).toMatch(/^No change: the offline editor did not understand/)
    for (const instruction of UNDERSTOOD_INSTRUCTIONS) expect(result.summary).toContain(instruction)
  })

  test('a follow-up in the same conversation acts on the new instruction only', async () => {
    const first = await edit('Replace "Lumen Flags" with "Lumen Toggles" in quickstart.mdx')
    const workspace = first.workspace
    const events: JobEvents = { add: async () => {} }
    const second = await runAgentLoop({
      model: new OfflineEditor(),
      workspace,
      conversation: first.result.conversation,
      prompt: 'Append a section "Support" to quickstart',
      instructions: 'x',
      limits: { maxSteps: 10, maxChangedBytes: 5_000_000, maxFilesTouched: 500 },
      events,
      signal: new AbortController().signal,
    })
    expect(second.summary).toMatch(/^Add the section "Support" to quickstart.mdx/)
    expect(workspace.snapshot()['quickstart.mdx']).toMatch(/Lumen Toggles[\s\S]*## Support\n/)
    expect(second.conversation.filter((message) => message.role === 'user')).toHaveLength(2)
  })

  test('is a plain AI SDK language model: generateText and streamText work without tools too', async () => {
    const generated = await generateText({ model: new OfflineEditor(), prompt: 'Replace "a" with "b" everywhere' })
    expect(generated.text).toMatch(/file tools/)
    const streamed = streamText({ model: new OfflineEditor(), prompt: 'Replace "a" with "b" everywhere' })
    expect(await streamed.text).toBe(generated.text)
  })
})
