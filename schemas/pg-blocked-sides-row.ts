// One row of `pg_blocked_sides` (queries/ddl/053_pg_blocked_episodes.sql): a backend's blocked episode as pg_activity
// sampled it, with what the lock resolver (ingest/locks/) decided once: the first holder's state and query at the
// episode's first sample and the 1C sides of waiter and holder (docs/tj-format.md §5.5). Written as JSON.
// schemas/ddl-agreement.test.ts holds this schema and the DDL in step.
import { z } from 'zod';
import { episodeStatus } from './tj-lock-episode-row.js';
import { dt64ms, PG_ONE_C_SIDES } from './pg-one-c-sides.js';

export const PgBlockedSidesRowSchema = z.strictObject({
  host: z.string(),
  server: z.string(),
  pid: z.number().int().nonnegative(),
  /** The blocked statement's start; the epoch when pg_activity had none. */
  query_start: dt64ms,
  status: episodeStatus,
  first_seen: dt64ms,
  holder_pid: z.number().int().nonnegative(),
  holder_state: z.string(),
  holder_query: z.string(),
  holder_application: z.string(),
  ...PG_ONE_C_SIDES,
  version: z.number().int().nonnegative(),
});
export type PgBlockedSidesRow = z.infer<typeof PgBlockedSidesRowSchema>;
