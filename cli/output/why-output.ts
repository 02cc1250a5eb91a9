// `report why` for people: one row per operation with its split, then per operation its top statements and slowest
// calls, and the report's notes; as aligned tables or CSV sections.
import type { WhyReport } from '../../queries/reports/why-report.js';
import { rowsCsv, rowsTable } from './rows-output.js';

type Format = 'table' | 'csv';

const pct = (part: number, whole: number): string => (whole === 0 ? '' : `${Math.round((part / whole) * 100)}%`);

export function whyText(r: WhyReport, format: Format): string {
  const section = (title: string, rows: Record<string, unknown>[]): string => (format === 'csv' ? `# ${title}\n${rowsCsv(rows)}` : `${title}\n${rowsTable(rows)}`);
  const parts = [section('where the time of the server calls went, per operation, most time first', r.operations.map((o) => ({
    operation: o.operation, calls: o.calls, apdex: o.apdex ?? '', seconds: o.seconds,
    db: pct(o.db_seconds, o.seconds), lock_wait: pct(o.lock_wait_seconds, o.seconds), cpu: pct(o.cpu_seconds, o.seconds),
    thread_wait: pct(o.thread_wait_seconds, o.seconds), other: pct(o.other_seconds, o.seconds),
    top_wait: o.pg_wait_events[0] === undefined ? '' : `${o.pg_wait_events[0].wait_event_type}/${o.pg_wait_events[0].wait_event}`,
    cpu_busy_pct: o.host.cpu_busy_pct ?? '', disk_busy_pct: o.host.disk_busy_pct ?? '',
  })))];
  for (const o of r.operations) {
    parts.push(section(`${o.operation}: statements with the most time inside its calls`, o.top_sql.map((x) => ({ seconds: x.seconds, count: x.count, sql_hash: x.sql_hash, sql: x.sql.replace(/\s+/g, ' ') }))));
    parts.push(section(`${o.operation}: slowest calls`, o.slowest_calls.map((c) => ({
      ts: c.ts, connect_id: c.connect_id, user: c.user, seconds: c.seconds, db: c.db_seconds, lock_wait: c.lock_wait_seconds, cpu: c.cpu_seconds,
      thread_wait: c.thread_wait_seconds, other: c.other_seconds, flags: c.flags.join(' '),
    }))));
  }
  if (r.notes.length > 0) parts.push(format === 'csv' ? `# notes\n${r.notes.map((n) => `# ${n}`).join('\n')}\n` : `notes\n${r.notes.map((n) => `  ${n}`).join('\n')}\n`);
  return parts.join('\n');
}
