// The one statement a sample runs, and its rows read into PgActivityBackend / PgWaitSample. Read-only and one round
// trip: the server's clock, every backend that is not idle, and pg_blocking_pids() for those waiting on a
// heavyweight lock, from one SELECT; with pg_wait_sampling installed its new history rows come from a second
// SELECT in the same simple-query message (still one round trip).
import type { PgActivityBackend, PgWaitSample } from '../../../schemas/pg-activity-sample.js';

export interface ServerTraits {
  /** server_version_num, e.g. 150018. */
  version: number;
  /** pg_wait_sampling is installed in the sampled database (its history view exists). */
  waitSampling: boolean;
}

/**
 * Which backends are stored: not `idle` client backends, and not background processes waiting for work (wait type
 * `Activity`: the checkpointer's, walwriter's, autovacuum launcher's idle loops), which would add a row each per
 * sample and say nothing. pg_blocking_pids() takes the lock manager's partition locks, so it is called only for
 * backends waiting on a heavyweight lock (`Lock`), the only waits it can explain.
 */
export function activitySql(t: ServerTraits): string {
  const epochMs = (c: string) => `extract(epoch FROM ${c}) * 1000`;
  // query_id is PostgreSQL 14+ (NULL unless compute_query_id is on).
  const queryId = t.version >= 140000 ? "coalesce(a.query_id::text, '')" : "''";
  return `SELECT ${epochMs('n.now')}::float8 AS now_ms, a.pid, coalesce(a.datname, '') AS datname,
  coalesce(a.usename, '') AS usename, coalesce(a.application_name, '') AS application_name,
  coalesce(host(a.client_addr), '') AS client_addr, coalesce(a.backend_type, '') AS backend_type,
  coalesce(a.state, '') AS state, coalesce(a.wait_event_type, '') AS wait_event_type, coalesce(a.wait_event, '') AS wait_event,
  (${epochMs('a.xact_start')})::float8 AS xact_start_ms, (${epochMs('a.query_start')})::float8 AS query_start_ms,
  (${epochMs('a.state_change')})::float8 AS state_change_ms, a.backend_xid::text AS backend_xid,
  ${queryId} AS query_id, coalesce(a.query, '') AS query,
  CASE WHEN a.wait_event_type = 'Lock' THEN pg_blocking_pids(a.pid) ELSE '{}'::int[] END AS blocking_pids
FROM (SELECT clock_timestamp() AS now) AS n
LEFT JOIN pg_stat_activity AS a
  ON a.pid <> pg_backend_pid() AND coalesce(a.state, '') <> 'idle' AND coalesce(a.wait_event_type, '') <> 'Activity'`;
}

const TS = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/;

/**
 * pg_wait_sampling history rows newer than `after` (UTC text, µs; the server's time at connect for the first read,
 * so a restart of perfpipe never stores a row twice), its own backend and idle background loops left out. The
 * history is a ring of history_size rows (5000 by default): sampled every second it keeps up with about 50 busy
 * backends at the default 10 ms period; beyond that rows are overwritten before they are read.
 */
export function waitSamplingSql(after: string): string {
  if (!TS.test(after)) throw new Error(`not a timestamp: ${after}`);
  return `SELECT to_char(h.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS ts, h.pid, coalesce(h.event_type, '') AS event_type,
  coalesce(h.event, '') AS event, coalesce(h.queryid::text, '') AS query_id
FROM pg_wait_sampling_history AS h
WHERE h.ts > '${after}'::timestamp AT TIME ZONE 'UTC' AND h.pid <> pg_backend_pid() AND coalesce(h.event_type, '') <> 'Activity'
ORDER BY h.ts`;
}

/** The statement a sample sends: one SELECT, or two in one simple-query message. */
export function sampleSql(t: ServerTraits, waitAfter: string | null): string {
  return t.waitSampling && waitAfter !== null ? `${activitySql(t)};\n${waitSamplingSql(waitAfter)}` : activitySql(t);
}

type Row = Record<string, unknown>;
const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const msOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

export function readActivity(rows: readonly Row[]): { nowMs: number; backends: PgActivityBackend[] } {
  const nowMs = Number(rows[0]?.now_ms ?? Date.now());
  const backends: PgActivityBackend[] = [];
  for (const r of rows) {
    if (r.pid === null || r.pid === undefined) continue; // the LEFT JOIN's row when nothing was active
    const xid = r.backend_xid === null || r.backend_xid === undefined ? null : Number(r.backend_xid);
    backends.push({
      pid: Number(r.pid), datname: text(r.datname), usename: text(r.usename), application_name: text(r.application_name),
      client_addr: text(r.client_addr), backend_type: text(r.backend_type), state: text(r.state),
      wait_event_type: text(r.wait_event_type), wait_event: text(r.wait_event),
      xact_start_ms: msOrNull(r.xact_start_ms), query_start_ms: msOrNull(r.query_start_ms), state_change_ms: msOrNull(r.state_change_ms),
      backend_xid: xid !== null && Number.isInteger(xid) && xid >= 0 ? xid : null, query_id: text(r.query_id), query: text(r.query),
      blocking_pids: Array.isArray(r.blocking_pids) ? r.blocking_pids.map(Number) : [],
    });
  }
  return { nowMs, backends };
}

export function readWaitSamples(rows: readonly Row[]): PgWaitSample[] {
  return rows.map((r) => ({ ts: text(r.ts), pid: Number(r.pid), event_type: text(r.event_type), event: text(r.event), query_id: text(r.query_id) }));
}
