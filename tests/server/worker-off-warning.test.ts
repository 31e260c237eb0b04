import { afterEach, describe, expect, it } from 'vitest'
import type { Logger } from '../../server/log.ts'
import { createDocent, type Docent } from '../../server/mod.ts'

/** A logger that keeps what it was told. */
function keptLog() {
  const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = []
  const log: Logger = { info() {}, warn: (message, fields) => void warnings.push({ message, fields }), error() {} }
  return { log, warnings }
}

const project = { id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs', public: true } }

describe('a server started with the worker off', () => {
  let docent: Docent | undefined
  afterEach(async () => {
    await docent?.stop()
    docent = undefined
  })

  it("warns when its store is its own process's, since no other process can run what it queues", async () => {
    const { log, warnings } = keptLog()
    docent = await createDocent({ store: { kind: 'memory' }, worker: false, projects: [project] }, { log })
    await docent.start()
    const warning = warnings.find((w) => w.message.includes('worker is off'))
    expect(warning?.message).toMatch(/agent jobs, automations or analytics upkeep/)
    expect(warning?.fields).toEqual({ store: 'memory' })
  })

  it('says nothing of it when the worker is on', async () => {
    const { log, warnings } = keptLog()
    docent = await createDocent({ store: { kind: 'memory' }, worker: true, projects: [project] }, { log })
    await docent.start()
    expect(warnings.filter((w) => w.message.includes('worker is off'))).toEqual([])
  })
})
