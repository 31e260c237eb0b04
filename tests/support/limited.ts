import { afterAll } from 'vitest'
import { stoppedClock, testDocent } from './app.ts'

/**
 * For a test file about rate limits: a function that starts a test Docent with these `limits` on a stopped clock (in
 * the middle of an hour, so no window rolls over mid-test); every one it started is stopped after the file's tests.
 */
export function limitedDocents() {
  const docents: Array<{ docent: { stop(): Promise<void> } }> = []
  afterAll(async () => {
    for (const t of docents) await t.docent.stop()
  })
  return async (limits: Record<string, number>) => {
    const t = await testDocent({ limits }, stoppedClock)
    docents.push(t)
    return t
  }
}
