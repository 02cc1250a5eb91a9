// The PostgreSQL waits section (`report pg-waits`): seconds of waits per minute by wait type, the wait profile by
// event (pg_activity samples, and pg_wait_sampling's when it ran), and the longest blocked episodes with the pid,
// query and 1C user and context of waiter and holder.
import type { PgWaitsSection, ReportPage } from '../report-page.js';
import type { PgBlockedEpisode, PgWaitEvent } from '../../reports/pg-waits-report.js';
import { barChart } from '../bar-chart.js';
import { clip, esc, fmt, table } from '../html.js';
import { seriesColor } from '../palette.js';
import { timeChart } from '../time-chart.js';
import { formatInstant, parseUtc } from '../time-format.js';

const eventLabel = (e: PgWaitEvent): string => (e.wait_event ? `${e.wait_event_type} / ${e.wait_event}` : e.wait_event_type || '(none)');

export function pgWaitsSection(p: PgWaitsSection, page: ReportPage): string {
  const tz = page.timeZone;
  const types = [...new Set(p.minutes.map((m) => m.wait_event_type))];
  const perMinute = timeChart({
    id: 'pg-wait-minutes', title: 'PostgreSQL backends waiting, seconds per minute by wait type', kind: 'stacked-bars', domain: page.domain,
    timeZone: tz, yTitle: 'seconds', digits: 1,
    series: types.map((type, i) => ({ name: type || '(none)', color: seriesColor(i), points: p.minutes.filter((m) => m.wait_event_type === type).map((m) => ({ t: m.t, v: m.seconds })) })),
    note: 'pg_stat_activity sampled every interval: a backend seen waiting in n samples counts n × interval seconds. CPU: active, waiting on nothing.',
  });
  const profile = (id: string, title: string, events: readonly PgWaitEvent[], note: string): string => barChart({
    id, title, unit: 's', digits: 1, note, series: [{ name: 'seconds', color: seriesColor(0) }],
    rows: events.slice(0, 20).map((e) => ({ label: eventLabel(e), values: [e.seconds], hint: `${e.samples} samples` })),
  });
  const side = (user: string, conn: string, context: string): string => (user || context
    ? `${conn && conn !== '0' ? `<span class="conn">${esc(conn)}</span> ` : ''}${esc(user)}${context ? `<br><span class="ctx" title="${esc(context)}">${esc(clip(context, 120))}</span>` : ''}`
    : '<span class="muted">no TJ event</span>');
  const blocked = table<PgBlockedEpisode>('pg-blocked', [
    { head: 'First seen', cell: (e) => esc(formatInstant(parseUtc(e.first_seen), tz)) },
    { head: 'Blocked, s', numeric: true, cell: (e) => `<strong>${esc(fmt(e.seconds))}</strong> <span class="muted">(${e.samples})</span>` },
    { head: 'Wait', cell: (e) => esc(`${e.wait_event_type} / ${e.wait_event}`) },
    { head: 'Waiter (pid, 1C)', cell: (e) => `<span class="conn">${esc(e.pid)}</span> ${side(e.waiter_1c_user, e.waiter_connect_id, e.waiter_context)}<br><code title="${esc(e.query)}">${esc(clip(e.query, 140))}</code>` },
    { head: 'Holder (pid, 1C)', cell: (e) => `<span class="conn">${esc(e.holder_pids.join(' '))}</span> <span class="muted">${esc(e.holder_state)}</span> ${side(e.holder_1c_user, e.holder_connect_id, e.holder_context)}<br><code title="${esc(e.holder_query)}">${esc(clip(e.holder_query, 140))}</code>` },
  ], p.report.blocked);
  const sampling = p.report.wait_sampling.length > 0
    ? profile('pg-wait-sampling-profile', 'Wait events by pg_wait_sampling, seconds', p.report.wait_sampling, 'From the extension\'s history: one observation per history_period (10 ms by default).')
    : '';
  return `<section id="pg-waits"><h2>PostgreSQL waits</h2>
${perMinute}
<div class="pair">${profile('pg-wait-profile', 'Wait events, seconds', p.report.wait_events, 'Lock / extend is relation extension: concurrent inserts growing one table.')}${sampling}</div>
<h3>Longest blocked backends${p.episodes > p.report.blocked.length ? ` (${p.report.blocked.length} of ${p.episodes})` : ''}</h3>
${p.report.blocked.length === 0 ? '<p class="empty">No backend was seen blocked in this window.</p>' : blocked}
</section>`;
}
