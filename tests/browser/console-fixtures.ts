import type { Page, Route } from 'playwright-core'
import type {
  CallerStats,
  Conversation,
  ConversationSummary,
  FeedbackByPage,
  FeedbackList,
  Gap,
  SearchTermList,
} from '../../shared/analytics.ts'

// Contract-shaped analytics data (../shared/API.md, Analytics; issue 16 for gaps), served to the console by
// intercepting its requests, so its screens are tested while the analytics API is being built on another branch.
// Once that API is merged, the end-to-end test in console.test.ts runs against the real one.

const DAY = 86_400_000
const daysAgo = (n: number, hour = 10) => new Date(Date.UTC(2026, 10, 23 - n, hour, 12)).toISOString()

const QUESTIONS: Array<[string, Conversation['resolutionStatus'], string | null, string]> = [
  ['How do I install the JavaScript SDK?', 'answered', 'SDKs', '/sdks/javascript'],
  ['What is a percentage rollout?', 'answered', 'Guides', '/guides/percentage-rollouts'],
  ['Can I export flags to CSV?', 'unanswered', 'Concepts', '/concepts/flags'],
  ['How do I rotate an SDK key?', 'answered', 'Account', '/account/api-keys'],
  ['Does Lumen support SCIM provisioning?', 'unanswered', 'Account', '/account/sso-saml'],
  ['How do webhooks retry?', 'answered', 'Guides', '/guides/webhooks'],
  ['export flags as csv file', 'unanswered', 'Concepts', '/concepts/flags'],
]

export function fixtureConversations(now = Date.now()): Conversation[] {
  const turns: Conversation[] = []
  for (let day = 0; day < 21; day++) {
    const perDay = 2 + ((day * 7) % 5)
    for (let i = 0; i < perDay; i++) {
      const [query, resolutionStatus, queryCategory, path] = QUESTIONS[(day + i) % QUESTIONS.length]!
      const timestamp = new Date(now - day * DAY - i * 3_600_000).toISOString()
      turns.push({
        id: `turn-${day}-${i}`,
        threadId: `thread-${day}-${i}`,
        timestamp,
        query,
        response:
          resolutionStatus === 'answered'
            ? `Here is how: see the [guide](https://docs.lumen.dev${path}) [1].`
            : 'The documentation does not cover this question. Try asking support.',
        sources: resolutionStatus === 'answered' ? [{ title: queryCategory ?? 'Docs', url: `https://docs.lumen.dev${path}` }] : [],
        resolutionStatus,
        queryCategory,
        pageUrl: `https://docs.lumen.dev${path}`,
        caller: i % 3 === 0 ? 'api' : 'web',
        model: 'offline',
        firstTokenMs: 120,
        totalMs: 480,
        feedback: i % 4 === 0 ? { rating: resolutionStatus === 'answered' ? 'up' : 'down', comment: null } : null,
      })
    }
  }
  return turns
}

export const fixtureGaps = (): Gap[] => [
  {
    id: 'gap_export_csv',
    title: 'Exporting flags to CSV',
    status: 'open',
    count: 9,
    questions: [
      { query: 'Can I export flags to CSV?', count: 5, lastAskedAt: daysAgo(0) },
      { query: 'export flags as csv file', count: 3, lastAskedAt: daysAgo(1) },
      { query: 'download a list of all flags', count: 1, lastAskedAt: daysAgo(4) },
    ],
    // The last, one unbroken word as some sites' paths are, must wrap on a phone rather than widen the screen.
    pages: [
      'https://docs.lumen.dev/concepts/flags',
      'https://docs.lumen.dev/guides/flag-cleanup',
      'https://docs.lumen.dev/reference/FlagExportAndBulkDownloadConfigurationReferenceForEnterpriseWorkspaces',
    ],
    closest: [
      { title: 'Flags › Listing flags', url: 'https://docs.lumen.dev/concepts/flags#listing-flags' },
      { title: 'Flag cleanup', url: 'https://docs.lumen.dev/guides/flag-cleanup' },
    ],
    firstSeenAt: daysAgo(12),
    lastSeenAt: daysAgo(0),
    jobId: null,
    prLink: null,
    reason: null,
    verifiedAt: null,
  },
  {
    id: 'gap_scim',
    title: 'SCIM provisioning',
    status: 'open',
    count: 4,
    questions: [{ query: 'Does Lumen support SCIM provisioning?', count: 4, lastAskedAt: daysAgo(2) }],
    pages: ['https://docs.lumen.dev/account/sso-saml'],
    closest: [{ title: 'SSO with SAML', url: 'https://docs.lumen.dev/account/sso-saml' }],
    firstSeenAt: daysAgo(9),
    lastSeenAt: daysAgo(2),
    jobId: null,
    prLink: null,
    reason: null,
    verifiedAt: null,
  },
]

const callerStats = (turns: Conversation[]): CallerStats => ({
  web: turns.filter((t) => t.caller === 'web').length,
  api: turns.filter((t) => t.caller === 'api').length,
  other: 3,
  total: turns.length + 3,
})

const byPage: FeedbackByPage = {
  feedback: [
    { path: '/concepts/flags', thumbsUp: 3, thumbsDown: 6, code: 0, total: 9 },
    { path: '/sdks/javascript', thumbsUp: 14, thumbsDown: 1, code: 2, total: 17 },
    { path: '/guides/webhooks', thumbsUp: 5, thumbsDown: 2, code: 0, total: 7 },
  ],
  hasMore: false,
}

/** The summary of the turns of a range (day by day: the fixture's ranges are short), its ratings those of byPage. */
function summaryOf(turns: Conversation[], from: string, to: string): ConversationSummary {
  const buckets: ConversationSummary['buckets'] = []
  for (let day = Date.parse(from.slice(0, 10)); day <= Date.parse(to.slice(0, 10)); day += DAY) {
    const start = new Date(day).toISOString().slice(0, 10)
    const of = turns.filter((turn) => turn.timestamp.startsWith(start))
    buckets.push({
      start,
      answered: of.filter((t) => t.resolutionStatus === 'answered').length,
      unanswered: of.filter((t) => t.resolutionStatus === 'unanswered').length,
    })
  }
  const categories = new Map<string | null, number>()
  for (const turn of turns) categories.set(turn.queryCategory, (categories.get(turn.queryCategory) ?? 0) + 1)
  const answered = turns.filter((turn) => turn.resolutionStatus === 'answered').length
  return {
    conversations: turns.length,
    answered,
    unanswered: turns.length - answered,
    bucket: 'day',
    buckets,
    categories: [...categories].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count),
    ratings: {
      up: byPage.feedback.reduce((sum, page) => sum + page.thumbsUp, 0),
      down: byPage.feedback.reduce((sum, page) => sum + page.thumbsDown, 0),
    },
  }
}

const feedbackList = (): FeedbackList => ({
  feedback: [
    {
      id: 'fb_1',
      path: '/concepts/flags',
      comment: 'I wanted to export my flags and the page does not say how.',
      createdAt: daysAgo(1),
      source: 'thumbs_only',
      status: 'pending',
      helpful: false,
      contact: null,
      threadId: 'thread-1-0',
      messageId: 'turn-1-0',
    },
    {
      id: 'fb_2',
      path: '/sdks/javascript',
      comment: null,
      createdAt: daysAgo(2),
      source: 'thumbs_only',
      status: 'resolved',
      helpful: true,
      contact: null,
      threadId: 'thread-2-0',
      messageId: 'turn-2-0',
    },
  ],
  nextCursor: null,
  hasMore: false,
})

const searches: SearchTermList = {
  searches: [
    {
      searchQuery: 'install',
      hits: 42,
      ctr: 0.71,
      topClickedPage: '/sdks/javascript',
      lastSearchedAt: daysAgo(0),
      noResults: 0,
      clicks: 30,
    },
    {
      searchQuery: 'rollout',
      hits: 23,
      ctr: 0.52,
      topClickedPage: '/guides/percentage-rollouts',
      lastSearchedAt: daysAgo(1),
      noResults: 0,
      clicks: 12,
    },
    { searchQuery: 'csv export', hits: 11, ctr: 0, topClickedPage: null, lastSearchedAt: daysAgo(0), noResults: 11, clicks: 0 },
    { searchQuery: 'scim', hits: 6, ctr: 0, topClickedPage: null, lastSearchedAt: daysAgo(2), noResults: 6, clicks: 0 },
  ],
  totalSearches: 82,
  noResultSearches: 17,
  nextCursor: null,
}

export interface AnalyticsFixture {
  /** Bodies of the POST/PATCH requests the console sent, by path. */
  sent: Array<{ method: string; path: string; body: unknown }>
  gaps: Gap[]
}

/** Answers the console's analytics requests with the fixture data; `fix` answers with the job `onFix` makes. */
export async function serveAnalyticsFixture(
  page: Page,
  options: { onFix?: (body: unknown) => Promise<unknown> } = {},
): Promise<AnalyticsFixture> {
  const turns = fixtureConversations()
  const fixture: AnalyticsFixture = { sent: [], gaps: fixtureGaps() }
  await page.route('**/v1/analytics/**', async (route: Route) => {
    const request = route.request()
    const url = new URL(request.url())
    const path = url.pathname.replace(/^\/v1\/analytics\/[^/]+/, '')
    const json = (body: unknown, status = 200) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) })
    if (request.method() !== 'GET') {
      const body = request.postData() ? JSON.parse(request.postData()!) : null
      fixture.sent.push({ method: request.method(), path, body })
      const fix = /^\/gaps\/([^/]+)\/fix$/.exec(path)
      if (fix && options.onFix) return json(await options.onFix(body))
      const dismiss = /^\/gaps\/([^/]+)\/(dismiss|reopen)$/.exec(path)
      if (dismiss) {
        const gap = fixture.gaps.find((g) => g.id === dismiss[1])!
        const dismissing = dismiss[2] === 'dismiss'
        // As the server: a dismissal says when; the time is a minute before the fixture's latest question, as when
        // readers kept asking after it.
        Object.assign(gap, { status: dismissing ? 'dismissed' : 'open', dismissedAt: dismissing ? daysAgo(0.01) : null })
        return json(gap)
      }
      if (path.startsWith('/feedback/')) return json({ ...feedbackList().feedback[0], ...(body as object) })
      return json({ error: 'not in the fixture', code: 'not_found' }, 404)
    }
    if (path === '/assistant') {
      const from = url.searchParams.get('dateFrom') ?? ''
      const to = url.searchParams.get('dateTo') ?? '9999'
      const inRange = turns.filter((turn) => turn.timestamp >= from && turn.timestamp <= to)
      return json({ conversations: inRange, nextCursor: null, hasMore: false })
    }
    if (path === '/assistant/summary') {
      const from = url.searchParams.get('dateFrom') ?? new Date(Date.now() - 29 * DAY).toISOString()
      const to = url.searchParams.get('dateTo') ?? new Date().toISOString()
      return json(
        summaryOf(
          turns.filter((turn) => turn.timestamp >= from && turn.timestamp <= to),
          from,
          to,
        ),
      )
    }
    const thread = /^\/assistant\/threads\/(.+)$/.exec(path)
    if (thread) {
      const turn = turns.find((t) => t.threadId === thread[1])!
      return json({
        threadId: thread[1],
        createdAt: turn.timestamp,
        messages: [
          { id: 'm1', role: 'user', content: turn.query, createdAt: turn.timestamp },
          { id: 'm2', role: 'assistant', content: turn.response, createdAt: turn.timestamp },
        ],
      })
    }
    if (path === '/assistant/caller-stats') return json(callerStats(turns))
    if (path === '/feedback/by-page') return json(byPage)
    if (path === '/feedback') return json(feedbackList())
    if (path === '/searches') return json(searches)
    if (path === '/gaps') {
      const status = url.searchParams.get('status')
      return json({ gaps: fixture.gaps.filter((gap) => !status || gap.status === status), nextCursor: null })
    }
    return json({ error: 'not in the fixture', code: 'not_found' }, 404)
  })
  return fixture
}
