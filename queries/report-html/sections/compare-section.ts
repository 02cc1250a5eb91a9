// Two runs side by side (`report run-compare`): APDEX per key operation as paired bars, the change per operation,
// and the lock trouble of each run.
import type { CompareSection, CompareSide, ReportPage } from '../report-page.js';
import { esc, fmt, table } from '../html.js';
import { seriesColor } from '../palette.js';
import { barChart } from '../bar-chart.js';
import { formatDateMinute } from '../time-format.js';

const LOCK_NAMES: Record<string, string> = {
  tj_lock_waits: '1C managed-lock waits', tj_lock_wait_s: '1C managed-lock wait, s', tj_timeouts: '1C lock timeouts (TTIMEOUT)',
  tj_deadlocks: '1C deadlocks (TDEADLOCK)', pg_lock_waits: 'PostgreSQL lock waits', pg_lock_timeouts: 'PostgreSQL lock timeouts', pg_deadlocks: 'PostgreSQL deadlocks',
};

/** A change shown with its sign and whether it is better: APDEX up is good, time and lock trouble up are bad. */
function change(d: number | null, higherIsBetter: boolean, digits = 3): string {
  if (d === null) return '—';
  if (d === 0) return '0';
  const good = (d > 0) === higherIsBetter;
  return `<span class="${good ? 'better' : 'worse'}">${d > 0 ? '+' : '−'}${esc(fmt(Math.abs(d), digits))}</span>`;
}

export function compareSection(c: CompareSection, page: ReportPage): string {
  const [a, b] = c.runs;
  const side = (o: Record<string, unknown>, run: string): CompareSide => (o[run] as CompareSide | undefined) ?? { apdex: null, avg_s: null, n: 0 };
  const chart = barChart({
    id: 'compare-apdex', title: `APDEX per key operation: ${a} vs ${b}`, unit: '', xMax: 1, digits: 3,
    series: [{ name: a, color: seriesColor(0) }, { name: b, color: seriesColor(1) }],
    rows: c.operations.map((o) => ({ label: o.operation, values: [side(o, a).apdex, side(o, b).apdex] })),
  });
  const ops = table<CompareSection['operations'][number]>('compare-operations', [
    { head: 'Key operation', cell: (o) => esc(o.operation) },
    { head: `APDEX ${a}`, numeric: true, cell: (o) => esc(fmt(side(o, a).apdex)) },
    { head: `APDEX ${b}`, numeric: true, cell: (o) => esc(fmt(side(o, b).apdex)) },
    { head: 'Δ APDEX', numeric: true, cell: (o) => change(o.delta.apdex, true) },
    { head: `Mean, s ${a}`, numeric: true, cell: (o) => esc(fmt(side(o, a).avg_s)) },
    { head: `Mean, s ${b}`, numeric: true, cell: (o) => esc(fmt(side(o, b).avg_s)) },
    { head: 'Δ mean, s', numeric: true, cell: (o) => change(o.delta.avg_s, false) },
    { head: `Runs ${a}`, numeric: true, cell: (o) => esc(fmt(side(o, a).n, 0)) },
    { head: `Runs ${b}`, numeric: true, cell: (o) => esc(fmt(side(o, b).n, 0)) },
  ], c.operations);
  const locks = table<[string, Record<string, number>]>('compare-locks', [
    { head: 'Lock trouble', cell: ([k]) => esc(LOCK_NAMES[k] ?? k) },
    { head: a, numeric: true, cell: ([, v]) => esc(fmt(v[a] ?? 0)) },
    { head: b, numeric: true, cell: ([, v]) => esc(fmt(v[b] ?? 0)) },
    { head: 'Δ', numeric: true, cell: ([, v]) => change(v.delta ?? 0, false) },
  ], Object.entries(c.locks));
  const when = c.runs.map((r, i) => `<li><strong>${esc(r)}</strong>: ${esc(formatDateMinute((c.windows[i]?.from ?? 0) * 1000, page.timeZone))} – ${esc(formatDateMinute((c.windows[i]?.to ?? 0) * 1000, page.timeZone))}</li>`).join('');
  return `<section id="compare"><h2>Run comparison</h2>
<ul class="runs">${when}</ul>
${chart}
${c.operations.length === 0 ? '<p class="empty">No APDEX measurements in either run.</p>' : ops}
<h3>Lock trouble</h3>
${locks}
</section>`;
}
