import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { AgentJob } from '../../shared/agent.ts'
import { type Gap, GapList } from '../../shared/analytics.ts'
import { ask, type Embedded, embeddedDocent, eventually } from '../analytics/support.ts'

// The console's gap flow on the embedded default (local git host, offline models): Fix with agent → facts → the job's
// pull request → merge → verification. Readers' questions that name components or hold braces are written into the
// page as text, so it stays valid MDX; a fix that does leave a page invalid MDX is not counted as fixed.

let t: Embedded
const site = 'https://docs.example.com'

beforeAll(async () => {
  t = await embeddedDocent()
}, 60_000)
afterAll(() => t?.stop())

const gap = (id: string) => t.get<Gap>(`/v1/analytics/demo/gaps/${id}`)
const job = (id: string) => t.get<AgentJob>(`/v2/agent/demo/job/${id}`)
const notMdx = async () => (await t.get<{ docs: { notMdx: string[] } }>('/v2/projects/demo')).docs.notMdx

/** Asks the questions as readers (each unanswered), and the gap they make. */
async function gapOf(questions: string[]): Promise<Gap> {
  for (const question of questions) {
    expect((await ask(t.url, t.assistant, question, { origin: site })).resolution).toBe('unanswered')
  }
  const found = GapList.parse(await t.get('/v1/analytics/demo/gaps?status=open')).gaps.find((g) => g.title === questions[0])
  expect(found?.questions.map((q) => q.query).sort()).toEqual([...questions].sort())
  return found!
}

/** Fix with agent (the writer's facts, on `page`), the job's pull request merged: the gap once verified. */
async function fixAndMerge(found: Gap, text: string, page: string): Promise<Gap> {
  const started = await t.post(`/v1/analytics/demo/gaps/${found.id}/fix`, { text, page })
  expect(started.status).toBe(200)
  const fix = (await started.json()) as AgentJob
  const done = await eventually(
    () => job(fix.id),
    (j) => j.status !== 'active',
    `job ${fix.id}`,
  )
  expect(done).toMatchObject({ status: 'completed', error: null })
  expect((await t.post(`/v2/agent/demo/job/${fix.id}/merge`)).status).toBe(200)
  return eventually(
    () => gap(found.id),
    (g) => g.status === 'open' || g.status === 'fixed',
    `gap ${found.id} after its merge`,
  )
}

/** A merge of a writer's own instruction (no gap): the page as the team leaves it. */
async function mergeInstruction(prompt: string) {
  const created = (await (await t.post('/v2/agent/demo/job', { prompt })).json()) as AgentJob
  await eventually(
    () => job(created.id),
    (j) => j.status !== 'active',
    `job ${created.id}`,
  )
  expect((await t.post(`/v2/agent/demo/job/${created.id}/merge`)).status).toBe(200)
  await t.docent.context.search.refresh('demo')
}

describe('a gap fix and MDX', () => {
  test('readers’ questions naming <Accordion> are written as text: the page stays valid MDX and the gap is fixed', async () => {
    expect(await notMdx()).toEqual([])
    const questions = ['can I nest an <Accordion> inside a kayak step?', 'nesting <Accordion> in kayak steps {inline}']
    const found = await gapOf(questions)
    const after = await fixAndMerge(
      found,
      'Kayak steps accept one Accordion each: nest the Accordion inside the kayak step.',
      'guides/testing',
    )

    expect(after).toMatchObject({ status: 'fixed', reason: null })
    expect(after.verifiedAt).not.toBeNull()
    expect(await notMdx()).toEqual([])
    // The page's markdown (as readers and models get it): the reader's words, escaped where MDX would read markup.
    const content = (await t.docent.context.search.corpus('demo')).page('guides/testing')?.content
    expect(content).toContain('\n## Can I nest an \\<Accordion\\> inside a kayak step?\n')
    expect(content).toContain('Also asked as: “nesting \\<Accordion\\> in kayak steps \\{inline\\}”')
    const answer = await ask(t.url, t.assistant, questions[0]!, { origin: site })
    expect(answer.resolution).toBe('answered')
    expect(answer.sources.some((url) => new URL(url).pathname === '/guides/testing')).toBe(true)

    // HTML a reader typed is text too.
    const terraform = await gapOf(["terraform provider lumen flags <img src=x onerror=alert('gap')>"])
    const flags = await fixAndMerge(terraform, 'There is no Terraform provider for Lumen Flags yet.', 'concepts/flags')
    expect(flags).toMatchObject({ status: 'fixed', reason: null })
    expect(await notMdx()).toEqual([])
  })

  test('a fix that leaves a page it changed invalid MDX is not fixed, and says which page; a page broken before is not its doing', async () => {
    const canoe = await gapOf(['how do I fold canoe paddles away?'])
    const broken = await fixAndMerge(canoe, 'Wrap the canoe paddles in <Accordion title="Paddles"> to fold them away.', 'guides/webhooks')
    expect(await notMdx()).toEqual(['guides/webhooks'])
    expect(broken.status).toBe('open')
    expect(broken.reason).toBe(
      "the fix left guides/webhooks invalid MDX: the docs now read it as plain markdown, and an MDX site's build fails on it (a tag left open, or a < or { meant as text?)",
    )
    expect(broken.verifiedAt).not.toBeNull()

    // The page is still broken: a later fix that appends valid text to it did not break it.
    const raft = await gapOf(['how do I inflate a rubber raft?'])
    const fixed = await fixAndMerge(raft, 'Inflate the rubber raft with the foot pump until the raft is firm.', 'guides/webhooks')
    expect(fixed).toMatchObject({ status: 'fixed', reason: null })

    // Nor is a page the team broke outside a gap fix.
    await mergeInstruction('Append a section "Sails" to guides/flag-cleanup with the text "Hoist the sail {"')
    expect((await notMdx()).sort()).toEqual(['guides/flag-cleanup', 'guides/webhooks'])
    const sail = await gapOf(['how do I reef a dinghy sail?'])
    expect(await fixAndMerge(sail, 'Reef the dinghy sail by tying the reef points along the boom.', 'guides/flag-cleanup')).toMatchObject({
      status: 'fixed',
      reason: null,
    })
  })
})
