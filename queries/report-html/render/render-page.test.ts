import test from 'ava';
import { frame } from '../collect-page.js';
import type { ReportPage } from '../report-page.js';
import { renderReportPage, windowText } from './render-page.js';

const EVIL = `"><script>alert('x')</script>&amp;`;
const T0 = Date.UTC(2026, 10, 30, 10, 0) / 1000;

/** Every text the store can supply set to markup: none of it may reach the page as markup. */
function hostilePage(): ReportPage {
  const culprit = { connect_id: 18, user: EVIL, context: EVIL, tx_start: null, tx_end: null, tx_outcome: null, tx_user: EVIL, tx_context: EVIL, lock: null };
  return {
    title: 'Load test report', run: EVIL, window: { from: T0, to: T0 + 600 }, domain: { from: T0, to: T0 + 600 }, timeZone: 'UTC', generatedAt: T0 * 1000,
    apdex: {
      report: { operations: [{ operation: EVIL, source: EVIL, target_s: 1, target_from: EVIL, priority: null, min_level: null, n: 1, satisfied: 1, tolerating: 0, frustrated: 0, apdex: 1 }], overall: { count_weighted: null, priority_weighted: null } },
      minutes: [{ t: T0, scope: 'operation', operation: EVIL, source: EVIL, n: 1, satisfied: 1, tolerating: 0, frustrated: 0, apdex: 1 }],
      ratings: { [EVIL]: EVIL }, minutesCut: false,
    },
    locks: {
      counts: { tj_lock_waits: 1, tj_lock_wait_s: 1, tj_timeouts: 1, tj_deadlocks: 1, pg_lock_waits: 1, pg_lock_timeouts: 0, pg_deadlocks: 0 },
      report: {
        waits: [], per_minute: [{ minute: '2026-11-30T10:00:00Z', infobase: EVIL, waits: 1, total_wait_ms: 1000, max_wait_ms: 1000, timeouts: 1, deadlocks: 1 }],
        top_contexts: [{ infobase: EVIL, context: EVIL, waits: 1, total_wait_ms: 1000, max_wait_ms: 1000, timeouts: 1, deadlocks: 1 }],
        top_regions: [{ infobase: EVIL, region: EVIL, waits: 1, total_wait_ms: 1000, max_wait_ms: 1000, waiting_connections: 1 }],
        timeouts: [{ ts: '2026-11-30T10:00:10Z', infobase: EVIL, victim_connect_id: 19, victim_user: EVIL, victim_context: EVIL, culprit_connect_ids: [18], culprits: [culprit], culprit_status: 'complete' }],
        deadlocks: [{ ts: '2026-11-30T10:00:20Z', infobase: EVIL, victim_connect_id: 17, victim_user: EVIL, victim_context: EVIL, culprit_connect_ids: [18], edges: [{ waiter: 17, holder: 18, region: EVIL, mode: EVIL, lock: EVIL, culprit }], culprit_status: 'complete' }],
      },
    },
    pg: {
      counts: { tj_lock_waits: 0, tj_lock_wait_s: 0, tj_timeouts: 0, tj_deadlocks: 0, pg_lock_waits: 1, pg_lock_timeouts: 0, pg_deadlocks: 0 },
      minutes: [{ t: T0, waits: 1, acquired: 1, lock_timeouts: 0, deadlocks: 0, other: 0, wait_s: 1 }], episodes: 1,
      longest: [{ ts_start: '2026-11-30 10:00:00.000', ts_end: '2026-11-30 10:00:01.000', pid: 1, mode: EVIL, object: EVIL, outcome: EVIL, wait_ms: 1000, holder_pids: [2], statement: EVIL, waiter_1c_user: EVIL, waiter_context: EVIL, waiter_connect_id: EVIL, holder_1c_user: EVIL, holder_context: EVIL, holder_connect_id: EVIL }],
    },
    atop: { cpu: [{ t: T0, host: EVIL, cpu_busy_pct: 1, cpu_busy_pct_max: 1 }], disks: [{ t: T0, host: EVIL, disk: EVIL, busy_pct: 1, busy_pct_max: 1 }], bucket: 60, sampleInterval: 10 },
  };
}

test('no text from the store reaches the page as markup', (t) => {
  const html = renderReportPage(hostilePage());
  t.false(html.includes('<script'));
  t.false(html.includes(EVIL));
  t.true(html.includes('&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;amp;'));
});

test('the window reads as dates and a duration in the page zone', (t) => {
  t.is(windowText({ from: T0, to: T0 + 1200 }, 'UTC'), '2026-11-30 10:00 – 10:20 (20 min)');
  t.is(windowText({ from: T0, to: T0 + 1200 }, 'Europe/Moscow'), '2026-11-30 13:00 – 13:20 (20 min)');
  t.is(windowText({ from: T0 + 12 * 3600, to: T0 + 15 * 3600 }, 'UTC'), '2026-11-30 22:00 – 2026-12-01 01:00 (3 h 0 min)');
});

test('a window side the reader left open ends where the data does, rounded out to whole minutes', (t) => {
  t.deepEqual(frame({ from: null, to: null }, [T0 + 120, T0 + 60]), { window: { from: T0 + 60, to: T0 + 180 }, domain: { from: T0 + 60, to: T0 + 180 } });
  t.deepEqual(frame({ from: T0 + 10, to: null }, [T0 + 120]).domain, { from: T0, to: T0 + 180 });
  t.deepEqual(frame({ from: null, to: null }, [], T0 + 30).domain, { from: T0, to: T0 + 60 });
});
