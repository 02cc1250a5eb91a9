// `perfpipe report runs` output: the run history (queries/reports/run-history.ts) as the JSON document scripts read, or
// a table and CSV for people. Every value comes from the history; this only lays it out.
import type { RunHistoryRow } from '../../queries/reports/run-history.js';
import { rowsCsv, rowsTable } from './rows-output.js';

export function runHistoryJson(runs: readonly RunHistoryRow[]): string {
  return `${JSON.stringify({ runs })}\n`;
}

export function runHistoryCsv(runs: readonly RunHistoryRow[]): string {
  return runs.length === 0 ? '' : rowsCsv(runs.map((r) => ({ ...r })));
}

/** `2026-11-30T10:00:00.000Z` → `2026-11-30 10:00:00`: the table is read by people, who know the store is in UTC. */
const short = (iso: string | null): string => (iso === null ? '(running)' : iso.replace('T', ' ').replace(/\.\d+Z$/, ''));

/** Short headers, so a line of 31 runs' history fits a terminal; the JSON and CSV keep the full names. */
export function runHistoryTable(runs: readonly RunHistoryRow[]): string {
  if (runs.length === 0) return 'no runs; start one with perfpipe runs start NAME\n';
  return rowsTable(runs.map((r) => ({
    run: r.name,
    'started (UTC)': short(r.started_at),
    'stopped (UTC)': short(r.stopped_at),
    APDEX: r.apdex ?? '—',
    'Δ APDEX': r.apdex_delta ?? '—',
    'by priority': r.apdex_priority_weighted ?? '—',
    rating: r.rating,
    'worst operation': r.worst_operation ?? '—',
    worst: r.worst_apdex ?? '—',
    'lock waits': r.tj_lock_waits,
    timeouts: r.tj_timeouts,
    deadlocks: r.tj_deadlocks,
    'pg waits': r.pg_lock_waits,
    // Since the previous run, then inside this one: what a DBA changed beside the APDEX change.
    changes: [...r.changes.map((c) => `${c.name} ${c.a ?? '?'}→${c.b ?? '?'}`), ...r.changes_during.map((c) => `${c.name} →${c.b} at ${c.at.slice(11, 19)}`)].join('; ') || '—',
  })));
}
