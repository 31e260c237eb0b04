import type { SqlClient } from './client.ts'

/**
 * Versioned schema changes, applied in order, each once. Never edit a released migration: add the next one.
 * Ids are `text COLLATE "C"` so that ORDER BY id matches the byte order the cursors (cursor.ts) and the memory store use.
 * Free text that users or models write (prompts, message content, comments, errors) is kept in `json` columns as JSON
 * strings: Postgres `text` cannot hold U+0000, `json` can (escaped), so nothing a reader types is refused or altered.
 */
export const migrations: Array<{ version: number; name: string; statements: string[] }> = [
  {
    version: 1,
    name: 'initial schema',
    statements: [
      `CREATE TABLE docent_keys (
        id text COLLATE "C" PRIMARY KEY,
        hash text NOT NULL UNIQUE,
        kind text NOT NULL,
        organization text NOT NULL,
        project_id text,
        name json,
        last4 text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz,
        revoked_at timestamptz
      )`,
      `CREATE INDEX docent_keys_organization ON docent_keys (organization, created_at)`,
      `CREATE TABLE docent_counters (
        key text COLLATE "C" PRIMARY KEY,
        value integer NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
      `CREATE INDEX docent_counters_expiry ON docent_counters (expires_at)`,
      `CREATE TABLE docent_jobs (
        id text COLLATE "C" PRIMARY KEY,
        project_id text NOT NULL,
        status text NOT NULL,
        source json NOT NULL,
        model text NOT NULL,
        branch text,
        pr json,
        error json,
        conversation json NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        archived_at timestamptz
      )`,
      `CREATE INDEX docent_jobs_page ON docent_jobs (project_id, created_at DESC, id DESC)`,
      `CREATE TABLE docent_job_events (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        job_id text COLLATE "C" NOT NULL,
        event json NOT NULL
      )`,
      `CREATE INDEX docent_job_events_job ON docent_job_events (job_id, position)`,
      `CREATE TABLE docent_runs (
        id text COLLATE "C" PRIMARY KEY,
        job_id text COLLATE "C" NOT NULL,
        project_id text NOT NULL,
        prompt json NOT NULL,
        seq integer NOT NULL,
        status text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        lease_owner text,
        lease_expires_at timestamptz,
        created_at timestamptz NOT NULL,
        finished_at timestamptz,
        error json,
        UNIQUE (job_id, seq)
      )`,
      `CREATE INDEX docent_runs_open ON docent_runs (created_at, seq) WHERE status IN ('queued', 'running')`,
      `CREATE TABLE docent_threads (
        id text COLLATE "C" PRIMARY KEY,
        project_id text NOT NULL,
        fp text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        message_count integer NOT NULL DEFAULT 0
      )`,
      `CREATE INDEX docent_threads_page ON docent_threads (project_id, updated_at DESC, id DESC)`,
      `CREATE TABLE docent_messages (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        thread_id text COLLATE "C" NOT NULL REFERENCES docent_threads (id) ON DELETE CASCADE,
        id text COLLATE "C" NOT NULL,
        role text NOT NULL,
        content json NOT NULL,
        sources json,
        created_at timestamptz NOT NULL,
        UNIQUE (thread_id, id)
      )`,
      `CREATE TABLE docent_feedback (
        thread_id text COLLATE "C" NOT NULL,
        message_id text COLLATE "C" NOT NULL,
        rating text NOT NULL,
        comment json,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (thread_id, message_id),
        FOREIGN KEY (thread_id, message_id) REFERENCES docent_messages (thread_id, id) ON DELETE CASCADE
      )`,
    ],
  },
  {
    version: 2,
    name: 'rate limits admit atomically',
    statements: [
      // Check every counter, then count in all or none: one statement per request, exact across instances. Rows are
      // locked in key order (no deadlock between requests sharing counters); a refused request writes nothing, so a
      // client hammering past its limit costs reads, not row versions.
      `CREATE OR REPLACE FUNCTION docent_admit(keys text[], limits integer[], expires timestamptz[], at timestamptz)
       RETURNS TABLE (admitted boolean, counts integer[]) LANGUAGE plpgsql AS $$
       DECLARE
         current integer[] := array_fill(0, ARRAY[cardinality(keys)]);
         ok boolean := true;
         i integer;
         found_value integer;
         found_expiry timestamptz;
       BEGIN
         FOR i IN SELECT k.n FROM unnest(keys) WITH ORDINALITY AS k(name, n) ORDER BY k.name COLLATE "C" LOOP
           LOOP
             SELECT c.value, c.expires_at INTO found_value, found_expiry FROM docent_counters c WHERE c.key = keys[i] FOR UPDATE;
             EXIT WHEN FOUND;
             INSERT INTO docent_counters (key, value, expires_at) VALUES (keys[i], 0, expires[i]) ON CONFLICT (key) DO NOTHING;
           END LOOP;
           current[i] := CASE WHEN found_expiry < at THEN 0 ELSE found_value END;
           IF current[i] >= limits[i] THEN ok := false; END IF;
         END LOOP;
         IF ok THEN
           FOR i IN 1..cardinality(keys) LOOP
             current[i] := current[i] + 1;
             UPDATE docent_counters c SET value = current[i],
               expires_at = CASE WHEN c.expires_at < at THEN expires[i] ELSE c.expires_at END
             WHERE c.key = keys[i];
           END LOOP;
         END IF;
         RETURN QUERY SELECT ok, current;
       END $$`,
    ],
  },
  {
    version: 3,
    name: 'analytics: turns, searches, clicks, gap signals, gaps; feedback ids and review status',
    statements: [
      `CREATE TABLE docent_turns (
        id text COLLATE "C" PRIMARY KEY,
        project_id text NOT NULL,
        thread_id text COLLATE "C" NOT NULL,
        asked_at timestamptz NOT NULL,
        query json NOT NULL,
        search_query json NOT NULL,
        response json NOT NULL,
        sources json NOT NULL,
        resolution text NOT NULL,
        category json,
        page_path json,
        page_url json,
        caller text NOT NULL,
        fp json NOT NULL,
        model text NOT NULL,
        first_token_ms integer,
        total_ms integer NOT NULL
      )`,
      `CREATE INDEX docent_turns_range ON docent_turns (project_id, asked_at DESC, id DESC)`,
      `CREATE INDEX docent_turns_age ON docent_turns (asked_at)`,
      // Queries and paths are normalized before they are stored (no control characters), so they can be text and grouped.
      `CREATE TABLE docent_searches (
        id text COLLATE "C" PRIMARY KEY,
        project_id text NOT NULL,
        at timestamptz NOT NULL,
        query text COLLATE "C" NOT NULL,
        result_count integer,
        top_score double precision,
        caller text NOT NULL,
        origin text NOT NULL
      )`,
      `CREATE INDEX docent_searches_range ON docent_searches (project_id, at)`,
      `CREATE INDEX docent_searches_age ON docent_searches (at)`,
      `CREATE TABLE docent_clicks (
        id text COLLATE "C" PRIMARY KEY,
        project_id text NOT NULL,
        at timestamptz NOT NULL,
        kind text NOT NULL,
        query text COLLATE "C",
        path text COLLATE "C" NOT NULL,
        position integer,
        thread_id text,
        message_id text
      )`,
      `CREATE INDEX docent_clicks_range ON docent_clicks (project_id, at)`,
      `CREATE INDEX docent_clicks_age ON docent_clicks (at)`,
      `CREATE TABLE docent_gap_signals (
        id text COLLATE "C" PRIMARY KEY,
        project_id text NOT NULL,
        at timestamptz NOT NULL,
        kind text NOT NULL,
        query json NOT NULL,
        terms json NOT NULL,
        sections json NOT NULL,
        page_url json,
        gap_id text COLLATE "C"
      )`,
      `CREATE INDEX docent_gap_signals_range ON docent_gap_signals (project_id, at)`,
      `CREATE INDEX docent_gap_signals_gap ON docent_gap_signals (gap_id, at DESC, id DESC)`,
      `CREATE INDEX docent_gap_signals_unassigned ON docent_gap_signals (project_id, at, id) WHERE gap_id IS NULL`,
      `CREATE INDEX docent_gap_signals_age ON docent_gap_signals (at)`,
      `CREATE TABLE docent_gaps (
        id text COLLATE "C" PRIMARY KEY,
        project_id text NOT NULL,
        title json NOT NULL,
        status text NOT NULL,
        reason json,
        job_id text,
        terms json NOT NULL,
        sections json NOT NULL,
        member_count integer NOT NULL,
        merge json,
        verified_at timestamptz,
        first_seen_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX docent_gaps_seen ON docent_gaps (project_id, last_seen_at DESC, id DESC)`,
      // Feedback gets an id (for review), a review status, and its project (for date-range lists without a join).
      `ALTER TABLE docent_feedback ADD COLUMN id text COLLATE "C"`,
      `ALTER TABLE docent_feedback ADD COLUMN status text NOT NULL DEFAULT 'pending'`,
      `ALTER TABLE docent_feedback ADD COLUMN project_id text`,
      `UPDATE docent_feedback f SET id = 'fb_' || md5(f.thread_id || ':' || f.message_id), project_id = t.project_id
       FROM docent_threads t WHERE t.id = f.thread_id`,
      `ALTER TABLE docent_feedback ALTER COLUMN id SET DEFAULT ('fb_' || replace(gen_random_uuid()::text, '-', ''))`,
      `ALTER TABLE docent_feedback ALTER COLUMN id SET NOT NULL`,
      `CREATE UNIQUE INDEX docent_feedback_id ON docent_feedback (id)`,
      `CREATE INDEX docent_feedback_range ON docent_feedback (project_id, created_at DESC, id DESC)`,
    ],
  },
  {
    version: 4,
    name: 'key scopes and console sessions',
    statements: [
      `ALTER TABLE docent_keys ADD COLUMN scope text NOT NULL DEFAULT 'write'`,
      `CREATE TABLE docent_sessions (
        hash text COLLATE "C" PRIMARY KEY,
        key_id text NOT NULL,
        key_hash text NOT NULL,
        organization text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
      `CREATE INDEX docent_sessions_expiry ON docent_sessions (expires_at)`,
    ],
  },
  {
    // The next free number when written; the analytics branch may take the same one (renumbered at merge).
    version: 5,
    name: 'automations, their runs, and code changes from webhooks',
    statements: [
      `CREATE TABLE docent_automations (
        project_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        kind text NOT NULL,
        name json NOT NULL,
        enabled boolean NOT NULL,
        trigger json NOT NULL,
        mode text NOT NULL,
        instructions json,
        languages json NOT NULL,
        prompt json,
        schedule_from timestamptz,
        last_slot timestamptz,
        content_revision text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, id)
      )`,
      // The unique key is the once-only claim of a trigger (a schedule slot, a docs revision, a merged change).
      `CREATE TABLE docent_automation_runs (
        id text COLLATE "C" PRIMARY KEY,
        project_id text COLLATE "C" NOT NULL,
        automation_id text COLLATE "C" NOT NULL,
        key text COLLATE "C" NOT NULL,
        reason text NOT NULL,
        started_at timestamptz NOT NULL,
        job_id text COLLATE "C" NOT NULL,
        status text NOT NULL,
        pr_link text,
        note json,
        base_commit text,
        context json NOT NULL,
        UNIQUE (project_id, automation_id, key)
      )`,
      `CREATE INDEX docent_automation_runs_page ON docent_automation_runs (project_id, automation_id, started_at DESC, id DESC)`,
      `CREATE TABLE docent_code_changes (
        project_id text COLLATE "C" NOT NULL,
        repository text COLLATE "C" NOT NULL,
        kind text NOT NULL,
        ref text COLLATE "C" NOT NULL,
        title json NOT NULL,
        body json,
        labels json NOT NULL,
        url text,
        commit_id text,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, repository, kind, ref)
      )`,
      `CREATE INDEX docent_code_changes_window ON docent_code_changes (project_id, received_at)`,
    ],
  },
  {
    version: 6,
    name: 'analytics summary: turns counted from an index',
    statements: [
      // The summary of a range (GET /v1/analytics/{projectId}/assistant/summary) reads only these columns: with them
      // in the index, the count is an index-only scan where the table is vacuumed, not a read of every answer's text.
      `CREATE INDEX docent_turns_summary ON docent_turns (project_id, asked_at) INCLUDE (resolution, category)`,
    ],
  },
]

/** Arbitrary but fixed: the advisory lock that serializes migrations across every instance sharing the database. */
const MIGRATION_LOCK = 7_462_301_119

/**
 * Brings the schema up to date. One transaction holding a transaction-scoped advisory lock, so instances that start
 * together wait for each other and each migration runs once; DDL in Postgres is transactional, so a failed migration
 * leaves nothing half done. Returns the versions this call applied.
 */
export async function migrate(client: SqlClient): Promise<number[]> {
  return client.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`)
    await tx.query(`CREATE TABLE IF NOT EXISTS docent_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const done = new Set((await tx.query<{ version: number }>(`SELECT version FROM docent_migrations`)).map((row) => row.version))
    const applied: number[] = []
    for (const migration of migrations) {
      if (done.has(migration.version)) continue
      for (const statement of migration.statements) await tx.query(statement)
      await tx.query(`INSERT INTO docent_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name])
      applied.push(migration.version)
    }
    return applied
  })
}
