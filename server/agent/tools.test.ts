import { describe, expect, test } from 'vitest'
import { MemoryWorkspace } from '../../tests/agent/support/memory-workspace.ts'
import type { JobEvents } from './events.ts'
import { repositoryPath as confinePath } from '../git/paths.ts'
import { agentTools } from './tools.ts'
import { writablePaths } from './writable-paths.ts'
import { DEFAULT_WRITABLE_PATHS } from '../config.ts'
import { WorkspacePathError } from '../git/errors.ts'

async function setup(limits = { maxChangedBytes: 1_000, maxFilesTouched: 3 }) {
  const workspace = new MemoryWorkspace({
    'docs.json': '{ "navigation": [] }',
    'index.mdx': '---\ntitle: Home\n---\n\nWelcome to Lumen Flags. Lumen Flags is fast.\n',
    'guides/webhooks.mdx': '---\ntitle: Webhooks\n---\n\nSend events.\n',
  })
  const seen: string[] = []
  const events: JobEvents = { add: async (type, message) => void seen.push(`${type}: ${message}`) }
  const state = { summary: null as string | null }
  const step = { calls: 0, resultChars: 0 }
  const controller = new AbortController()
  const tools = await agentTools({
    workspace,
    writable: writablePaths(DEFAULT_WRITABLE_PATHS),
    limits,
    events,
    state,
    step,
    signal: controller.signal,
  })
  const options = { toolCallId: 'call_1', messages: [] }
  // Calls a tool the way generateText does (input already validated against its schema).
  const run = (name: keyof typeof tools, input: Record<string, unknown>) =>
    (tools[name].execute as (input: unknown, options: unknown) => Promise<unknown>)(input, options)
  return { workspace, run, seen, state, step, controller }
}

describe('agent file tools', () => {
  test.each([
    '../x',
    '/etc/passwd',
    '.git/config',
    'guides/../../x',
    '.GIT/HEAD',
    'a/.git/objects',
    'C:/x',
    '~/x',
    'a\\b',
    'x\u0000y',
    '',
    '.',
    // What NTFS or HFS+ reads as .git (git's verify_path), in any component.
    '.git ',
    '.git.',
    'git~1',
    'GIT~1',
    '.g\u200cit',
    '\u200c.git',
    '.git::$INDEX_ALLOCATION',
    'docs/.GIT /config',
    'a/.git. ./hooks/pre-commit',
    'x/Git~1/config',
    // Names that alias other files on some checkout.
    'guides/page.mdx.',
    'index.mdx:stream',
    'PROGRA~1/x.md',
    'gui\u200ddes/x.md',
  ])('refuses the path %j on every tool', async (path) => {
    const t = await setup()
    for (const [name, input] of [
      ['read_file', { path }],
      ['write_file', { path, content: 'x' }],
      ['edit_file', { path, old_text: 'a', new_text: 'b' }],
      ['delete_file', { path }],
    ] as const) {
      await expect(t.run(name, input), `${name} ${path}`).rejects.toThrow(WorkspacePathError)
    }
    expect(t.workspace.changes()).toEqual([])
  })

  test('confinePath normalizes harmless forms', () => {
    expect(confinePath('./guides//webhooks.mdx')).toBe('guides/webhooks.mdx')
    expect(confinePath(' index.mdx ')).toBe('index.mdx')
    expect(() => confinePath('/etc/passwd')).toThrow(/absolute paths are not allowed/)
    expect(() => confinePath('../x')).toThrow(/would leave the repository/)
    expect(() => confinePath('.git/config')).toThrow(/\.git/)
  })

  test('read, list and search', async () => {
    const t = await setup()
    expect(await t.run('list_files', {})).toEqual({ files: ['docs.json', 'guides/webhooks.mdx', 'index.mdx'], truncated: false })
    expect(await t.run('list_files', { prefix: 'guides/' })).toEqual({ files: ['guides/webhooks.mdx'], truncated: false })
    expect(await t.run('read_file', { path: 'guides/webhooks.mdx' })).toMatchObject({ content: expect.stringContaining('Send events.') })
    await expect(t.run('read_file', { path: 'nope.mdx' })).rejects.toThrow(/no such file: nope.mdx/)
    const exact = (await t.run('search_docs', { query: 'Lumen Flags', exact: true })) as {
      results: Array<{ path: string; matches: number }>
    }
    expect(exact.results).toEqual([expect.objectContaining({ path: 'index.mdx', matches: 2, title: 'Home' })])
    const ranked = (await t.run('search_docs', { query: 'webhooks events' })) as { results: Array<{ path: string }> }
    expect(ranked.results[0]!.path).toBe('guides/webhooks.mdx')
    expect(t.seen).toContain('file.read: read guides/webhooks.mdx')
  })

  test('edit_file: exact, unique search/replace; clear errors when not found or not unique', async () => {
    const t = await setup()
    await expect(t.run('edit_file', { path: 'index.mdx', old_text: 'Lumen Toggles', new_text: 'x' })).rejects.toThrow(
      /old_text was not found in index.mdx/,
    )
    await expect(t.run('edit_file', { path: 'index.mdx', old_text: 'Lumen Flags', new_text: 'x' })).rejects.toThrow(
      /occurs 2 times in index.mdx/,
    )
    expect(await t.run('edit_file', { path: 'index.mdx', old_text: 'Lumen Flags is', new_text: 'It is' })).toEqual({
      path: 'index.mdx',
      replacements: 1,
    })
    expect(await t.run('edit_file', { path: 'guides/webhooks.mdx', old_text: 'e', new_text: 'E', replace_all: true })).toMatchObject({
      replacements: 5,
    })
    expect(t.workspace.snapshot()['index.mdx']).toContain('Welcome to Lumen Flags. It is fast.')
    // The search index follows edits.
    const after = (await t.run('search_docs', { query: 'Lumen Flags', exact: true })) as { results: Array<{ matches: number }> }
    expect(after.results[0]!.matches).toBe(1)
  })

  test('write and delete, with events', async () => {
    const t = await setup()
    expect(await t.run('write_file', { path: 'guides/new.mdx', content: '---\ntitle: New\n---\n' })).toMatchObject({ kind: 'added' })
    expect(await t.run('delete_file', { path: 'guides/webhooks.mdx' })).toEqual({ path: 'guides/webhooks.mdx', deleted: true })
    await expect(t.run('delete_file', { path: 'guides/webhooks.mdx' })).rejects.toThrow(/no such file/)
    expect(t.workspace.changes().map((change) => [change.path, change.kind])).toEqual([
      ['guides/new.mdx', 'added'],
      ['guides/webhooks.mdx', 'deleted'],
    ])
    expect(t.seen).toEqual(expect.arrayContaining(['file.changed: added guides/new.mdx', 'file.deleted: deleted guides/webhooks.mdx']))
  })

  test('a JSON file stays JSON: a write or edit that breaks it is refused with the reason; one broken before may stay so', async () => {
    const t = await setup()
    await expect(t.run('edit_file', { path: 'docs.json', old_text: '[]', new_text: '[,]' })).rejects.toThrow(
      /refused: docs.json would not be valid JSON \(.+\); write the whole file again as valid JSON/,
    )
    await expect(t.run('write_file', { path: 'mint.json', content: '{"name": "Docs",' })).rejects.toThrow(
      /mint.json would not be valid JSON/,
    )
    expect(t.workspace.snapshot()['docs.json']).toBe('{ "navigation": [] }')
    expect(await t.run('edit_file', { path: 'docs.json', old_text: '[]', new_text: '["index"]' })).toMatchObject({ replacements: 1 })
    await t.workspace.writeFile('guides/docs.json', '{')
    expect(await t.run('write_file', { path: 'guides/docs.json', content: '{ "still": ' })).toMatchObject({ kind: 'modified' })
  })

  test('limits: changed bytes and files touched per run', async () => {
    const t = await setup({ maxChangedBytes: 100, maxFilesTouched: 2 })
    await expect(t.run('write_file', { path: 'big.mdx', content: 'x'.repeat(101) })).rejects.toThrow(/101 changed bytes; the limit is 100/)
    await t.run('write_file', { path: 'a.mdx', content: 'a' })
    await t.run('write_file', { path: 'b.mdx', content: 'b' })
    // Rewriting a file already touched is fine; a third file is not.
    await t.run('write_file', { path: 'a.mdx', content: 'aa' })
    await expect(t.run('write_file', { path: 'c.mdx', content: 'c' })).rejects.toThrow(/at most 2 files/)
    expect(t.workspace.changes().map((change) => change.path)).toEqual(['a.mdx', 'b.mdx'])
  })

  test('an edit that would grow a file past the changed-bytes limit is refused before the text is built', async () => {
    const t = await setup({ maxChangedBytes: 1_000, maxFilesTouched: 2 })
    await t.run('write_file', { path: 'a.mdx', content: 'a'.repeat(500) })
    await expect(t.run('edit_file', { path: 'a.mdx', old_text: 'a', new_text: 'bbbb', replace_all: true })).rejects.toThrow(
      /would grow to 2000 characters; the run may change at most 1000 bytes/,
    )
    expect(t.workspace.changes()).toEqual([expect.objectContaining({ path: 'a.mdx', bytes: 500 })])
  })

  test("a reply's results are bounded in characters as well as in calls; a cancelled run's calls are refused", async () => {
    const t = await setup({ maxChangedBytes: 1_000_000, maxFilesTouched: 2 })
    await t.run('write_file', { path: 'big.mdx', content: 'y'.repeat(190_000) })
    const reads = async () => {
      for (let i = 0; i < 10; i++) await t.run('read_file', { path: 'big.mdx' })
    }
    await expect(reads()).rejects.toThrow(/results of one reply may hold at most 1000000 characters/)
    expect(t.step.resultChars).toBeLessThanOrEqual(1_000_000)
    // A change, once made, is never reported as refused: only what reads return counts.
    t.step.resultChars = 1_000_000
    await expect(t.run('write_file', { path: 'after.mdx', content: 'made' })).resolves.toMatchObject({ kind: 'added' })
    t.controller.abort(new Error('the run outlived its time limit'))
    await expect(t.run('list_files', {})).rejects.toThrow(/outlived its time limit/)
  })

  test('finish records the summary', async () => {
    const t = await setup()
    expect(await t.run('finish', { summary: 'Rename the product\n\nEverywhere.' })).toEqual({ ok: true })
    expect(t.state.summary).toBe('Rename the product\n\nEverywhere.')
  })
})

describe('agent writes are confined to documentation files', () => {
  test.each([
    '.github/workflows/exfiltrate.yml',
    '.gitmodules',
    '.gitattributes',
    '.gitignore',
    '.gitlab-ci.yml',
    'docs/.github/x.md',
    '.husky/pre-commit',
    'package.json',
    'scripts/deploy.sh',
    'Makefile',
    '.hidden/page.mdx',
  ])('%s: read yes, write/edit/delete no', async (path) => {
    const t = await setup()
    t.workspace.seed(path, 'original\n')
    await expect(t.run('read_file', { path })).resolves.toMatchObject({ content: 'original\n' })
    for (const [name, input] of [
      ['write_file', { path, content: 'x' }],
      ['edit_file', { path, old_text: 'original', new_text: 'x' }],
      ['delete_file', { path }],
    ] as const) {
      await expect(t.run(name, input), `${name} ${path}`).rejects.toThrow(WorkspacePathError)
    }
    expect(t.workspace.changes()).toEqual([])
  })

  test('the docs tree: pages, navigation, images, snippets', async () => {
    const t = await setup({ maxChangedBytes: 1_000, maxFilesTouched: 10 })
    for (const path of ['new.mdx', 'guides/a/b.md', 'docs.json', 'docs/docs.json', 'mint.json', 'images/logo.svg', 'snippets/card.jsx']) {
      const content = path.endsWith('.json') ? '{}' : 'x'
      await expect(t.run('write_file', { path, content }), path).resolves.toMatchObject({ path })
    }
  })

  test('writablePaths: globs with *, **, ? and braces; dot names only when spelled', () => {
    const writable = writablePaths(['docs/**/*.{md,mdx}', 'openapi.?son', '.well-known/*.txt'])
    for (const path of ['docs/a.md', 'docs/x/y/z.mdx', 'openapi.json', '.well-known/security.txt']) expect(writable.check(path)).toBe(path)
    for (const path of ['a.md', 'docs/.x/a.md', 'docs/a.txt', 'openapi.yaml', '.well-known/x/y.txt', '.github/a.md']) {
      expect(() => writable.check(path), path).toThrow(WorkspacePathError)
    }
    expect(() => writablePaths(['**']).check('.gitmodules')).toThrow(/never the docs agent's/)
  })
})
