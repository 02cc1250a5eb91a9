// A `pg_activity` segment's rows: one sample (pg-activity-source.ts) becomes its backends' pg_activity rows and
// its pg_wait_sampling history rows, a function of the sample alone, so a redelivered sample carries the same rows.
import type { PgActivitySample } from '../../../schemas/pg-activity-sample.js';
import { PG_ACTIVITY, PG_WAIT_SAMPLES, type PgActivityRow, type PgWaitSampleRow } from '../../../schemas/pg-activity-row.js';
import type { RowBuilder } from '../../rows/row-builder.js';
import { rowsAsRecordsCome, TableWriter } from '../../rows/table-writer.js';

export function createPgActivityRowBuilder(): RowBuilder {
  const activity = new TableWriter(PG_ACTIVITY, 16 * 1024);
  const waits = new TableWriter(PG_WAIT_SAMPLES, 4096);
  return rowsAsRecordsCome([activity, waits], (s: PgActivitySample) => {
    for (const row of pgActivityRows(s)) activity.write(row);
    for (const row of pgWaitSampleRows(s)) waits.write(row);
  });
}

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
