import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { AgentJob } from '../../shared/agent.ts'
import { embeddedDocent } from './support/embedded.ts'

// The embedded default, as `npm start` runs it with no API key: automations turned on through the API, docs pushed to
// the local repository with git, and nothing else called: the content trigger notices the push and runs the engine.

let t: Awaited<ReturnType<typeof embeddedDocent>>
beforeAll(async () => {
  t = await embeddedDocent()
})
afterAll(() => t?.close())

describe('fix broken links on the embedded default', () => {
  test('a pushed broken link leads, with no call, to a pull request that fixes it; a later one joins the same PR', async () => {
    const enabled = await t.configure('fix-broken-links', { enabled: true })
    expect(enabled).toMatchObject({ enabled: true, trigger: { kind: 'content' }, unavailable: null })

    await t.edit(
      { 'guides/webhooks.mdx': (text) => `${text}\nBefore you start, read [cleaning up flags](/guide/flag-clean-up).\n` },
      'Link the cleanup guide',
    )
    const [first] = await t.settled('fix-broken-links', 1)
    expect(first).toMatchObject({ reason: 'content', status: 'completed' })
    expect(first!.prLink).toMatch(/\/review\//)
    const job = (await (await t.request(`/v2/agent/demo/job/${first!.jobId}`)).json()) as AgentJob & { branch?: string }
    expect(job.prLink).toBe(first!.prLink)
    const branch = (await t.docent.context.store.getJob('demo', first!.jobId))!.branch!
    expect(await t.show(branch, 'guides/webhooks.mdx')).toContain('read [cleaning up flags](/guides/flag-cleanup).')

    await t.edit({ 'sdks/go.mdx': (text) => `${text}\nSee also the [Python SDK](/sdk/pyhton).\n` }, 'Point Go readers at Python')
    const [second] = await t.settled('fix-broken-links', 2)
    expect(second).toMatchObject({ reason: 'content', status: 'completed', jobId: first!.jobId, prLink: first!.prLink })
    // Both fixes on the one branch, which now has the second push too.
    expect(await t.show(branch, 'guides/webhooks.mdx')).toContain('(/guides/flag-cleanup)')
    expect(await t.show(branch, 'sdks/go.mdx')).toContain('See also the [Python SDK](/sdks/python).')
    const review = await (await t.docent.app.request(first!.prLink!.replace(/^https?:\/\/[^/]+/, ''))).text()
    expect(review).toContain('/guides/flag-cleanup')
    expect(review).toContain('/sdks/python')
    // The pull request's description: the first run's summary, then the later run's own section.
    expect(review).toMatch(new RegExp(`Run ${second!.id}`))
  })
})

const ROLLBACKS = `---
title: Rollbacks
description: Roll a flag back.
---

When a release misbehaves, Lumen lets you roll back a flag in seconds. The dashbord shows every chnage, and the evaluaton
history keeps each previous value so you can restore it succesfully.

Use \`lumenctl rollbak --flag checkout\` from the CLI, or call the API:

\`\`\`js
const previus = await lumen.flags.history('checkout')
await lumen.flags.restore(previus[0])
\`\`\`
`

describe('fix typos on the embedded default', () => {
  test('corrects misspellings it was not given, in prose only; code, commands and product names stay', async () => {
    await t.configure('fix-typos', { enabled: true })
    await t.edit({ 'guides/rollbacks.mdx': () => ROLLBACKS }, 'Document rollbacks')
    const [run] = await t.settled('fix-typos', 1)
    expect(run).toMatchObject({ reason: 'content', status: 'completed' })
    expect(run!.prLink).toMatch(/\/review\//)
    const branch = (await t.docent.context.store.getJob('demo', run!.jobId))!.branch!
    const fixed = await t.show(branch, 'guides/rollbacks.mdx')
    expect(fixed).toBe(
      ROLLBACKS.replace('dashbord', 'dashboard')
        .replace('chnage', 'change')
        .replace('evaluaton', 'evaluation')
        .replace('succesfully', 'successfully'),
    )
    // The broken-links automation saw the same push and had nothing to fix: completed, no pull request, a note why.
    const [latest] = await t.settled('fix-broken-links', 3)
    expect(latest).toMatchObject({ reason: 'content', status: 'completed', prLink: null })
    expect(latest!.note).toMatch(/^No broken link to fix: \d+ internal links checked/)
  })
})

describe('draft changelog through the hosted trigger', () => {
  test('202, then a pull request with an entry built from the commits since the last run', async () => {
    const before = await t.show('main', 'changelog.md')
    await t.configure('draft-changelog', { enabled: true })
    await t.edit({ 'cli/commands.mdx': (text) => `${text}\n<!-- export -->\n` }, 'feat(cli): add the `lumen flags export` command')
    await t.edit({ 'guides/webhooks.mdx': (text) => `${text}\n<!-- retries -->\n` }, 'fix: retry webhook deliveries that answer 502')
    await t.edit({ 'snippets/prereqs.mdx': (text) => `${text}\n` }, 'chore: bump dependencies')

    const response = await t.request('/workflow/demo/draft-changelog/trigger', { method: 'POST' })
    expect(response.status).toBe(202)
    const triggered = (await response.json()) as { schemaId: string; instanceId: string; jobId: string }
    expect(triggered).toMatchObject({ schemaId: 'draft-changelog', instanceId: expect.stringMatching(/^run_/), jobId: expect.any(String) })
    const [run] = await t.settled('draft-changelog', 1)
    expect(run).toMatchObject({ id: triggered.instanceId, jobId: triggered.jobId, reason: 'manual', status: 'completed' })
    expect(run!.prLink).toMatch(/\/review\//)
    const branch = (await t.docent.context.store.getJob('demo', run!.jobId))!.branch!
    const changelog = await t.show(branch, 'changelog.md')
    const entry = changelog.slice(0, changelog.indexOf('## March 2025'))
    expect(entry).toContain('### Added')
    expect(entry).toContain('**cli:** Add the `lumen flags export` command')
    expect(entry).toContain('### Fixed')
    expect(entry).toContain('Retry webhook deliveries that answer 502')
    // Internal work and what came before the automation was turned on are left out; the rest of the page is as it was.
    expect(entry).not.toMatch(/bump dependencies|Document rollbacks|cleanup guide/)
    expect(changelog.slice(changelog.indexOf('## March 2025'))).toBe(before.slice(before.indexOf('## March 2025')))

    // The next run starts where this one did: only the newer commit, in a pull request of its own.
    await t.edit({ 'sdks/react.mdx': (text) => `${text}\n<!-- suspense -->\n` }, 'feat(react): support Suspense')
    const again = (await (await t.request('/workflow/demo/draft-changelog/trigger', { method: 'POST' })).json()) as { jobId: string }
    const [second] = await t.settled('draft-changelog', 2)
    expect(second).toMatchObject({ status: 'completed', jobId: again.jobId })
    expect(second!.prLink).not.toBe(run!.prLink)
    const next = await t.show((await t.docent.context.store.getJob('demo', again.jobId))!.branch!, 'changelog.md')
    const nextEntry = next.slice(0, next.indexOf('## March 2025'))
    expect(nextEntry).toContain('**react:** Support Suspense')
    expect(nextEntry).not.toContain('lumen flags export')
  })
})
