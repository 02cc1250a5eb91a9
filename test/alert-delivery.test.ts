// Delivery while the receiver is down: retries with backoff lose nothing once it is back, and giving up
// after give_up_after_ms is logged and counted.
import test from 'ava';
import { Metrics } from '../ingest/observe/metrics.js';
import { createAlerter, type AlertNotice } from '../ingest/alert/index.js';
import { startReceiver, tjSegment } from './support/alert-receiver.js';

const timeout = (connect: number, ib = 'test') => `32:27.857000-0,TTIMEOUT,5,p:processName=${ib},t:connectID=${connect},Usr=DefUser,WaitConnections=18,Context=Форма.Записать`;
const deadlock = "45:36.115007-0,TDEADLOCK,6,p:processName=test,t:connectID=17,Usr=DefUser,DeadlockConnectionIntersections='17 18 Reference10.REFLOCK Exclusive ID=10:9d31,18 17 Reference10.REFLOCK Exclusive ID=10:95aa'";

test('notices raised while the receiver is down arrive after it comes back, with every event counted', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  await rx.down();
  let now = Date.parse('2026-11-30T15:00:00Z');
  const metrics = new Metrics();
  const lines: string[] = [];
  const alerter = createAlerter({
    group_wait_ms: 1000, group_interval_ms: 5000, channels: { log: false, webhook: { url: rx.url } },
    delivery: { backoff_initial_ms: 1000, backoff_max_ms: 8000 },
  }, { metrics, now: () => now, log: (l) => lines.push(l), manual: true });

  alerter.observe(tjSegment(`${timeout(19)}\n${deadlock}`));
  const attempts: number[] = [];
  // 60 s of outage, a tick per second; more timeouts keep coming in the meantime.
  for (let s = 1; s <= 60; s++) {
    now += 1000;
    if (s % 10 === 0) alerter.observe(tjSegment(timeout(100 + s)));
    const before = metrics.total('perfpipe_alert_notifications_failed_total');
    await alerter.tick();
    if (metrics.total('perfpipe_alert_notifications_failed_total') > before) attempts.push(s);
  }
  t.is(rx.received.length, 0);
  // Backoff doubles up to its cap: attempts at 1, 2, 4, 8, 16, then every 8 s.
  t.deepEqual(attempts, [1, 2, 4, 8, 16, 24, 32, 40, 48, 56]);
  t.is(metrics.total('perfpipe_alert_notifications_dropped_total'), 0);
  t.true(lines[0]!.startsWith(`alert delivery failed (2 notice(s), will retry): webhook: POST ${rx.url} failed: `), lines[0]);

  await rx.up();
  for (let s = 0; s < 10; s++) { now += 1000; await alerter.tick(); }
  const alerts = rx.received.flatMap((r) => (r.body as { alerts: AlertNotice[] }).alerts);
  const latest = new Map(alerts.map((a) => [a.labels.alertname, a.count]));
  t.deepEqual(Object.fromEntries(latest), { OneCLockTimeout: 7, OneCDeadlock: 1 });
  t.is(metrics.total('perfpipe_alert_notifications_dropped_total'), 0);
  t.is(metrics.value('perfpipe_alert_queue', { channel: 'webhook' }), 0);
  await alerter.stop();
});

test('a notice undelivered for give_up_after_ms is dropped, logged and counted', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  await rx.down();
  let now = Date.parse('2026-11-30T15:00:00Z');
  const metrics = new Metrics();
  const lines: string[] = [];
  const alerter = createAlerter({
    group_wait_ms: 0, resolve_after_ms: 3_600_000, channels: { log: false, webhook: { url: rx.url } },
    delivery: { backoff_initial_ms: 1000, backoff_max_ms: 5000, give_up_after_ms: 20_000 },
  }, { metrics, now: () => now, log: (l) => lines.push(l), manual: true });
  alerter.observe(tjSegment(timeout(19, 'buh')));
  for (let s = 0; s <= 30; s++) { await alerter.tick(); now += 1000; }
  t.is(metrics.value('perfpipe_alert_notifications_dropped_total', { channel: 'webhook', reason: 'gave_up' }), 1);
  const dropped = lines.filter((l) => l.startsWith('alert notice dropped'));
  t.is(dropped.length, 1);
  t.regex(dropped[0]!, /^alert notice dropped \(webhook, gave_up\): 7 attempt\(s\) over 22000 ms; last error: webhook: POST .* failed: .*; it was: alert firing OneCLockTimeout .*infobase="buh".* count=1: /);
  await alerter.stop();
  t.is(metrics.total('perfpipe_alert_notifications_dropped_total'), 1, 'nothing left to drop at stop');
});

test('at stop, what waits for the group wait is sent at once; what cannot be delivered is reported', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  const metrics = new Metrics();
  const alerter = createAlerter({ channels: { log: false, webhook: { url: rx.url } } }, { metrics, manual: true });
  alerter.observe(tjSegment(timeout(19)));
  await alerter.stop();
  await alerter.stop();
  t.is(rx.received.length, 1);

  await rx.down();
  const lines: string[] = [];
  const down = createAlerter({ channels: { log: false, webhook: { url: rx.url } } }, { metrics: new Metrics(), log: (l) => lines.push(l), manual: true });
  down.observe(tjSegment(timeout(19)));
  await down.stop();
  t.true(lines.some((l) => l.startsWith('alert notice dropped (webhook, stopped): still undelivered to webhook at stop after 1 attempt(s); it was: alert firing OneCLockTimeout')), lines.join('\n'));
});

test('beyond max_queue the oldest waiting notice is dropped, logged and counted', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  await rx.down();
  const metrics = new Metrics();
  const lines: string[] = [];
  const now = Date.parse('2026-11-30T15:00:00Z');
  const alerter = createAlerter({ group_wait_ms: 0, channels: { log: false, webhook: { url: rx.url } }, delivery: { max_queue: 2 } },
    { metrics, now: () => now, log: (l) => lines.push(l), manual: true });
  alerter.observe(tjSegment([timeout(1, 'ib1'), timeout(2, 'ib2'), timeout(3, 'ib3')].join('\n')));
  await alerter.tick();
  t.is(metrics.value('perfpipe_alert_notifications_dropped_total', { channel: 'webhook', reason: 'queue_full' }), 1);
  t.true(lines.some((l) => l.startsWith('alert notice dropped (webhook, queue_full): the webhook queue holds 2 notices; it was: alert firing OneCLockTimeout') && l.includes('infobase="ib1"')), lines.join('\n'));
  t.is(metrics.value('perfpipe_alert_queue', { channel: 'webhook' }), 2);
});
