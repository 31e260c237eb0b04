import { createKey } from '../../server/keys/keys.ts'
import { signIn } from '../console/support.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { AgentJob } from '../../shared/agent.ts'
import { type Gap, GapList, MergeResult } from '../../shared/analytics.ts'
import { ask, type Embedded, embeddedDocent, eventually } from './support.ts'

// Done when (2), on the embedded default with no API key: three phrasings of one uncovered question become one gap;
// `fix` with a writer's text creates a job that opens a PR; `merge` lands it; the index reloads; the gap turns
// `fixed`, and asking the question again now cites the changed page.

let t: Embedded
const site = 'https://docs.example.com'
const helm = [
  'How do I deploy the relay proxy on Kubernetes with Helm?',
  'Is there a Helm chart for running the relay proxy in Kubernetes?',
  'kubernetes helm install relay proxy',
]
const facts =
  'Install the relay proxy with the official Helm chart: run `helm repo add lumen https://charts.lumen.test`, then `helm install relay lumen/relay-proxy --set sdkKey=$LUMEN_SDK_KEY`. The chart runs two replicas behind a Service on port 8030.'

beforeAll(async () => {
  t = await embeddedDocent()
}, 60_000)
afterAll(() => t?.stop())

const gaps = async (query = '') => GapList.parse(await t.get(`/v1/analytics/demo/gaps${query}`)).gaps
const gap = (id: string) => t.get<Gap>(`/v1/analytics/demo/gaps/${id}`)
const job = (id: string) => t.get<AgentJob>(`/v2/agent/demo/job/${id}`)
const settled = (id: string) =>
  eventually(
    () => job(id),
    (j) => j.status !== 'active',
    `job ${id}`,
  )
const createJob = async (prompt: string) => (await (await t.post('/v2/agent/demo/job', { prompt })).json()) as AgentJob
const formPost = (jobId: string, head: string, headers: Record<string, string>) =>
  fetch(`${t.url}/review/${jobId}/merge`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ head }).toString(),
  })
/** A console session of the demo's admin key: who may merge from the review page. */
let writer: Promise<string> | undefined
const writerSession = () =>
  (writer ??= signIn({ request: (path, init) => fetch(t.url + path, init) }, t.admin).then((signedIn) => signedIn.cookie))
const headOf = (html: string) => /name="head" value="([0-9a-f]{40})"/.exec(html)?.[1]

describe('a gap, from readers’ questions to fixed', () => {
  test('three phrasings become one gap; the fix is merged, the docs reload, the gap is fixed and the question is answered from the changed page', async () => {
    for (const question of helm) {
      expect((await ask(t.url, t.assistant, question, { origin: site, currentPath: '/guides/ci-cd' })).resolution).toBe('unanswered')
    }
    expect((await ask(t.url, t.assistant, 'Is there a Ruby SDK?', { origin: site })).resolution).toBe('unanswered')

    const listed = await gaps()
    expect(listed.map((g) => [g.title, g.count])).toEqual([
      [helm[0], 3],
      ['Is there a Ruby SDK?', 1],
    ])
    const found = listed[0]!
    expect(found.questions.map((q) => q.query).sort()).toEqual([...helm].sort())
    expect(found).toMatchObject({ status: 'open', pages: ['http://docs.test/guides/ci-cd'], jobId: null })
    const closest = new URL(found.closest[0]!.url).pathname.slice(1)

    const started = await t.post(`/v1/analytics/demo/gaps/${found.id}/fix`, { text: facts })
    expect(started.status).toBe(200)
    const fix = (await started.json()) as AgentJob
    expect(fix).toMatchObject({
      status: 'active',
      model: 'offline-editor',
      prLink: null,
      source: { repository: 'local:demo', ref: 'main' },
    })
    expect(await gap(found.id)).toMatchObject({ status: 'in_progress', jobId: fix.id })
    const again = await t.post(`/v1/analytics/demo/gaps/${found.id}/fix`, { text: facts })
    expect(again.status).toBe(409)

    const done = await settled(fix.id)
    expect(done).toMatchObject({ status: 'completed', error: null, prLink: `http://docs.test/review/${fix.id}` })
    expect(await gap(found.id)).toMatchObject({ status: 'pr_open', prLink: done.prLink })
    const events = (
      await t.get<{ events: Array<{ type: string; data?: { files?: Array<{ path: string }> } }> }>(`/v2/agent/demo/job/${fix.id}/events`)
    ).events
    expect(events.find((e) => e.type === 'commit')?.data?.files?.map((f) => f.path)).toEqual([`${closest}.mdx`])

    // The pull request: the writer's facts under the readers' question, with their other wordings.
    const review = await (await fetch(`${t.url}/review/${fix.id}`, { headers: { cookie: await writerSession() } })).text()
    expect(review).toContain(`+## ${helm[0]}`)
    expect(review).toContain('helm repo add lumen https://charts.lumen.test')
    expect(review).toContain(
      'Also asked as: “Is there a Helm chart for running the relay proxy in Kubernetes?” · “kubernetes helm install relay proxy”',
    )
    expect(headOf(review)).toMatch(/^[0-9a-f]{40}$/)

    const merged = await t.post(`/v2/agent/demo/job/${fix.id}/merge`)
    expect(merged.status).toBe(200)
    const result = MergeResult.parse(await merged.json())
    expect(result.merge).toMatchObject({ method: 'fast-forward', base: 'main' })
    expect(result.job.id).toBe(fix.id)

    const fixed = await eventually(
      () => gap(found.id),
      (g) => g.status !== 'merged' && g.status !== 'pr_open',
      'gap after the merge',
    )
    expect(fixed).toMatchObject({ status: 'fixed', reason: null, jobId: fix.id, prLink: done.prLink })
    expect(fixed.verifiedAt).not.toBeNull()
    // The index the readers are answered from is the merge.
    expect((await t.docent.context.search.corpus('demo')).revision).toBe(result.merge.commit)
    expect(await (await fetch(`${t.url}/review/${fix.id}`)).text()).toContain(
      `Merged into <code>main</code> at <code>${result.merge.commit.slice(0, 8)}</code>`,
    )

    const answer = await ask(t.url, t.assistant, helm[0]!, { origin: site, currentPath: '/guides/ci-cd' })
    expect(answer.resolution).toBe('answered')
    expect(answer.text).toContain('helm install relay lumen/relay-proxy')
    expect(answer.sources.some((url) => new URL(url).pathname === `/${closest}`)).toBe(true)
    // An answered question is no gap signal: the gap still counts the three.
    expect((await gap(found.id)).count).toBe(3)
    // Merging again answers the same merge.
    expect(MergeResult.parse(await (await t.post(`/v2/agent/demo/job/${fix.id}/merge`)).json()).merge).toMatchObject({
      method: 'already-merged',
      commit: result.merge.commit,
    })
  })

  test('a fix that does not answer the questions sends the gap back to open, with the reason', async () => {
    const ruby = (await gaps()).find((g) => g.title === 'Is there a Ruby SDK?')!
    const started = await t.post(`/v1/analytics/demo/gaps/${ruby.id}/fix`, {
      text: 'Write to support@lumen.test for help.',
      page: 'quickstart',
    })
    expect(started.status).toBe(200)
    const fix = (await started.json()) as AgentJob
    await settled(fix.id)
    expect((await t.post(`/v2/agent/demo/job/${fix.id}/merge`)).status).toBe(200)
    const after = await eventually(
      () => gap(ruby.id),
      (g) => g.status === 'open' || g.status === 'fixed',
      'the ruby gap after its merge',
    )
    expect(after.status).toBe('open')
    expect(after.reason).toMatch(
      /^re-asked after the merge: 1 of 1 question\(s\) not fixed: "Is there a Ruby SDK\?" is still not answered$/,
    )
    expect(after.verifiedAt).not.toBeNull()
  })

  test('what a fix needs, dismissing, and the refusals', async () => {
    expect((await ask(t.url, t.assistant, 'Can I call Lumen from a Rust program?', { origin: site })).resolution).toBe('unanswered')
    const rust = (await gaps('?status=open')).find((g) => g.title === 'Can I call Lumen from a Rust program?')!
    const noText = await t.post(`/v1/analytics/demo/gaps/${rust.id}/fix`, {})
    expect(noText.status).toBe(400)
    expect(((await noText.json()) as { error: string }).error).toMatch(/^text: the offline editor needs the facts/)
    const badPage = await t.post(`/v1/analytics/demo/gaps/${rust.id}/fix`, { text: 'x', page: 'no/such/page' })
    expect(badPage.status).toBe(400)
    expect(((await badPage.json()) as { error: string }).error).toBe('page: no page "no/such/page" in the docs')
    expect((await t.post('/v1/analytics/demo/gaps/gap_unknown/fix', { text: 'x' })).status).toBe(404)

    const dismissed = await t.post(`/v1/analytics/demo/gaps/${rust.id}/dismiss`)
    expect(dismissed.status).toBe(200)
    expect(((await dismissed.json()) as Gap).status).toBe('dismissed')
    expect((await gaps('?status=dismissed')).map((g) => g.id)).toEqual([rust.id])
    expect((await gaps('?status=open')).map((g) => g.id)).not.toContain(rust.id)
    expect(((await gap(rust.id)) as Gap).dismissedAt).toEqual(expect.any(String))
    // A dismissal is taken back (readers kept asking, or it was a slip): open again, and open stays open.
    const reopened = await t.post(`/v1/analytics/demo/gaps/${rust.id}/reopen`)
    expect(reopened.status).toBe(200)
    expect((await reopened.json()) as Gap).toMatchObject({ status: 'open', dismissedAt: null })
    expect((await t.post(`/v1/analytics/demo/gaps/${rust.id}/reopen`)).status).toBe(200)
    expect((await t.post('/v1/analytics/demo/gaps/gap_unknown/reopen')).status).toBe(404)
    expect((await t.post(`/v1/analytics/demo/gaps/${rust.id}/dismiss`)).status).toBe(200)
    // A writer's own instruction for the offline editor: a dismissed gap can still be fixed.
    const fix = (await (
      await t.post(`/v1/analytics/demo/gaps/${rust.id}/fix`, {
        prompt: 'Append a section "Rust" to sdks/overview with the text "There is no Rust SDK yet."',
      })
    ).json()) as AgentJob
    expect(await gap(rust.id)).toMatchObject({ status: 'in_progress', jobId: fix.id })
    expect((await t.post(`/v1/analytics/demo/gaps/${rust.id}/dismiss`)).status).toBe(409)
    const underWay = await t.post(`/v1/analytics/demo/gaps/${rust.id}/reopen`)
    expect(underWay.status).toBe(409)
    expect(((await underWay.json()) as { error: string }).error).toBe('only a dismissed gap is reopened; this one is in progress')
    // Archiving the job gives the gap back, open, with the reason.
    expect((await t.post(`/v2/agent/demo/job/${fix.id}/archive`)).status).toBe(200)
    expect(
      await eventually(
        () => gap(rust.id),
        (g) => g.status === 'open',
        'the rust gap after archiving',
      ),
    ).toMatchObject({
      reason: 'the fix job was archived',
    })
  })
})

describe('merging a local pull request', () => {
  test('the review page’s Merge button posts the head it shows, as a signed-in writer; cross-site posts, framing, other sessions, moved branches and other content are refused', async () => {
    const created = await createJob('Append a section "Support" to quickstart with the text "Write to support@lumen.test."')
    await settled(created.id)
    const writer = await writerSession()
    // Whoever has the link sees the change, and how to merge it; only the team's signed-in writers get the button.
    const anonymous = await fetch(`${t.url}/review/${created.id}`)
    expect(anonymous.headers.get('content-security-policy')).toContain("form-action 'self'")
    expect(anonymous.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(anonymous.headers.get('x-frame-options')).toBe('DENY')
    const anonymousHtml = await anonymous.text()
    expect(anonymousHtml).not.toContain('<form class="merge"')
    expect(anonymousHtml).toContain('sign in to the console</a> with a write key of this organization, then reload this page')
    const html = await (await fetch(`${t.url}/review/${created.id}`, { headers: { cookie: writer } })).text()
    expect(html).toContain(`<form class="merge" method="post" action="/review/${created.id}/merge">`)
    const head = headOf(html)!

    // The link is no key: without a session of a write key of the project's organization, nothing merges.
    const signedOut = await formPost(created.id, head, { origin: t.url, accept: 'text/html' })
    expect(signedOut.status).toBe(401)
    expect(await signedOut.text()).toContain('sign in to the console with a write key of demo to merge')
    const readKey = ((await (await t.post('/v2/keys', { name: 'viewer', scope: 'read' })).json()) as { secret: string }).secret
    const reader = (await signIn({ request: (path, init) => fetch(t.url + path, init) }, readKey)).cookie
    expect(await (await fetch(`${t.url}/review/${created.id}`, { headers: { cookie: reader } })).text()).toContain(
      'Your console session is read-only',
    )
    expect((await formPost(created.id, head, { origin: t.url, cookie: reader })).status).toBe(403)
    const stranger = (await createKey(t.docent.context.store, { kind: 'admin', organization: 'elsewhere' })).secret
    const strangerCookie = (await signIn({ request: (path, init) => fetch(t.url + path, init) }, stranger)).cookie
    expect((await formPost(created.id, head, { origin: t.url, cookie: strangerCookie })).status).toBe(401)

    expect((await formPost(created.id, head, { origin: 'https://evil.example', cookie: writer })).status).toBe(403)
    expect((await formPost(created.id, head, { cookie: writer })).status).toBe(403)
    expect((await formPost(created.id, head, { 'sec-fetch-site': 'cross-site', cookie: writer })).status).toBe(403)
    const json = await fetch(`${t.url}/review/${created.id}/merge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: t.url, cookie: writer },
      body: JSON.stringify({ head }),
    })
    expect(json.status).toBe(415)
    const moved = await formPost(created.id, 'f'.repeat(40), { origin: t.url, accept: 'text/html', cookie: writer })
    expect(moved.status).toBe(409)
    expect(await moved.text()).toContain('changed since this page was loaded')
    expect((await t.get<AgentJob>(`/v2/agent/demo/job/${created.id}`)).status).toBe('completed')

    const merged = await formPost(created.id, head, { origin: t.url, 'sec-fetch-site': 'same-origin', cookie: writer })
    expect(merged.status).toBe(303)
    expect(merged.headers.get('location')).toBe(`/review/${created.id}`)
    expect(await (await fetch(`${t.url}/review/${created.id}`)).text()).toContain('Merged into <code>main</code>')
    expect(merged.headers.get('location')).toBe(`/review/${created.id}`)
    const quickstart = await eventually(
      async () => (await t.docent.context.search.corpus('demo')).page('quickstart')?.content ?? '',
      (content) => content.includes('support@lumen.test'),
      'the served quickstart page',
    )
    expect(quickstart).toContain('Write to support@lumen.test')
  })

  test('conflicts merge nothing and name the files; a run in progress waits', async () => {
    const toggles = await createJob('Replace "Lumen Flags" with "Lumen Toggles" in quickstart')
    const switches = await createJob('Replace "Lumen Flags" with "Lumen Switches" in quickstart')
    await settled(toggles.id)
    await settled(switches.id)
    expect((await t.post(`/v2/agent/demo/job/${toggles.id}/merge`)).status).toBe(200)
    const conflict = await t.post(`/v2/agent/demo/job/${switches.id}/merge`)
    expect(conflict.status).toBe(409)
    expect(((await conflict.json()) as { error: string }).error).toMatch(/conflicts in quickstart\.mdx; resolve them on the branch/)
    const review = await (await fetch(`${t.url}/review/${switches.id}`, { headers: { cookie: await writerSession() } })).text()
    expect(review).toContain('Merge into main')

    // A follow-up running on a job: its pull request is not settled yet.
    const active = { ...(await t.docent.context.store.getJob('demo', toggles.id))!, id: 'job_following_up', status: 'active' as const }
    await t.docent.context.store.insertJob(active)
    const early = await t.post(`/v2/agent/demo/job/${active.id}/merge`)
    expect(early.status).toBe(409)
    expect(((await early.json()) as { error: string }).error).toBe('a run of this job is in progress; merge when it ends')
    expect((await t.post('/v2/agent/demo/job/no_such_job/merge')).status).toBe(404)
  })
})
