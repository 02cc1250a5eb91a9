// One row of `pg_lock_episodes` (queries/ddl/052_pg_lock_episodes.sql): a PostgreSQL lock wait with the 1C sides of
// its waiter and holder decided (docs/tj-format.md §5.5). Written as JSON by the lock resolver (ingest/locks/).
// schemas/ddl-agreement.test.ts holds this schema and the DDL in step.
import { z } from 'zod';
import { episodeStatus } from './tj-lock-episode-row.js';
import { dt64ms, PG_ONE_C_SIDES } from './pg-one-c-sides.js';

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
  ...PG_ONE_C_SIDES,
  version: z.number().int().nonnegative(),
});
export type PgLockEpisodeRow = z.infer<typeof PgLockEpisodeRowSchema>;
