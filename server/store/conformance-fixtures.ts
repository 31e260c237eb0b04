// Records and helpers the store conformance suites share: unique ids (stores are shared between tests) and samples.
import type {
  AutomationRecord,
  AutomationRunRecord,
  JobRecord,
  KeyRecord,
  MessageRecord,
  Store,
  ThreadRecord,
  TurnRecord,
} from './types.ts'

let counter = 0
export const uid = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}-${crypto.randomUUID().slice(0, 8)}`

export const sampleKey = (overrides: Partial<KeyRecord> = {}): KeyRecord => ({
  id: uid('key'),
  hash: uid('hash'),
  kind: 'admin',
  organization: uid('org'),
  projectId: null,
  name: 'ci',
  scope: 'write',
  last4: 'abcd',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  expiresAt: null,
  revokedAt: null,
  ...overrides,
})

export const sampleJob = (overrides: Partial<JobRecord> = {}): JobRecord => ({
  id: uid('job'),
  projectId: uid('project'),
  status: 'active',
  source: { repository: 'https://git.example/docs.git', ref: 'main' },
  model: 'offline-editor',
  branch: null,
  pr: null,
  error: null,
  conversation: [],
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
  archivedAt: null,
  ...overrides,
})

export const sampleThread = (overrides: Partial<ThreadRecord> = {}): ThreadRecord => ({
  id: uid('thread'),
  projectId: uid('project'),
  fp: 'anonymous',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
  messageCount: 0,
  ...overrides,
})

export const sampleAutomation = (overrides: Partial<AutomationRecord> = {}): AutomationRecord => ({
  projectId: uid('project'),
  id: 'fix-broken-links',
  kind: 'predefined',
  name: 'Fix broken links',
  enabled: true,
  trigger: { kind: 'schedule', cron: '0 9 * * mon', timeZone: 'Europe/Paris' },
  mode: 'pull_request',
  instructions: null,
  languages: [],
  prompt: null,
  scheduleFrom: new Date('2026-01-01T00:00:00Z'),
  lastSlot: null,
  contentRevision: null,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
  ...overrides,
})

export const sampleAutomationRun = (overrides: Partial<AutomationRunRecord> = {}): AutomationRunRecord => ({
  id: uid('run'),
  projectId: uid('project'),
  automationId: 'fix-broken-links',
  key: uid('schedule:'),
  reason: 'schedule',
  startedAt: new Date('2026-01-05T08:00:00Z'),
  jobId: uid('job'),
  status: 'active',
  prLink: null,
  note: null,
  baseCommit: null,
  context: {},
  ...overrides,
})

export const message = (threadId: string, role: 'user' | 'assistant', content: string, at: Date): MessageRecord => ({
  id: uid('msg'),
  threadId,
  role,
  content,
  createdAt: at,
})

/**
 * Rates recorded turns as readers do: each turn's answer stored in `threadId` under the turn's id, then thumbs up for
 * the first `ups` and down for the rest, all at `at`.
 */
export async function rateTurns(store: Store, threadId: string, turns: TurnRecord[], ups: number, at: Date): Promise<void> {
  await store.appendMessages(
    threadId,
    turns.map((turn) => ({ ...message(threadId, 'assistant', turn.response, turn.askedAt), id: turn.id })),
    at,
  )
  for (const [i, turn] of turns.entries()) {
    await store.putFeedback({ threadId, messageId: turn.id, rating: i < ups ? 'up' : 'down', createdAt: at })
  }
}

/** The test functions the suite registers its tests with: vitest's, or `deno test`'s (see denokv_test.ts). */
export interface SuiteApi {
  describe(name: string, body: () => void): void
  test(name: string, body: () => Promise<void>): void
}
