// `report pg-waits` for people: the wait profile, then the blocked episodes, as aligned tables or CSV sections.
import type { PgWaitsReport } from '../../queries/reports/pg-waits-report.js';
import { rowsCsv, rowsTable } from './rows-output.js';

export function pgWaitsText(r: PgWaitsReport, format: 'table' | 'csv'): string {
  const blocked = r.blocked.map((b) => ({
    first_seen: b.first_seen, seconds: b.seconds, samples: b.samples, wait: `${b.wait_event_type}/${b.wait_event}`,
    pid: b.pid, waiter_1c: `${b.waiter_1c_user} ${b.waiter_context}`.trim(), query: b.query,
    holder_pid: b.holder_pid, holder_state: b.holder_state, holder_1c: `${b.holder_1c_user} ${b.holder_context}`.trim(), holder_query: b.holder_query,
  }));
  const sections: Array<[string, Record<string, unknown>[]]> = [['wait events (pg_activity samples)', r.wait_events as unknown as Record<string, unknown>[]]];
  if (r.wait_sampling.length > 0) sections.push(['wait events (pg_wait_sampling history)', r.wait_sampling as unknown as Record<string, unknown>[]]);
  sections.push(['blocked backends, longest first', blocked]);
  if (format === 'csv') return sections.map(([title, rows]) => `# ${title}\n${rowsCsv(rows)}`).join('\n');
  return sections.map(([title, rows]) => `${title}\n${rowsTable(rows)}`).join('\n');
}
