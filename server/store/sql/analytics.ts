import type { Caller, FeedbackStatus, GapStatus, TimeBucket } from '../../../shared/analytics.ts'
import type {
  AnalyticsBatch,
  AnalyticsStore,
  DateRange,
  FeedbackEntry,
  FeedbackFilter,
  GapInRange,
  GapListRequest,
  GapRecord,
  GapSignalRecord,
  SearchTermsPage,
  TurnRecord,
  TurnSummary,
  TurnWithFeedback,
} from '../analytics-types.ts'
import { topCategories } from '../analytics-compute.ts'
import { decodeCursor, decodeRankCursor, encodeCursor, encodeRankCursor } from '../cursor.ts'
import type { Page, PageRequest } from '../types.ts'
import type { Row, SqlClient, SqlQueries } from './client.ts'
import { date, dateOrNull, iso, json, type PatchColumns, patchStatement } from './rows.ts'

const noNul = (value: string) => value.split('\u0000')[0]!
/** Postgres text cannot hold U+0000: an id containing one names nothing that was ever stored. */
const unstorable = (...values: string[]) => values.some((value) => value.includes('\u0000'))

/** Rows per INSERT: well under Postgres' 65,535 parameters for the widest table. */
const INSERT_CHUNK = 500

/** `path` of a feedback row: the page the reader asked from, else the answer's best source. */
const FEEDBACK_PATH = `coalesce(tu.page_path #>> '{}', '/' || ltrim(tu.sources -> 0 ->> 'path', '/'))`

const turnFromRow = (row: Row): TurnRecord => ({
  id: row.id as string,
  projectId: row.project_id as string,
  threadId: row.thread_id as string,
  askedAt: date(row.asked_at),
  query: row.query as string,
  searchQuery: row.search_query as string,
  response: row.response as string,
  sources: row.sources as TurnRecord['sources'],
  resolution: row.resolution as TurnRecord['resolution'],
  category: (row.category as string | null) ?? null,
  pagePath: (row.page_path as string | null) ?? null,
  pageUrl: (row.page_url as string | null) ?? null,
  caller: row.caller as Caller,
  fp: row.fp as string,
  model: row.model as string,
  firstTokenMs: (row.first_token_ms as number | null) ?? null,
  totalMs: row.total_ms as number,
})

const feedbackFromRow = (row: Row): FeedbackEntry => ({
  id: row.id as string,
  projectId: row.project_id as string,
  threadId: row.thread_id as string,
  messageId: row.message_id as string,
  rating: row.rating as FeedbackEntry['rating'],
  ...(row.comment != null ? { comment: row.comment as string } : {}),
  createdAt: date(row.created_at),
  status: row.status as FeedbackStatus,
  path: (row.path as string | null) ?? null,
})

const signalFromRow = (row: Row): GapSignalRecord => ({
  id: row.id as string,
  projectId: row.project_id as string,
  at: date(row.at),
  kind: row.kind as GapSignalRecord['kind'],
  query: row.query as string,
  terms: row.terms as string[],
  sections: row.sections as GapSignalRecord['sections'],
  pageUrl: (row.page_url as string | null) ?? null,
  gapId: (row.gap_id as string | null) ?? null,
})

const gapFromRow = (row: Row): GapRecord => {
  const merge = row.merge as { commit: string; at: string; revisionAtMerge: string | null } | null
  return {
    id: row.id as string,
    projectId: row.project_id as string,
    title: row.title as string,
    status: row.status as GapStatus,
    reason: (row.reason as string | null) ?? null,
    jobId: (row.job_id as string | null) ?? null,
    terms: row.terms as Record<string, number>,
    sections: row.sections as GapRecord['sections'],
    memberCount: row.member_count as number,
    merge: merge ? { ...merge, at: new Date(merge.at) } : null,
    verifiedAt: dateOrNull(row.verified_at),
    firstSeenAt: date(row.first_seen_at),
    lastSeenAt: date(row.last_seen_at),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  }
}

/** Gap fields a patch may set: record field -> [column, how the value is passed, SQL cast]. */
const gapColumns: PatchColumns = {
  title: ['title', json, 'text::json'],
  status: ['status', (value: string) => value, 'text'],
  reason: ['reason', json, 'text::json'],
  jobId: ['job_id', (value: string | null) => value, 'text'],
  terms: ['terms', json, 'text::json'],
  sections: ['sections', json, 'text::json'],
  memberCount: ['member_count', (value: number) => value, 'integer'],
  merge: ['merge', (value: GapRecord['merge']) => (value ? json({ ...value, at: value.at.toISOString() }) : null), 'text::json'],
  verifiedAt: ['verified_at', iso, 'timestamptz'],
  firstSeenAt: ['first_seen_at', iso, 'timestamptz'],
  lastSeenAt: ['last_seen_at', iso, 'timestamptz'],
  updatedAt: ['updated_at', iso, 'timestamptz'],
}

/** Inserts rows in chunks: `columns` with their casts, `values` one array per row. */
async function insertRows(tx: SqlQueries, table: string, columns: Array<[string, string]>, rows: unknown[][], conflict: string) {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const params: unknown[] = []
    const tuples = rows.slice(start, start + INSERT_CHUNK).map((row) => {
      const placeholders = row.map((value, i) => `$${params.push(value)}::${columns[i]![1]}`)
      return `(${placeholders.join(', ')})`
    })
    await tx.query(`INSERT INTO ${table} (${columns.map(([name]) => name).join(', ')}) VALUES ${tuples.join(', ')} ${conflict}`, params)
  }
}

/** The analytics half of the SQL store (PGlite and PostgreSQL alike); SqlStore extends it. */
export class SqlAnalyticsStore implements AnalyticsStore {
  constructor(protected readonly db: SqlClient) {}

  async recordAnalytics(batch: AnalyticsBatch) {
    await this.db.transaction(async (tx) => {
      await insertRows(
        tx,
        'docent_turns',
        [
          ['id', 'text'],
          ['project_id', 'text'],
          ['thread_id', 'text'],
          ['asked_at', 'timestamptz'],
          ['query', 'text::json'],
          ['search_query', 'text::json'],
          ['response', 'text::json'],
          ['sources', 'text::json'],
          ['resolution', 'text'],
          ['category', 'text::json'],
          ['page_path', 'text::json'],
          ['page_url', 'text::json'],
          ['caller', 'text'],
          ['fp', 'text::json'],
          ['model', 'text'],
          ['first_token_ms', 'integer'],
          ['total_ms', 'integer'],
        ],
        (batch.turns ?? []).map((t) => [
          t.id,
          t.projectId,
          t.threadId,
          iso(t.askedAt),
          json(t.query),
          json(t.searchQuery),
          json(t.response),
          json(t.sources),
          t.resolution,
          json(t.category),
          json(t.pagePath),
          json(t.pageUrl),
          t.caller,
          json(t.fp),
          t.model,
          t.firstTokenMs,
          t.totalMs,
        ]),
        'ON CONFLICT (id) DO NOTHING',
      )
      await insertRows(
        tx,
        'docent_searches',
        [
          ['id', 'text'],
          ['project_id', 'text'],
          ['at', 'timestamptz'],
          ['query', 'text'],
          ['result_count', 'integer'],
          ['top_score', 'double precision'],
          ['caller', 'text'],
          ['origin', 'text'],
        ],
        (batch.searches ?? []).map((s) => [s.id, s.projectId, iso(s.at), s.query, s.resultCount, s.topScore, s.caller, s.origin]),
        'ON CONFLICT (id) DO NOTHING',
      )
      await insertRows(
        tx,
        'docent_clicks',
        [
          ['id', 'text'],
          ['project_id', 'text'],
          ['at', 'timestamptz'],
          ['kind', 'text'],
          ['query', 'text'],
          ['path', 'text'],
          ['position', 'integer'],
          ['thread_id', 'text'],
          ['message_id', 'text'],
        ],
        (batch.clicks ?? []).map((c) => [c.id, c.projectId, iso(c.at), c.kind, c.query, c.path, c.position, c.threadId, c.messageId]),
        'ON CONFLICT (id) DO NOTHING',
      )
      await insertRows(
        tx,
        'docent_gap_signals',
        [
          ['id', 'text'],
          ['project_id', 'text'],
          ['at', 'timestamptz'],
          ['kind', 'text'],
          ['query', 'text::json'],
          ['terms', 'text::json'],
          ['sections', 'text::json'],
          ['page_url', 'text::json'],
          ['gap_id', 'text'],
        ],
        (batch.signals ?? []).map((s) => [
          s.id,
          s.projectId,
          iso(s.at),
          s.kind,
          json(s.query),
          json(s.terms),
          json(s.sections),
          json(s.pageUrl),
          s.gapId,
        ]),
        'ON CONFLICT (id) DO NOTHING',
      )
    })
  }

  async getTurn(projectId: string, id: string) {
    if (unstorable(projectId, id)) return null
    const [row] = await this.db.query(`SELECT * FROM docent_turns WHERE id = $1 AND project_id = $2`, [id, projectId])
    return row ? turnFromRow(row) : null
  }

  async listTurns(projectId: string, range: DateRange, page: PageRequest): Promise<Page<TurnWithFeedback>> {
    const scope = { list: 'turns', projectId } as const
    const after = await decodeCursor(scope, page.cursor)
    const params: unknown[] = [projectId, iso(range.from), iso(range.to), page.limit + 1]
    const where = after
      ? ` AND (t.asked_at, t.id) < ($${params.push(iso(after.at))}::timestamptz, $${params.push(noNul(after.id))}::text)`
      : ''
    const rows = await this.db.query(
      `SELECT t.*, f.rating, f.comment AS feedback_comment FROM docent_turns t
       LEFT JOIN docent_feedback f ON f.thread_id = t.thread_id AND f.message_id = t.id
       WHERE t.project_id = $1 AND t.asked_at >= $2::timestamptz AND t.asked_at < $3::timestamptz${where}
       ORDER BY t.asked_at DESC, t.id DESC LIMIT $4`,
      params,
    )
    const items = rows.slice(0, page.limit).map((row) => ({
      ...turnFromRow(row),
      feedback:
        row.rating == null ? null : { rating: row.rating as 'up' | 'down', comment: (row.feedback_comment as string | null) ?? null },
    }))
    const last = items.at(-1)
    return { items, nextCursor: rows.length > page.limit && last ? await encodeCursor(scope, last.askedAt, last.id) : null }
  }

  async summarizeTurns(projectId: string, range: DateRange, bucket: TimeBucket): Promise<TurnSummary> {
    const params = [projectId, iso(range.from), iso(range.to)]
    // One scan for both counts (grouping sets): the bucket rows have no name, the category rows no start. A category
    // is grouped as JSON text (json has no equality; `#>>` would fail on an escaped U+0000), decoded below. The scan is
    // an index-only one on docent_turns_summary where the table is vacuumed. Starts come as epoch milliseconds: the
    // drivers read a timestamptz of the years 1 to 999 as another date.
    const rows = await this.db.query(
      `SELECT (extract(epoch FROM date_trunc($4, asked_at, 'UTC')) * 1000)::float8 AS start, resolution,
         coalesce(category::text, 'null') AS name, count(*)::int AS n
       FROM docent_turns WHERE project_id = $1 AND asked_at >= $2::timestamptz AND asked_at < $3::timestamptz
       GROUP BY GROUPING SETS ((1, 2), (3))`,
      [...params, bucket],
    )
    const [ratings] = await this.db.query<{ up: number; down: number }>(
      `SELECT count(*) FILTER (WHERE rating = 'up')::int AS up, count(*) FILTER (WHERE rating = 'down')::int AS down
       FROM docent_feedback WHERE project_id = $1 AND created_at >= $2::timestamptz AND created_at < $3::timestamptz`,
      params,
    )
    const buckets = new Map<number, { start: Date; answered: number; unanswered: number }>()
    const categories: TurnSummary['categories'] = []
    for (const row of rows) {
      if (row.start == null) {
        categories.push({ name: JSON.parse(row.name as string) as string | null, count: row.n as number })
        continue
      }
      const start = row.start as number
      let counts = buckets.get(start)
      if (!counts) buckets.set(start, (counts = { start: new Date(start), answered: 0, unanswered: 0 }))
      counts[row.resolution as 'answered' | 'unanswered'] += row.n as number
    }
    return {
      buckets: [...buckets.values()].sort((a, b) => a.start.getTime() - b.start.getTime()),
      categories: topCategories(categories),
      ratings: ratings!,
    }
  }

  async countCallers(projectId: string, range: DateRange) {
    const rows = await this.db.query<{ caller: Caller; n: number }>(
      `SELECT caller, count(*)::int AS n FROM docent_turns
       WHERE project_id = $1 AND asked_at >= $2::timestamptz AND asked_at < $3::timestamptz GROUP BY caller
       UNION ALL
       SELECT 'other', count(*)::int FROM docent_searches
       WHERE project_id = $1 AND at >= $2::timestamptz AND at < $3::timestamptz AND caller = 'other'`,
      [projectId, iso(range.from), iso(range.to)],
    )
    const counts: Record<Caller, number> = { web: 0, api: 0, other: 0 }
    for (const row of rows) counts[row.caller] += row.n
    return counts
  }

  /** Feedback of the project in the filter's range, with its page, as a subquery `fb`. */
  private feedbackRows(filter: FeedbackFilter, params: unknown[]): string {
    const status = filter.status ? ` AND f.status = $${params.push(filter.status)}` : ''
    return `(SELECT f.*, ${FEEDBACK_PATH} AS path FROM docent_feedback f LEFT JOIN docent_turns tu ON tu.id = f.message_id
      WHERE f.project_id = $1 AND f.created_at >= $2::timestamptz AND f.created_at < $3::timestamptz${status}) fb`
  }

  async listFeedback(projectId: string, filter: FeedbackFilter, page: PageRequest) {
    const scope = { list: 'feedback', projectId } as const
    const after = await decodeCursor(scope, page.cursor)
    const params: unknown[] = [projectId, iso(filter.range.from), iso(filter.range.to), page.limit + 1]
    const from = this.feedbackRows(filter, params)
    const where = after
      ? ` WHERE (created_at, id) < ($${params.push(iso(after.at))}::timestamptz, $${params.push(noNul(after.id))}::text)`
      : ''
    const rows = await this.db.query(`SELECT * FROM ${from}${where} ORDER BY created_at DESC, id DESC LIMIT $4`, params)
    const items = rows.slice(0, page.limit).map(feedbackFromRow)
    const last = items.at(-1)
    return { items, nextCursor: rows.length > page.limit && last ? await encodeCursor(scope, last.createdAt, last.id) : null }
  }

  async feedbackByPage(projectId: string, filter: FeedbackFilter, limit: number) {
    const params: unknown[] = [projectId, iso(filter.range.from), iso(filter.range.to), limit + 1]
    const rows = await this.db.query<{ path: string; up: number; down: number }>(
      `SELECT coalesce(path, '') COLLATE "C" AS path, count(*) FILTER (WHERE rating = 'up')::int AS up,
         count(*) FILTER (WHERE rating = 'down')::int AS down
       FROM ${this.feedbackRows(filter, params)} GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT $4`,
      params,
    )
    return { items: rows.slice(0, limit), hasMore: rows.length > limit }
  }

  async setFeedbackStatus(projectId: string, id: string, status: FeedbackStatus) {
    if (unstorable(projectId, id)) return null
    const [row] = await this.db.query(
      `WITH f AS (UPDATE docent_feedback SET status = $3 WHERE id = $2 AND project_id = $1 RETURNING *)
       SELECT f.*, ${FEEDBACK_PATH} AS path FROM f LEFT JOIN docent_turns tu ON tu.id = f.message_id`,
      [projectId, id, status],
    )
    return row ? feedbackFromRow(row) : null
  }

  async searchTerms(projectId: string, range: DateRange, page: PageRequest): Promise<SearchTermsPage> {
    const scope = { list: 'search-terms', projectId } as const
    const after = await decodeRankCursor(scope, page.cursor)
    const params: unknown[] = [projectId, iso(range.from), iso(range.to), page.limit + 1]
    const cursor = after
      ? ` WHERE hits < $${params.push(after.count)}::int OR (hits = $${params.length}::int AND query > $${params.push(noNul(after.key))}::text)`
      : ''
    const rows = await this.db.query(
      `WITH terms AS (
         SELECT query, count(*)::int AS hits, count(*) FILTER (WHERE result_count = 0)::int AS no_results, max(at) AS last_at
         FROM docent_searches WHERE project_id = $1 AND at >= $2::timestamptz AND at < $3::timestamptz GROUP BY query
       ),
       page AS (SELECT * FROM terms${cursor} ORDER BY hits DESC, query LIMIT $4),
       clicks AS (
         SELECT query, path, count(*)::int AS n FROM docent_clicks
         WHERE project_id = $1 AND at >= $2::timestamptz AND at < $3::timestamptz AND kind = 'search_result_click'
           AND query IN (SELECT query FROM page)
         GROUP BY query, path
       )
       SELECT page.*,
         coalesce((SELECT sum(n) FROM clicks WHERE clicks.query = page.query), 0)::int AS clicks,
         (SELECT path FROM clicks WHERE clicks.query = page.query ORDER BY n DESC, path LIMIT 1) AS top_path
       FROM page ORDER BY hits DESC, query`,
      params,
    )
    const [totals] = await this.db.query<{ total: number; none: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE result_count = 0)::int AS none FROM docent_searches
       WHERE project_id = $1 AND at >= $2::timestamptz AND at < $3::timestamptz`,
      [projectId, iso(range.from), iso(range.to)],
    )
    const items = rows.slice(0, page.limit).map((row) => ({
      query: row.query as string,
      hits: row.hits as number,
      noResults: row.no_results as number,
      clicks: row.clicks as number,
      topClickedPage: (row.top_path as string | null) ?? null,
      lastSearchedAt: date(row.last_at),
    }))
    const last = items.at(-1)
    return {
      items,
      nextCursor: rows.length > page.limit && last ? await encodeRankCursor(scope, last.hits, last.query) : null,
      totalSearches: totals!.total,
      noResultSearches: totals!.none,
    }
  }

  async listUnassignedSignals(projectId: string, limit: number) {
    const rows = await this.db.query(`SELECT * FROM docent_gap_signals WHERE project_id = $1 AND gap_id IS NULL ORDER BY at, id LIMIT $2`, [
      projectId,
      limit,
    ])
    return rows.map(signalFromRow)
  }

  async assignSignals(gapId: string, signalIds: string[]) {
    if (signalIds.length === 0) return
    await this.db.query(
      `UPDATE docent_gap_signals SET gap_id = $1 WHERE id IN (SELECT json_array_elements_text($2::text::json)) AND gap_id IS NULL`,
      [gapId, json(signalIds)],
    )
  }

  async listGapSignals(projectId: string, gapId: string, range: DateRange, limit: number) {
    if (unstorable(gapId)) return []
    const rows = await this.db.query(
      `SELECT * FROM docent_gap_signals WHERE gap_id = $2 AND project_id = $1 AND at >= $3::timestamptz AND at < $4::timestamptz
       ORDER BY at DESC, id DESC LIMIT $5`,
      [projectId, gapId, iso(range.from), iso(range.to), limit],
    )
    return rows.map(signalFromRow)
  }

  async insertGap(gap: GapRecord) {
    await insertRows(
      this.db,
      'docent_gaps',
      [
        ['id', 'text'],
        ['project_id', 'text'],
        ...Object.values(gapColumns).map(([name, , cast]): [string, string] => [name, cast]),
        ['created_at', 'timestamptz'],
      ],
      [
        [
          gap.id,
          gap.projectId,
          ...Object.entries(gapColumns).map(([field, [, encode]]) => encode(gap[field as keyof GapRecord] as never)),
          iso(gap.createdAt),
        ],
      ],
      '',
    )
  }

  async getGap(projectId: string, id: string) {
    if (unstorable(projectId, id)) return null
    const [row] = await this.db.query(`SELECT * FROM docent_gaps WHERE id = $1 AND project_id = $2`, [id, projectId])
    return row ? gapFromRow(row) : null
  }

  async updateGap(
    id: string,
    patch: Partial<Omit<GapRecord, 'id' | 'projectId' | 'createdAt'>>,
    options: { ifStatusIn?: GapStatus[] } = {},
  ) {
    if (unstorable(id)) return null
    const { text, params } = patchStatement('docent_gaps', gapColumns, id, patch, options.ifStatusIn)
    const [row] = await this.db.query(text, params)
    return row ? gapFromRow(row) : null
  }

  async listGapRecords(projectId: string, options: { statuses?: GapStatus[]; limit: number }) {
    const params: unknown[] = [projectId, options.limit]
    const statuses = options.statuses
      ? options.statuses.length
        ? ` AND status IN (${options.statuses.map((status) => `$${params.push(status)}`).join(', ')})`
        : ' AND false'
      : ''
    const rows = await this.db.query(
      `SELECT * FROM docent_gaps WHERE project_id = $1${statuses} ORDER BY last_seen_at DESC, id DESC LIMIT $2`,
      params,
    )
    return rows.map(gapFromRow)
  }

  async listGaps(projectId: string, request: GapListRequest): Promise<Page<GapInRange>> {
    const scope = { list: 'gaps', projectId } as const
    const after = await decodeRankCursor(scope, request.cursor)
    const params: unknown[] = [projectId, iso(request.range.from), iso(request.range.to), request.limit + 1]
    const conditions: string[] = []
    if (request.status) conditions.push(`g.status = $${params.push(request.status)}`)
    if (after) {
      conditions.push(
        `(c.n < $${params.push(after.count)}::int OR (c.n = $${params.length}::int AND g.id > $${params.push(noNul(after.key))}::text))`,
      )
    }
    const rows = await this.db.query(
      `WITH c AS (
         SELECT gap_id, count(*)::int AS n, min(at) AS first_at, max(at) AS last_at FROM docent_gap_signals
         WHERE project_id = $1 AND at >= $2::timestamptz AND at < $3::timestamptz AND gap_id IS NOT NULL GROUP BY gap_id
       )
       SELECT g.*, c.n, c.first_at, c.last_at FROM c JOIN docent_gaps g ON g.id = c.gap_id
       ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
       ORDER BY c.n DESC, g.id LIMIT $4`,
      params,
    )
    const items = rows.slice(0, request.limit).map((row) => ({
      gap: gapFromRow(row),
      count: row.n as number,
      firstSeenAt: date(row.first_at),
      lastSeenAt: date(row.last_at),
    }))
    const last = items.at(-1)
    return { items, nextCursor: rows.length > request.limit && last ? await encodeRankCursor(scope, last.count, last.gap.id) : null }
  }

  async purgeAnalytics(before: Date) {
    const cutoff = iso(before)
    const statements = [
      `DELETE FROM docent_turns WHERE asked_at < $1::timestamptz`,
      `DELETE FROM docent_searches WHERE at < $1::timestamptz`,
      `DELETE FROM docent_clicks WHERE at < $1::timestamptz`,
      `DELETE FROM docent_gap_signals WHERE at < $1::timestamptz`,
      // Messages and feedback go with their thread (ON DELETE CASCADE).
      `DELETE FROM docent_threads WHERE updated_at < $1::timestamptz`,
      `DELETE FROM docent_gaps g WHERE g.status IN ('open', 'dismissed') AND g.last_seen_at < $1::timestamptz
         AND NOT EXISTS (SELECT 1 FROM docent_gap_signals s WHERE s.gap_id = g.id)`,
    ]
    let deleted = 0
    for (const statement of statements) {
      const [row] = await this.db.query<{ n: number }>(`WITH d AS (${statement} RETURNING 1) SELECT count(*)::int AS n FROM d`, [cutoff])
      deleted += row!.n
    }
    return deleted
  }
}
