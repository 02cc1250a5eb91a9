// `report pg-waits` as data: PostgreSQL's wait profile (pg_activity samples, and pg_wait_sampling's finer history
// when it ran) and the longest blocked episodes with both sides' pid, query and 1C user and context. The CLI's text
// forms and the HTML section both read this one document.
import type { ReportParams } from './report-rows.js';

type Row = Record<string, unknown>;
type WindowRows = (name: string, extra?: ReportParams) => Promise<Row[]>;

export interface PgWaitEvent { wait_event_type: string; wait_event: string; samples: number; seconds: number }

export interface PgBlockedEpisode {
  first_seen: string; last_seen: string; samples: number; seconds: number; host: string;
  pid: number; wait_event_type: string; wait_event: string; database: string; pg_user: string; application: string; query: string;
  holder_pids: number[]; holder_pid: number; holder_state: string; holder_query: string; holder_application: string;
  waiter_infobase: string; waiter_1c_user: string; waiter_connect_id: string; waiter_context: string;
  holder_1c_user: string; holder_connect_id: string; holder_context: string;
  /** How far the sides are worked out (docs/tj-format.md §5.5): pending, partial, settled or complete. */
  status: string;
}

export interface PgWaitsReport {
  wait_events: PgWaitEvent[];
  blocked: PgBlockedEpisode[];
  /** The profile from pg_wait_sampling's history; empty when the extension did not run. */
  wait_sampling: PgWaitEvent[];
}

/** Wait events listed, and blocked episodes (longest first). */
export const PG_WAITS_LIMIT = 1000;

const n = (v: unknown): number => Number(v ?? 0);
const s = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const event = (r: Row): PgWaitEvent => ({ wait_event_type: s(r.wait_event_type), wait_event: s(r.wait_event), samples: n(r.samples), seconds: n(r.seconds) });

export async function fetchPgWaitsReport(rows: WindowRows, limit = PG_WAITS_LIMIT): Promise<PgWaitsReport> {
  const waitEvents = (await rows('pg-wait-events', { limit })).map(event);
  const waitSampling = (await rows('pg-wait-sampling-events', { limit })).map(event);
  const blocked = (await rows('pg-blocked-episodes', { limit })).map((r): PgBlockedEpisode => ({
    first_seen: s(r.first_seen), last_seen: s(r.last_seen), samples: n(r.samples), seconds: n(r.seconds), host: s(r.host),
    pid: n(r.pid), wait_event_type: s(r.wait_event_type), wait_event: s(r.wait_event), database: s(r.database),
    pg_user: s(r.pg_user), application: s(r.application), query: s(r.query),
    holder_pids: Array.isArray(r.holder_pids) ? r.holder_pids.map(Number) : [], holder_pid: n(r.holder_pid),
    holder_state: s(r.holder_state), holder_query: s(r.holder_query), holder_application: s(r.holder_application),
    waiter_infobase: s(r.waiter_infobase), waiter_1c_user: s(r.waiter_1c_user), waiter_connect_id: s(r.waiter_connect_id),
    waiter_context: s(r.waiter_context), holder_1c_user: s(r.holder_1c_user), holder_connect_id: s(r.holder_connect_id),
    holder_context: s(r.holder_context), status: s(r.status),
  }));
  return { wait_events: waitEvents, blocked, wait_sampling: waitSampling };
}
