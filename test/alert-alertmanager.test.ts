// The Alertmanager channel (docs/alerting.md §2.1): POST /api/v2/alerts with labels, annotations, startsAt and
// endsAt; re-sent while firing, resolved with endsAt = now once the group has been quiet.
import test from 'ava';
import { Metrics } from '../ingest/observe/metrics.js';
import { createAlerter } from '../ingest/alert/index.js';
import { startReceiver, tjSegment } from './support/alert-receiver.js';

interface Postable { labels: Record<string, string>; annotations: Record<string, string>; startsAt: string; endsAt: string }
const TTIMEOUT = '32:27.857000-0,TTIMEOUT,5,p:processName=test,t:connectID=19,Usr=DefUser,WaitConnections=18,Context=Форма.Записать';

test('Alertmanager gets postable alerts, re-sent while firing and resolved after the quiet period', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  const start = Date.parse('2026-11-30T16:00:00Z');
  let now = start;
  const metrics = new Metrics();
  const alerter = createAlerter({
    group_wait_ms: 30_000, group_interval_ms: 300_000, resolve_after_ms: 300_000,
    channels: { log: false, alertmanager: { url: `${rx.url}/`, resend_ms: 60_000 } },
  }, { metrics, now: () => now, manual: true });
  alerter.observe(tjSegment(TTIMEOUT));
  // Timeouts go on for 2 minutes (one every 10 s), then stop; we tick every 5 s for 10 minutes.
  const sentAt: number[] = [];
  for (let s = 5; s <= 600; s += 5) {
    now = start + s * 1000;
    if (s <= 120 && s % 10 === 0) alerter.observe(tjSegment(TTIMEOUT));
    const before = rx.received.length;
    await alerter.tick();
    if (rx.received.length > before) sentAt.push(s);
  }
  await alerter.stop();

  // First after group_wait (30 s), re-sent every 60 s while firing, resolved 300 s after the last event (120 s).
  t.deepEqual(sentAt, [30, 90, 150, 210, 270, 330, 390, 420]);
  t.true(rx.received.every((r) => r.path === '/api/v2/alerts'));
  const bodies = rx.received.map((r) => r.body as Postable[]);
  t.true(bodies.every((b) => Array.isArray(b) && b.length === 1));
  const [first] = bodies[0]!;
  t.deepEqual(Object.keys(first!).sort(), ['annotations', 'endsAt', 'labels', 'startsAt']);
  t.deepEqual(first!.labels, { alertname: 'OneCLockTimeout', severity: 'warning', source: '1c-techjournal', cluster: 'srv1', infobase: 'test', lock_space: 'unknown' });
  t.true(Object.values(first!.annotations).every((v) => typeof v === 'string'), 'annotations are a labelSet: strings only');
  t.is(first!.annotations.count, '4');
  t.is(first!.annotations.summary, '4 managed-lock timeout(s) in infobase test');
  t.is(first!.annotations.last_victim_user, 'DefUser');
  t.is(first!.startsAt, new Date(start).toISOString());
  t.is(first!.endsAt, new Date(start + 30_000 + 180_000).toISOString(), 'firing: now + 3 re-send periods');

  const last = bodies[bodies.length - 1]![0]!;
  t.deepEqual(last.labels, first!.labels, 'same identity');
  t.is(last.annotations.count, '13');
  t.is(last.startsAt, first!.startsAt);
  t.is(last.endsAt, new Date(start + 420_000).toISOString(), 'resolved: endsAt is the moment of resolution');
  t.is(metrics.value('perfpipe_alerts_resolved_total', { rule: 'ttimeout' }), 1);
  t.is(metrics.value('perfpipe_alert_notifications_sent_total', { channel: 'alertmanager' }), 8);
});

test('a mistyped config key is an error naming it', (t) => {
  const err = t.throws(() => createAlerter({ channels: { alertmanger: { url: 'http://127.0.0.1:9093' } } } as never, { metrics: new Metrics(), manual: true }));
  t.is(err?.message, 'alerts: channels: unknown key "alertmanger"');
  const order = t.throws(() => createAlerter({ group_wait_ms: 60_000, resolve_after_ms: 30_000 }, { metrics: new Metrics(), manual: true }));
  t.is(order?.message, 'alerts: resolve_after_ms: must be greater than group_wait_ms, or a group could resolve before its first notification');
});
