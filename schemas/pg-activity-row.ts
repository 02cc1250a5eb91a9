// The `pg_activity` and `pg_wait_samples` rows (queries/ddl/048_pg_activity.sql) and the mapping from one
// PgActivitySample. schemas/ddl-agreement.test.ts holds these layouts and the DDL in step. Column names follow
// pg_lock_waits (`user`, `database`, `application`) so that both PostgreSQL tables join to tj_events alike.
import type { z } from 'zod';
import { col, tableLayout } from './columns.js';
import type { PgActivitySample } from './pg-activity-sample.js';

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

/** Unix ms → `YYYY-MM-DD hh:mm:ss.fff` (UTC). */
export function msToClickhouse(ms: number): string {
  return new Date(Math.round(ms)).toISOString().slice(0, 23).replace('T', ' ');
}
const optMs = (ms: number | null): string | null => (ms === null ? null : msToClickhouse(ms));

export function pgActivityRows(s: PgActivitySample): PgActivityRow[] {
  const ts = msToClickhouse(s.sampled_at_ms);
  return s.backends.map((b) => ({
    ts, host: s.host, server: s.server, interval_ms: s.interval_ms, pid: b.pid, database: b.datname, user: b.usename,
    application: b.application_name, client_addr: b.client_addr, backend_type: b.backend_type, state: b.state,
    wait_event_type: b.wait_event_type, wait_event: b.wait_event, xact_start: optMs(b.xact_start_ms),
    query_start: optMs(b.query_start_ms), state_change: optMs(b.state_change_ms), backend_xid: b.backend_xid,
    query_id: b.query_id, query: b.query, blocking_pids: b.blocking_pids,
  }));
}

export function pgWaitSampleRows(s: PgActivitySample): PgWaitSampleRow[] {
  return s.wait_samples.map((w) => ({
    ts: w.ts, host: s.host, server: s.server, period_ms: s.wait_period_ms, pid: w.pid,
    wait_event_type: w.event_type, wait_event: w.event, query_id: w.query_id,
  }));
}
