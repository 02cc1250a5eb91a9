// The channels that keep notices: the `alerts` table (real embedded ClickHouse in a temp dir, migrated) and the
// `<prefix>alerts` Kafka topic (a fake publish standing in for KafkaBus.publishAlerts).
import test from 'ava';
import { Metrics } from '../ingest/observe/metrics.js';
import { openTempStore, type TempStore } from './support/temp-store.js';
import { createAlerter } from '../ingest/alert/index.js';
import type { AlertRecord } from '../ingest/alert/alert-records.js';
import { BusError } from '../ingest/bus/bus-error.js';
import { pgSegment } from './support/alert-receiver.js';

let store: TempStore;
test.before(async () => {
  store = await openTempStore('perfpipe-alert-store-');
});
test.after.always(async () => {
  await store?.dispose();
});

const L = (ts: string, pid: number, rest: string): string => `2026-11-30 14:09:${ts} UTC [${pid}] 1CV8 app@erp ${rest}`;
const timeout = (pid: number) => [
  L('49.948', pid, 'ERROR:  canceling statement due to lock timeout'),
  L('49.948', pid, 'STATEMENT:  UPDATE _accrg SET _fld1 = 0 WHERE _id = 4;'),
].join('\n');

test.serial('each notification, firing and resolved, becomes a row of the alerts table', async (t) => {
  let now = Date.parse('2026-11-30T15:00:00Z');
  const metrics = new Metrics();
  const alerter = createAlerter({ group_wait_ms: 1000, resolve_after_ms: 60_000, channels: { log: false } },
    { metrics, now: () => now, manual: true, store: store.client });
  alerter.observe(pgSegment(timeout(16065)));
  now += 1000;
  await alerter.tick();
  alerter.observe(pgSegment(timeout(16066)));
  now += 59_999;
  await alerter.tick(); // the second timeout came at 15:00:01: not yet quiet for resolve_after_ms
  now += 1;
  await alerter.tick();
  await alerter.stop();
  t.is(metrics.value('perfpipe_alert_notifications_sent_total', { channel: 'clickhouse' }), 2);
  const rs = await store.client.query({
    query: `SELECT toString(sent_at) AS sent_at, alertname, severity, rule, status, sequence, count, toString(starts_at) AS starts_at,
              toString(ends_at) AS ends_at, labels['database'] AS database, annotations['last_waiter_pid'] AS pid, length(examples) AS examples
            FROM alerts ORDER BY sent_at`,
    format: 'JSONEachRow',
  });
  t.deepEqual(await rs.json(), [
    { sent_at: '2026-11-30 15:00:01.000', alertname: 'PostgresLockTimeout', severity: 'warning', rule: 'pg_lock_timeout', status: 'firing',
      sequence: 1, count: '1', starts_at: '2026-11-30 15:00:00.000', ends_at: null, database: 'erp', pid: '16065', examples: '1' },
    { sent_at: '2026-11-30 15:01:01.000', alertname: 'PostgresLockTimeout', severity: 'warning', rule: 'pg_lock_timeout', status: 'resolved',
      sequence: 1, count: '2', starts_at: '2026-11-30 15:00:00.000', ends_at: '2026-11-30 15:01:01.000', database: 'erp', pid: '16066', examples: '2' },
  ]);
});

test('the Kafka channel publishes one record per notice keyed by fingerprint, and retries a failed publish', async (t) => {
  let now = Date.parse('2026-11-30T15:00:00Z');
  const metrics = new Metrics();
  const published: AlertRecord[][] = [];
  let failures = 1;
  const alerter = createAlerter({ group_wait_ms: 1000, channels: { log: false }, delivery: { backoff_initial_ms: 1000 } }, {
    metrics, now: () => now, manual: true, log: () => {},
    publishAlerts: async (records) => {
      if (failures-- > 0) throw new BusError('kafka bus: broker unavailable', { permanent: false });
      published.push(records);
    },
  });
  alerter.observe(pgSegment(timeout(16070)));
  now += 1000;
  await alerter.tick();
  t.is(published.length, 0);
  t.is(metrics.value('perfpipe_alert_notifications_failed_total', { channel: 'kafka' }), 1);
  now += 1000;
  await alerter.tick();
  t.is(published.length, 1);
  const [record] = published[0]!;
  const value = JSON.parse(record!.value) as Record<string, unknown>;
  t.is(record!.key, String(value.fingerprint));
  t.like(value, { source: 'perfpipe', status: 'firing', count: 1, sequence: 1, labels: { alertname: 'PostgresLockTimeout', database: 'erp' } });
  t.is((value.annotations as Record<string, string>).last_waiter_pid, '16070');
  await alerter.stop();
});

test('a publish the bus refuses for good (stopped) is dropped as rejected, logged and counted', async (t) => {
  let now = Date.parse('2026-11-30T15:00:00Z');
  const metrics = new Metrics();
  const lines: string[] = [];
  const alerter = createAlerter({ group_wait_ms: 1000, channels: { log: false } }, {
    metrics, now: () => now, manual: true, log: (l) => lines.push(l),
    publishAlerts: () => Promise.reject(new BusError('kafka bus: alerts published while the bus is stopped', { permanent: true })),
  });
  alerter.observe(pgSegment(timeout(16080)));
  now += 1000;
  await alerter.tick();
  t.is(metrics.value('perfpipe_alert_notifications_dropped_total', { channel: 'kafka', reason: 'rejected' }), 1);
  t.true(lines.some((l) => l.startsWith('alert notice dropped (kafka, rejected): 1 attempt(s) over 0 ms; last error: kafka: publishing 1 alert(s) failed: kafka bus: alerts published while the bus is stopped')), lines.join('\n'));
  await alerter.stop();
});
