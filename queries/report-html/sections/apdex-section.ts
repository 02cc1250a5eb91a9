// The APDEX section: per key operation and minute as lines over the rating bands, then the window's totals per
// operation (apdex.sql, the numbers of `report apdex`). Worst operation first in legend and table.
import { apdexKey, type ApdexSection, type ReportPage } from '../report-page.js';
import { esc, fmt, table } from '../html.js';
import { MEANING, seriesColor, seriesRepeats } from '../palette.js';
import { timeChart, type Band, type TimeSeries } from '../time-chart.js';
import { bucketName, MINUTE_S } from '../chart-bucket.js';
import type { ApdexOperation, ApdexOverall } from '../../reports/apdex-report.js';

/** docs/apdex.md §1 bands, the ones apdex.sql names. */
export const APDEX_BANDS: Band[] = [
  { from: 0.94, to: 1, color: '#e7f4e8', label: 'Excellent' },
  { from: 0.85, to: 0.94, color: '#f1f8e6', label: 'Good' },
  { from: 0.7, to: 0.85, color: '#fdf9e3', label: 'Fair' },
  { from: 0.5, to: 0.7, color: '#fdf0e1', label: 'Poor' },
  { from: 0, to: 0.5, color: '#fbe9ea', label: 'Unacceptable' },
];

export const OVERALL_SERIES = 'All operations (count-weighted)';

export const rating = (name: string): string => (name === '' ? '' : `<span class="rating r-${esc(name.toLowerCase())}">${esc(name)}</span>`);

export function apdexSection(a: ApdexSection, page: ReportPage): string {
  const order = a.report.operations.map((o) => apdexKey(o.operation, o.source));
  for (const m of a.minutes) {
    const key = apdexKey(m.operation, m.source);
    if (m.scope === 'operation' && !order.includes(key)) order.push(key);
  }
  const series: TimeSeries[] = order.map((key) => ({
    name: key, points: a.minutes.filter((m) => m.scope === 'operation' && apdexKey(m.operation, m.source) === key).map((m) => ({ t: m.t, v: m.apdex })),
  })).filter((s) => s.points.length > 0).map((s, i) => ({ ...s, color: seriesColor(i), dashed: seriesRepeats(i) }));
  const overall = a.minutes.filter((m) => m.scope === 'overall_count_weighted').map((m) => ({ t: m.t, v: m.apdex }));
  if (overall.length > 0) series.push({ name: OVERALL_SERIES, color: MEANING.total, strong: true, points: overall });
  const bucket = page.bucket ?? MINUTE_S;
  const chart = timeChart({
    id: 'apdex-minutes', title: `APDEX per key operation, per ${bucketName(bucket)}`, kind: 'lines', series, domain: page.domain, bucket, timeZone: page.timeZone,
    yTitle: 'APDEX', yMax: 1, bands: APDEX_BANDS, digits: 3,
    note: `APDEX = (satisfied + tolerating/2) / all runs of the ${bucketName(bucket)}; satisfied ≤ T, tolerating ≤ 4T, T per operation. Background: rating bands.${a.minutesCut ? ' Only the first day of the window is drawn.' : ''}`,
  });
  type Line = { op: ApdexOperation | null; all: ApdexOverall | null; label: string };
  const lines: Line[] = [
    ...a.report.operations.map((op) => ({ op, all: null, label: apdexKey(op.operation, op.source) })),
    ...[a.report.overall.count_weighted, a.report.overall.priority_weighted].filter((x): x is ApdexOverall => x !== null).map((all) => ({ op: null, all, label: all.label })),
  ];
  const totals = table<Line>('apdex-operations', [
    { head: 'Key operation', cell: (l) => (l.all ? `<strong>${esc(l.label)}</strong>` : esc(l.label)) },
    { head: 'T, s', numeric: true, cell: (l) => esc(fmt(l.op?.target_s ?? null)) },
    { head: 'Runs', numeric: true, cell: (l) => esc(fmt(l.op?.n ?? l.all?.n ?? null, 0)) },
    { head: 'Satisfied', numeric: true, cell: (l) => esc(fmt(l.op?.satisfied ?? l.all?.satisfied ?? null, 0)) },
    { head: 'Tolerating', numeric: true, cell: (l) => esc(fmt(l.op?.tolerating ?? l.all?.tolerating ?? null, 0)) },
    { head: 'Frustrated', numeric: true, cell: (l) => esc(fmt(l.op?.frustrated ?? l.all?.frustrated ?? null, 0)) },
    { head: 'APDEX', numeric: true, cell: (l) => `<strong>${esc(fmt(l.op?.apdex ?? l.all?.apdex ?? null))}</strong>` },
    { head: 'Rating', cell: (l) => rating(l.all ? l.all.rating : (a.ratings[l.label] ?? '')) },
  ], lines);
  return `<section id="apdex"><h2>APDEX of key operations</h2>
${chart}
<h3>Whole window</h3>
${a.report.operations.length === 0 ? '<p class="empty">No APDEX measurements in this window.</p>' : totals}
</section>`;
}
