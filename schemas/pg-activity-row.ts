// The `pg_activity` and `pg_wait_samples` rows (queries/ddl/048_pg_activity.sql); filling them from one PgActivitySample
// is ingest/source/pg-activity/pg-activity-rows.ts. schemas/ddl-agreement.test.ts holds these layouts and the DDL in
// step. Column names follow pg_lock_waits (`user`, `database`, `application`) so that both PostgreSQL tables join to
// tj_events alike.
import type { z } from 'zod';
import { col, tableLayout } from './columns.js';

const lc = col.lowCardinality;
const u32 = col.uint32;
const optTime = () => col.nullable(col.dateTime64(3));

export const PG_ACTIVITY = tableLayout('pg_activity', {
  /** The server's clock at the sample. */
  ts: col.dateTime64(3),
  host: lc(),
  /** `host:port/db` sampled. */
  server: lc(),
  /** The interval one sample stands for, ms: a wait seen in n samples lasted about n × interval_ms. */
  interval_ms: u32(),
  pid: u32(),
  database: lc(),
  user: lc(),
  application: lc(),
  client_addr: lc(),
  backend_type: lc(),
  state: lc(),
  wait_event_type: lc(),
  wait_event: lc(),
  xact_start: optTime(),
  query_start: optTime(),
  state_change: optTime(),
  backend_xid: col.nullable(u32()),
  query_id: col.string(),
  query: col.string(),
  blocking_pids: col.array(u32()),
});
export const PgActivityRowSchema = PG_ACTIVITY.schema;
export type PgActivityRow = z.infer<typeof PgActivityRowSchema>;

export const PG_WAIT_SAMPLES = tableLayout('pg_wait_samples', {
  ts: col.dateTime64(6),
  host: lc(),
  server: lc(),
  /** pg_wait_sampling.history_period: what one row stands for, ms. */
  period_ms: u32(),
  pid: u32(),
  wait_event_type: lc(),
  wait_event: lc(),
  query_id: col.string(),
});
export const PgWaitSampleRowSchema = PG_WAIT_SAMPLES.schema;
export type PgWaitSampleRow = z.infer<typeof PgWaitSampleRowSchema>;
