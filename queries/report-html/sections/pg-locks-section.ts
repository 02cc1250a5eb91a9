// The PostgreSQL lock section: waits per minute by how they ended, time spent waiting, and the longest waits
// with the 1C user and context of the waiter and of the holder (`report pg-locks`).
import type { PgEpisode, PgSection, ReportPage } from '../report-page.js';
import { clip, esc, fmt, table } from '../html.js';
import { MEANING } from '../palette.js';
import { timeChart } from '../time-chart.js';
import { bucketName, MINUTE_S } from '../chart-bucket.js';
import { formatInstant, parseUtc } from '../time-format.js';

export function pgLocksSection(p: PgSection, page: ReportPage): string {
  const tz = page.timeZone;
  const bucket = page.bucket ?? MINUTE_S;
  const per = bucketName(bucket);
  const waits = timeChart({
    id: 'pg-lock-waits', title: `PostgreSQL lock waits per ${per}, by outcome`, kind: 'stacked-bars', domain: page.domain, bucket, timeZone: tz, yTitle: 'waits', digits: 0, integer: true,
    series: [
      { name: 'acquired', color: MEANING.wait, points: p.minutes.map((m) => ({ t: m.t, v: m.acquired })) },
      { name: 'lock_timeout', color: MEANING.timeout, points: p.minutes.map((m) => ({ t: m.t, v: m.lock_timeouts })) },
      { name: 'deadlock', color: MEANING.deadlock, points: p.minutes.map((m) => ({ t: m.t, v: m.deadlocks })) },
      { name: 'other (cancelled, statement_timeout, …)', color: MEANING.other, points: p.minutes.map((m) => ({ t: m.t, v: m.other })) },
    ],
    note: `Waits PostgreSQL logged (log_lock_waits: those longer than deadlock_timeout); a wait counts in the ${per} it ended.`,
  });
  const time = timeChart({
    id: 'pg-lock-wait-time', title: `Time spent waiting for PostgreSQL locks, seconds per ${per}`, kind: 'stacked-bars', domain: page.domain, bucket, timeZone: tz,
    yTitle: 'seconds', digits: 3, series: [{ name: 'Total wait', color: MEANING.wait, points: p.minutes.map((m) => ({ t: m.t, v: m.wait_s })) }],
  });
  const side = (user: string, conn: string, context: string): string => (user || context
    ? `${conn && conn !== '0' ? `<span class="conn">${esc(conn)}</span> ` : ''}${esc(user)}${context ? `<br><span class="ctx" title="${esc(context)}">${esc(clip(context, 120))}</span>` : ''}`
    : '<span class="muted">no TJ event</span>');
  const longest = table<PgEpisode>('pg-longest-waits', [
    { head: 'Wait began', cell: (e) => esc(formatInstant(parseUtc(e.ts_start), tz)) },
    { head: 'Wait, s', numeric: true, cell: (e) => `<strong>${esc(fmt(e.wait_ms / 1000))}</strong>` },
    { head: 'Outcome', cell: (e) => esc(e.outcome) },
    { head: 'Lock', cell: (e) => `${esc(e.mode)} <span class="muted">on</span> ${esc(e.object)}` },
    { head: 'Waiter (pid, 1C)', cell: (e) => `<span class="conn">${esc(e.pid)}</span> ${side(e.waiter_1c_user, e.waiter_connect_id, e.waiter_context)}` },
    { head: 'Holder (pid, 1C)', cell: (e) => `<span class="conn">${esc(e.holder_pids.join(' '))}</span> ${side(e.holder_1c_user, e.holder_connect_id, e.holder_context)}` },
    { head: 'Statement', cell: (e) => `<code title="${esc(e.statement)}">${esc(clip(e.statement, 140))}</code>` },
  ], p.longest);
  return `<section id="pg-locks"><h2>PostgreSQL lock waits</h2>
<div class="pair">${waits}${time}</div>
<h3>Longest waits${p.episodes > p.longest.length ? ` (${p.longest.length} of ${p.episodes})` : ''}</h3>
${p.longest.length === 0 ? '<p class="empty">No PostgreSQL lock waits in this window.</p>' : longest}
</section>`;
}
