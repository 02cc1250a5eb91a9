// One sample of a PostgreSQL server's activity, as the `pg_activity` source read it in one round trip
// (ingest/source/pg-activity/sample-query.ts): every backend that was not idle, with the pids blocking it, and the
// pg_wait_sampling history rows new since the last sample when that extension is installed. Times are Unix ms (UTC).
import { z } from 'zod';

const Ms = z.number().nonnegative();

export const PgActivityBackendSchema = z.strictObject({
  pid: z.number().int().nonnegative(),
  datname: z.string(),
  usename: z.string(),
  application_name: z.string(),
  client_addr: z.string(),
  backend_type: z.string(),
  /** `active`, `idle in transaction`, … ('' for background processes, which have none). */
  state: z.string(),
  wait_event_type: z.string(),
  wait_event: z.string(),
  xact_start_ms: Ms.nullable(),
  query_start_ms: Ms.nullable(),
  state_change_ms: Ms.nullable(),
  backend_xid: z.number().int().nonnegative().nullable(),
  /** pg_stat_activity.query_id (PostgreSQL 14+ with compute_query_id), as decimal text; '' when absent. */
  query_id: z.string(),
  /** The query text as the server keeps it (track_activity_query_size bytes at most). */
  query: z.string(),
  /** pg_blocking_pids(pid) for a backend waiting on a heavyweight lock; empty otherwise. */
  blocking_pids: z.array(z.number().int().nonnegative()),
});
export type PgActivityBackend = z.infer<typeof PgActivityBackendSchema>;

/** A row of pg_wait_sampling_history: one 10 ms (history_period) observation of one backend. */
export const PgWaitSampleSchema = z.strictObject({
  /** `YYYY-MM-DD hh:mm:ss.ffffff`, UTC. */
  ts: z.string(),
  pid: z.number().int().nonnegative(),
  event_type: z.string(),
  event: z.string(),
  query_id: z.string(),
});
export type PgWaitSample = z.infer<typeof PgWaitSampleSchema>;

export const PgActivitySampleSchema = z.strictObject({
  host: z.string(),
  /** `host:port/db` of the server sampled (never the password). */
  server: z.string(),
  /** Server clock at the sample (clock_timestamp()), Unix ms. */
  sampled_at_ms: Ms,
  /** The interval this sample stands for, ms: what one sample of a wait counts as in estimated seconds. */
  interval_ms: z.number().int().positive(),
  /** How long the round trip took, ms (the sampler's own cost, as the client saw it). */
  duration_ms: Ms,
  backends: z.array(PgActivityBackendSchema),
  /** pg_wait_sampling.history_period, ms: what one of `wait_samples` stands for (0 without the extension). */
  wait_period_ms: z.number().int().nonnegative(),
  wait_samples: z.array(PgWaitSampleSchema),
});
export type PgActivitySample = z.infer<typeof PgActivitySampleSchema>;
