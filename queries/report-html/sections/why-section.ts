// The "Where the time went" section (`report why`): per operation one stacked bar of its calls' wall time — DB, lock
// waits, CPU, thread wait, other — and a table with its APDEX, the statement with the most time inside its calls,
// its slowest call, the PostgreSQL wait its backends were seen in most and the host's busy % in its minutes.
import type { ReportPage } from '../report-page.js';
import type { WhyOperation, WhyReport } from '../../reports/why-report.js';
import { barChart } from '../bar-chart.js';
import { clip, esc, fmt, table } from '../html.js';
import { seriesColor } from '../palette.js';
import { statementLabel } from './sql-section.js';

const PARTS = [
  ['DB', 'db_seconds'], ['lock wait', 'lock_wait_seconds'], ['CPU', 'cpu_seconds'], ['thread wait', 'thread_wait_seconds'], ['other', 'other_seconds'],
] as const;

const share = (o: WhyOperation, part: number): string => (o.seconds === 0 ? '' : `${fmt((part / o.seconds) * 100, 0)} %`);

export function whySection(r: WhyReport, _page: ReportPage): string {
  const chart = r.operations.length === 0 ? '' : barChart({
    id: 'why-split', title: 'Wall time of the server calls per operation, s', unit: 's', digits: 3, stacked: true,
    series: PARTS.map(([name], i) => ({ name, color: seriesColor(i) })),
    rows: r.operations.map((o) => ({ label: o.operation || '(no context)', values: PARTS.map(([, key]) => o[key]), hint: `${o.calls} calls` })),
    note: 'Each call\'s DB statements and lock waits are those of its thread inside its time; CPU and thread wait are its CpuTime and callWait; other is the rest.',
  });
  const rows = table<WhyOperation>('why-operations', [
    { head: 'Operation', cell: (o) => `<span class="ctx" title="${esc(o.operation)}">${esc(clip(o.operation || '(no context)', 70))}</span>` },
    { head: 'Calls', numeric: true, cell: (o) => esc(fmt(o.calls, 0)) },
    { head: 'APDEX', numeric: true, cell: (o) => (o.apdex === null ? '<span class="muted">no T</span>' : esc(fmt(o.apdex, 3))) },
    { head: 'Time, s', numeric: true, cell: (o) => `<strong>${esc(fmt(o.seconds))}</strong>` },
    ...PARTS.map(([name, key]) => ({ head: name, numeric: true, cell: (o: WhyOperation) => esc(share(o, o[key])) })),
    { head: 'Top statement', cell: (o) => (o.top_sql[0] === undefined ? '' : `<code title="${esc(o.top_sql[0].sql)}">${esc(clip(statementLabel(o.top_sql[0].sql), 90))}</code> <span class="muted">(${esc(fmt(o.top_sql[0].seconds))} s)</span>`) },
    { head: 'Slowest call', cell: (o) => (o.slowest_calls[0] === undefined ? '' : `${esc(fmt(o.slowest_calls[0].seconds))} s <span class="muted">${esc(o.slowest_calls[0].user)} · ${esc(o.slowest_calls[0].ts)}</span>`) },
    { head: 'PostgreSQL wait', cell: (o) => (o.pg_wait_events[0] === undefined ? '' : `${esc(o.pg_wait_events[0].wait_event_type)}/${esc(o.pg_wait_events[0].wait_event)} <span class="muted">(${esc(fmt(o.pg_wait_events[0].samples, 0))})</span>`) },
    { head: 'CPU / disk busy', cell: (o) => (o.host.cpu_busy_pct === null && o.host.disk_busy_pct === null ? '' : `${esc(fmt(o.host.cpu_busy_pct, 0))} % / ${esc(fmt(o.host.disk_busy_pct, 0))} %`) },
  ], r.operations);
  const notes = r.notes.length === 0 ? '' : `<ul class="notes">${r.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`;
  return `<section id="why"><h2>Where the time went</h2>
${chart}
${r.operations.length === 0 ? '<p class="empty">No server calls in this window.</p>' : rows}
${notes}
</section>`;
}
