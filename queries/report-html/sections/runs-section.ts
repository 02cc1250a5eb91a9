// The run history (`report runs`): APDEX of every run, oldest first, against the pass mark, then one table line per
// run with its window, worst key operation and lock trouble.
import type { ReportPage, RunsSection } from '../report-page.js';
import type { RunHistoryRow } from '../../reports/run-history.js';
import { esc, fmt, table } from '../html.js';
import { MEANING, seriesColor } from '../palette.js';
import { runChart } from '../run-chart.js';
import { formatDateMinute } from '../time-format.js';
import { APDEX_BANDS, rating } from './apdex-section.js';

export const COUNT_WEIGHTED = 'All key operations (count-weighted)';
export const PRIORITY_WEIGHTED = '1C overall performance (priority-weighted)';
/** Red of "worse" in the page's stylesheet: below the line fails. */
export const PASS_MARK_COLOR = '#c62828';

export function runsSection(s: RunsSection, page: ReportPage): string {
  const chart = runChart({
    id: 'runs-apdex', title: 'APDEX across runs, oldest first', runs: s.runs.map((r) => r.name), yTitle: 'APDEX', yMax: 1, bands: APDEX_BANDS, digits: 3,
    series: [
      { name: COUNT_WEIGHTED, color: MEANING.total, strong: true, values: s.runs.map((r) => r.apdex) },
      { name: PRIORITY_WEIGHTED, color: seriesColor(0), dashed: true, values: s.runs.map((r) => r.apdex_priority_weighted) },
    ],
    marks: [{ value: s.passMark, label: `pass mark ${fmt(s.passMark)}`, color: PASS_MARK_COLOR }],
    note: 'Each point is report apdex over the run\'s window. A run without APDEX measurements leaves a gap. Background: rating bands.',
  });
  const tz = page.timeZone;
  const when = (iso: string | null): string => `<span class="nowrap">${esc(iso === null ? 'running' : formatDateMinute(Date.parse(iso), tz))}</span>`;
  const below = (v: number | null): string => (v === null ? '—' : v < s.passMark ? `<span class="worse">${esc(fmt(v))}</span>` : esc(fmt(v)));
  const runs = table<RunHistoryRow>('runs', [
    { head: 'Run', cell: (r) => `<strong>${esc(r.name)}</strong>` },
    { head: 'Window', cell: (r) => `${when(r.started_at)} – ${when(r.stopped_at)}` },
    { head: 'APDEX', numeric: true, cell: (r) => below(r.apdex) },
    { head: 'By priority', numeric: true, cell: (r) => below(r.apdex_priority_weighted) },
    { head: 'Rating', cell: (r) => `<span class="nowrap">${rating(r.rating)}</span>` },
    { head: 'Worst key operation', cell: (r) => (r.worst_operation === null ? '—' : `${esc(r.worst_operation)} <span class="muted">${esc(fmt(r.worst_apdex))}</span>`) },
    // Short heads keep the worst operation's column wide enough to read; the note under the table says what they count.
    { head: '1C waits', numeric: true, cell: (r) => esc(fmt(r.tj_lock_waits, 0)) },
    { head: 'Timeouts', numeric: true, cell: (r) => esc(fmt(r.tj_timeouts, 0)) },
    { head: 'Deadlocks', numeric: true, cell: (r) => esc(fmt(r.tj_deadlocks, 0)) },
    { head: 'PG waits', numeric: true, cell: (r) => esc(fmt(r.pg_lock_waits, 0)) },
  ], s.runs);
  return `<section id="runs"><h2>Run history</h2>
${chart}
${s.runs.length === 0 ? '<p class="empty">No runs yet: start one with <code>perfpipe runs start NAME</code>.</p>' : `${runs}
<p class="note">1C waits: managed-lock waits (TLOCK with WaitConnections); timeouts and deadlocks: TTIMEOUT and TDEADLOCK events; PG waits: PostgreSQL lock-wait episodes. APDEX values under the pass mark are red.</p>`}
</section>`;
}
