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

test('kill -9 during a run, restart: the run is retried by the next server and completes with one PR', async () => {
  const t = await h.project('docs-restart-once')
  h.proxy.state.hold = true
  const first = await t.start()
  const job = await createJob(first, 'Rename Lumen Flags in the quickstart')
  await until(() => h.proxy.state.held > 0) // the run is waiting on the model
  await first.kill()

  h.proxy.state.hold = false
  const second = await t.start()
  const done = await settled(second, job.id)
  expect(done).toMatchObject({ status: 'completed', error: null, prLink: 'https://github.example/acme/docs/pull/1' })
  expect(h.github.created()).toBe(1)
  const types = await eventTypes(second, job.id)
  expect(types).toContain('run.retried')
  expect(types.filter((type) => type === 'run.started')).toHaveLength(2)
  expect(types.filter((type) => type === 'pr')).toHaveLength(1)
  expect(await git(t.repo.bare, 'show', `${h.github.pulls[0]!.head}:quickstart.mdx`)).toContain('Lumen Toggles')
  await second.stop()
}, 150_000)
