// One row of `pg_blocked_sides` (queries/ddl/053_pg_blocked_episodes.sql): a backend's blocked episode as pg_activity
// sampled it, with what the lock resolver (ingest/locks/) decided once: the first holder's state and query at the
// episode's first sample and the 1C sides of waiter and holder (docs/tj-format.md §5.5). Written as JSON.
// schemas/ddl-agreement.test.ts holds this schema and the DDL in step.
import { z } from 'zod';
import { episodeStatus, u64 } from './tj-lock-episode-row.js';

const dt64ms = z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
const flag = z.number().int().min(0).max(1);

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
export type PgBlockedSidesRow = z.infer<typeof PgBlockedSidesRowSchema>;
