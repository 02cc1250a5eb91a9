// The 1C managed-lock section: lock events and time spent waiting per minute, the lock spaces and contexts that
// waited most, and every lock timeout and deadlock with the connection that caused it and the lock it held
// (docs/tj-format.md §5; the document of `report locks`).
import type { LocksSection, ReportPage } from '../report-page.js';
import type { Deadlock, LockCulprit, LockTimeout } from '../../reports/locks-report.js';
import { clip, esc, fmt, table } from '../html.js';
import { MEANING } from '../palette.js';
import { barChart } from '../bar-chart.js';
import { timeChart, type Point } from '../time-chart.js';
import { bucketName, MINUTE_S } from '../chart-bucket.js';
import { formatInstant, parseUtc } from '../time-format.js';

/** Rows shown per list; the rest is counted and left to `perfpipe report locks --format csv`. */
export const LIST_ROWS = 200;

export interface LockTimeline { waits: Point[]; timeouts: Point[]; deadlocks: Point[]; wait_s: Point[] }

/** report locks' `per_minute` is per bucket (a minute, or the page's bucket) and infobase; the timeline adds the infobases up. */
export function lockTimeline(l: LocksSection): LockTimeline {
  const by = new Map<number, { waits: number; timeouts: number; deadlocks: number; wait_ms: number }>();
  for (const m of l.report.per_minute) {
    const t = Math.floor(parseUtc(m.minute) / 1000);
    const x = by.get(t) ?? { waits: 0, timeouts: 0, deadlocks: 0, wait_ms: 0 };
    x.waits += m.waits; x.timeouts += m.timeouts; x.deadlocks += m.deadlocks; x.wait_ms += m.total_wait_ms;
    by.set(t, x);
  }
  const all = [...by.entries()].sort((a, b) => a[0] - b[0]);
  const pick = (f: (x: { waits: number; timeouts: number; deadlocks: number; wait_ms: number }) => number): Point[] => all.map(([t, x]) => ({ t, v: f(x) }));
  return { waits: pick((x) => x.waits), timeouts: pick((x) => x.timeouts), deadlocks: pick((x) => x.deadlocks), wait_s: pick((x) => Number((x.wait_ms / 1000).toFixed(3))) };
}

export function locksSection(l: LocksSection, page: ReportPage): string {
  const tz = page.timeZone;
  const line = lockTimeline(l);
  const bucket = page.bucket ?? MINUTE_S;
  const per = bucketName(bucket);
  const events = timeChart({
    id: 'lock-events', title: `1C managed-lock events per ${per}`, kind: 'stacked-bars', domain: page.domain, bucket, timeZone: tz, yTitle: 'events', digits: 0, integer: true,
    series: [
      { name: 'TLOCK waits', color: MEANING.wait, points: line.waits },
      { name: 'TTIMEOUT (lock timeouts)', color: MEANING.timeout, points: line.timeouts },
      { name: 'TDEADLOCK (deadlocks)', color: MEANING.deadlock, points: line.deadlocks },
    ],
  });
  const waited = timeChart({
    id: 'lock-wait-time', title: `Time spent waiting for 1C managed locks, seconds per ${per}`, kind: 'stacked-bars', domain: page.domain, bucket, timeZone: tz,
    yTitle: 'seconds', digits: 3, series: [{ name: 'Total TLOCK wait', color: MEANING.wait, points: line.wait_s }],
    note: `A wait counts in the ${per} it ended (the journal writes an event when it ends), once per lock request.`,
  });
  const spaces = barChart({
    id: 'lock-spaces', title: 'Lock spaces by total wait', unit: 's', digits: 3,
    series: [{ name: 'Total wait', color: MEANING.wait }],
    rows: l.report.top_regions.map((r) => ({
      label: r.infobase ? `${r.region} · ${r.infobase}` : r.region, values: [r.total_wait_ms / 1000],
      hint: `${r.waits} waits by ${r.waiting_connections} connections, longest ${fmt(r.max_wait_ms / 1000)} s`,
    })),
    note: 'A request on two lock spaces counts in both.',
  });
  const contexts = barChart({
    id: 'lock-contexts', title: 'Contexts that waited longest (first line of the waiting call)', unit: 's', digits: 3,
    series: [{ name: 'Total wait', color: MEANING.wait }],
    rows: l.report.top_contexts.filter((c) => c.waits > 0).map((c) => ({
      label: c.context || '(no context)', values: [c.total_wait_ms / 1000],
      hint: `${c.infobase}: ${c.waits} waits, longest ${fmt(c.max_wait_ms / 1000)} s, ${c.timeouts} timeouts, ${c.deadlocks} deadlocks`,
    })),
  });
  const who = (id: number, user: string | null): string => `<span class="conn">${esc(id)}</span> ${esc(user ?? '')}`;
  const ctx = (text: string | null): string => (text ? `<span class="ctx" title="${esc(text)}">${esc(clip(text, 160))}</span>` : '<span class="muted">unknown</span>');
  const culprit = (c: LockCulprit): string => {
    const held = c.lock ? `<br><span class="muted">holds</span> ${esc(`${c.lock.region} ${c.lock.mode} ${c.lock.lock}`.trim())} <span class="muted">since ${esc(formatInstant(parseUtc(c.lock.ts), tz))}</span>` : '';
    return `${who(c.connect_id, c.tx_user ?? c.user)}: ${ctx(c.tx_context ?? c.context)}${held}`;
  };
  const timeouts = table<LockTimeout>('lock-timeouts', [
    { head: 'Time', cell: (t) => esc(formatInstant(parseUtc(t.ts), tz)) },
    { head: 'Infobase', cell: (t) => esc(t.infobase) },
    { head: 'Victim', cell: (t) => who(t.victim_connect_id, t.victim_user) },
    { head: 'Victim context', cell: (t) => ctx(t.victim_context) },
    { head: 'Culprits (lock holders)', cell: (t) => (t.culprits.length === 0 ? `<span class="muted">${t.culprit_status === 'pending' ? 'not worked out yet' : 'not named'}</span>`
      : `<ul class="culprits">${t.culprits.map((c) => `<li data-culprit="${esc(c.connect_id)}">${culprit(c)}</li>`).join('')}</ul>`) },
  ], l.report.timeouts.slice(0, LIST_ROWS));
  const deadlocks = table<Deadlock>('deadlocks', [
    { head: 'Time', cell: (d) => esc(formatInstant(parseUtc(d.ts), tz)) },
    { head: 'Infobase', cell: (d) => esc(d.infobase) },
    { head: 'Victim', cell: (d) => who(d.victim_connect_id, d.victim_user) },
    { head: 'Victim context', cell: (d) => ctx(d.victim_context) },
    { head: 'Wait-for edges (waiter → holder: lock)', cell: (d) => `<ul class="edges">${d.edges.map((e) => `<li><span class="conn">${esc(e.waiter)}</span> → <span class="conn">${esc(e.holder)}</span>: ${esc(`${e.region} ${e.mode} ${e.lock}`.trim())}${e.culprit ? `<br>${culprit(e.culprit)}` : ''}</li>`).join('')}</ul>` },
  ], l.report.deadlocks.slice(0, LIST_ROWS));
  const more = (all: number): string => (all > LIST_ROWS ? `<p class="note">Showing ${LIST_ROWS} of ${all}; all of them: <code>perfpipe report locks --format csv</code>.</p>` : '');
  return `<section id="locks"><h2>1C managed locks</h2>
<div class="pair">${events}${waited}</div>
${spaces}
${contexts}
<h3>Lock timeouts (TTIMEOUT) and their culprits</h3>
${l.report.timeouts.length === 0 ? '<p class="empty">No lock timeouts in this window.</p>' : timeouts + more(l.report.timeouts.length)}
<h3>Deadlocks (TDEADLOCK)</h3>
${l.report.deadlocks.length === 0 ? '<p class="empty">No deadlocks in this window.</p>' : deadlocks + more(l.report.deadlocks.length)}
</section>`;
}
