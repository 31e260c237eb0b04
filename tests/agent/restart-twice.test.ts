import { afterAll, beforeAll, expect, test } from 'vitest'
import { git } from '../support/git-server.ts'
import { createJob, eventTypes, settled, startRestartHarness, until } from './support/restart-harness.ts'

let h: Awaited<ReturnType<typeof startRestartHarness>>
beforeAll(async () => {
  h = await startRestartHarness()
})
afterAll(async () => {
  await h?.close()
})

test('kill -9 during a run, and again during its retry: the next server fails the job with a clear error, no PR', async () => {
  const t = await h.project('docs-restart-twice')
  h.proxy.state.hold = true
  const first = await t.start()
  const job = await createJob(first, 'Rename Lumen Flags in the quickstart')
  await until(() => h.proxy.state.held > 0)
  await first.kill()
  const second = await t.start()
  await until(() => h.proxy.state.held > 1) // the retry is waiting on the model too
  await second.kill()

  const third = await t.start()
  const done = await settled(third, job.id)
  expect(done.status).toBe('failed')
  expect(done.error).toBe('the run was interrupted 2 times (the server stopped or crashed during the run); giving up')
  expect(done.prLink).toBeNull()
  expect(h.github.created()).toBe(0)
  expect((await git(t.repo.bare, 'branch', '--list', 'docent/*')).trim()).toBe('')
  expect(await eventTypes(third, job.id)).toEqual(expect.arrayContaining(['run.retried', 'run.failed']))
  await third.stop()
}, 200_000)
