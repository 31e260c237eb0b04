// How the built-in offline-answer model does on the demo docs, through the real pipeline (search → prompt → model):
// of the 130 search-quality questions (all answerable), how many it answers and how many answers cite an expected
// page; of questions the docs do not cover (bench/assistant/off-topic.json), how many it declines. Printed by bench/assistant/run.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKey } from '../../server/keys/keys.ts'
import { consoleLogger } from '../../server/log.ts'
import { createDocent } from '../../server/mod.ts'
import { isDecline } from '../../server/analytics/decline.ts'

const offTopic = JSON.parse(readFileSync('bench/assistant/off-topic.json', 'utf8')) as { any: string[]; demo: string[]; sharing: string[] }
const OFF_TOPIC = [...offTopic.any, ...offTopic.demo, ...offTopic.sharing]

export async function offlineQuality() {
  const questions = JSON.parse(readFileSync('bench/search-quality/questions.json', 'utf8')) as Array<{ question: string; pages: string[] }>
  const unlimited = 1_000_000_000
  const dataDir = mkdtempSync(join(tmpdir(), 'docent-bench-offline-'))
  const docent = await createDocent(
    {
      dataDir,
      store: { kind: 'pglite' },
      worker: false,
      limits: { assistantKeyPerMonth: unlimited, organizationPerHour: unlimited, ipPerDay: unlimited, assistantIpPerHour: unlimited },
      projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs' } }],
    },
    { log: consoleLogger('silent') },
  )
  const key = (await createKey(docent.context.store, { kind: 'assistant', organization: 'demo', projectId: 'demo' })).secret
  const answer = async (question: string) => {
    const response = await docent.app.request('/discovery/v2/assistant/demo/message', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ fp: 'bench', messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: question }] }] }),
    })
    const chunks = (await response.text())
      .split('\n\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string; url?: string })
    const text = chunks.flatMap((c) => (c.type === 'text-delta' ? [c.delta!] : [])).join('')
    const sources = chunks.flatMap((c) => (c.type === 'source-url' ? [new URL(c.url!).pathname] : []))
    // Which sources the answer quotes: its [n] citations, numbered like the source parts.
    const cited = [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => sources[Number(m[1]) - 1]).filter(Boolean))] as string[]
    return { declined: isDecline(text), cited }
  }

  let answered = 0
  let citedExpected = 0
  for (const { question, pages } of questions) {
    const result = await answer(question)
    if (result.declined) continue
    answered++
    const expected = pages.map((page) => `/${page.replace(/(^|\/)index$/, '')}`.replace(/\/$/, '') || '/')
    if (result.cited.some((path) => expected.includes(path.replace(/\/$/, '') || '/'))) citedExpected++
  }
  let declined = 0
  for (const question of OFF_TOPIC) if ((await answer(question)).declined) declined++
  await docent.stop()
  rmSync(dataDir, { recursive: true, force: true })
  console.log(
    `offline-answer on demo/docs: answered ${answered}/${questions.length} answerable questions, ${citedExpected}/${answered} of those cite an expected page; declined ${declined}/${OFF_TOPIC.length} off-topic questions`,
  )
}
