import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Docent } from '../../server/mod.ts'
import { git } from '../support/git-server.ts'
import { automationsApi, readersDocent } from './support/api.ts'

// "Fill gaps" and "improve from feedback" with no model: readers ask the assistant (the offline model says when the
// docs do not cover a question) and rate answers; the automations bring that to the docs as a pull request marked for
// a writer, through the same gap and feedback interface the analytics store will back.

let docent: Docent
let dataDir: string
let admin: Record<string, string>
let assistant: Record<string, string>
let stop: () => Promise<void>
beforeAll(async () => {
  ;({ docent, dataDir, admin, assistant, stop } = await readersDocent('readers'))
})
afterAll(() => stop?.())

/** Asks the assistant (v2) in a new thread; returns the thread and the answer's message id, once the answer is stored. */
async function ask(question: string): Promise<{ threadId: string; messageId: string }> {
  const response = await docent.app.request('/discovery/v2/assistant/demo/message', {
    method: 'POST',
    headers: { ...assistant, 'content-type': 'application/json' },
    body: JSON.stringify({ fp: 'anonymous', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: question }] }] }),
  })
  expect(response.status).toBe(200)
  const threadId = response.headers.get('x-thread-id')!
  await response.text()
  const messages = await docent.context.store.listMessages(threadId)
  return { threadId, messageId: messages.at(-1)!.id }
}

const trigger = async (id: string) => {
  const api = automationsApi(docent.app, admin)
  await api.configure(id, { enabled: true })
  const response = await docent.app.request(`/workflow/demo/${id}/trigger`, { method: 'POST', headers: admin })
  expect(response.status).toBe(202)
  const [run] = await api.settled(id, 1)
  return run!
}
const branchOf = async (jobId: string) => (await docent.context.store.getJob('demo', jobId))!.branch!
const show = (branch: string, path: string) => git(join(dataDir, 'git', 'demo.git'), 'show', `${branch}:${path}`)

describe('reader signals with no model', () => {
  test('fill gaps: unanswered questions go to the FAQ page as questions for a writer, paraphrases together', async () => {
    await ask('What is the airspeed velocity of an unladen swallow?')
    await ask("what's the airspeed velocity of an unladen swallow")
    await ask('Does Lumen Flags support evaluating flags in a Go service?')
    const run = await trigger('fill-gaps')
    expect(run).toMatchObject({ status: 'completed', reason: 'manual', prLink: expect.stringMatching(/\/review\//) })
    const faq = await show(await branchOf(run.jobId), 'troubleshooting/faq.md')
    const section = faq.slice(faq.indexOf('## Questions readers asked'))
    expect(section).toMatch(/^## Questions readers asked \(\d{4}-\d{2}-\d{2}\)/)
    expect(section).toContain('> **For a writer:** readers asked these questions and the docs did not answer them.')
    expect(section).toContain('### What is the airspeed velocity of an unladen swallow?')
    expect(section).toContain("asked 2 times, also as “what's the airspeed velocity of an unladen swallow”")
    // A question the docs answer is not a gap.
    expect(section).not.toContain('Go service')
    expect(faq.slice(0, faq.indexOf('## Questions readers asked'))).toBe(
      await show('main', 'troubleshooting/faq.md').then((text) => `${text}\n`),
    )
  })

  test('improve from feedback: readers’ comments go to the page the rated answer cited, marked for a writer', async () => {
    const { threadId, messageId } = await ask('How do I roll out a flag to a percentage of users?')
    const sources = (await docent.context.store.listMessages(threadId)).at(-1)!.sources!
    const rated = await docent.app.request('/discovery/v1/assistant/demo/feedback', {
      method: 'POST',
      headers: { ...assistant, 'content-type': 'application/json' },
      body: JSON.stringify({ threadId, messageId, rating: 'down', comment: 'The example does not say which SDK version supports this.' }),
    })
    expect(rated.status).toBe(204)
    const run = await trigger('improve-from-feedback')
    expect(run).toMatchObject({ status: 'completed', prLink: expect.stringMatching(/\/review\//) })
    const files = (await git(join(dataDir, 'git', 'demo.git'), 'ls-tree', '-r', '--name-only', 'main')).split('\n')
    const file = files.find((name) => name.replace(/\.mdx?$/, '') === sources[0]!.path)!
    const text = await show(await branchOf(run.jobId), file)
    expect(text).toContain('## Reader feedback (')
    expect(text).toContain('> **For a writer:** readers left this feedback on this page.')
    expect(text).toContain('> - “The example does not say which SDK version supports this.”')
  })
})
