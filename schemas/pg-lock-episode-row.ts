// One row of `pg_lock_episodes` (queries/ddl/052_pg_lock_episodes.sql): a PostgreSQL lock wait with the 1C sides of
// its waiter and holder decided (docs/tj-format.md §5.5). Written as JSON by the lock resolver (ingest/locks/).
// schemas/ddl-agreement.test.ts holds this schema and the DDL in step.
import { z } from 'zod';
import { episodeStatus, u64 } from './tj-lock-episode-row.js';

/** ClickHouse DateTime64(3) text `YYYY-MM-DD hh:mm:ss.mmm` (UTC). */
const dt64ms = z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
const flag = z.number().int().min(0).max(1);

export const PgLockEpisodeRowSchema = z.strictObject({
  ts_end: dt64ms,
  file_key: z.string(),
  file_offset: z.number().int().nonnegative(),
  ts_start: dt64ms,
  pid: z.number().int().nonnegative(),
  mode: z.string(),
  object: z.string(),
  outcome: z.string(),
  wait_ms: z.number().nullable(),
  holder_pids: z.array(z.number().int().nonnegative()),
  queue_pids: z.array(z.number().int().nonnegative()),
  statement: z.string(),
  user: z.string(),
  database: z.string(),
  application: z.string(),
  host: z.string(),
  status: episodeStatus,
  waiter_found: flag,
  waiter_infobase: z.string(),
  waiter_user: z.string(),
  waiter_connect_id: u64,
  waiter_context: z.string(),
  holder_found: flag,
  holder_user: z.string(),
  holder_connect_id: u64,
  holder_context: z.string(),
  version: z.number().int().nonnegative(),
});
export type PgLockEpisodeRow = z.infer<typeof PgLockEpisodeRowSchema>;
