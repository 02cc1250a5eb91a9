// perfpipe's Alertmanager channel against a real Alertmanager 0.25 (Debian's prometheus-alertmanager): what it
// accepts and shows through its API v2 is the oracle, not a receiver written for the tests. The send schedule on
// a simulated clock and the exact bodies stay in alert-alertmanager.test.ts, which a real server cannot time.
import test from 'ava';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAlerter } from '../ingest/alert/index.js';
import { Metrics } from '../ingest/observe/metrics.js';
import { tjSegment } from './support/alert-receiver.js';
import { startDaemon, waitFor } from './support/daemon.js';
import { testIf } from './support/prerequisites.js';
import { MISSING_ALERTMANAGER, startAlertmanager, type GettableAlert } from './support/prometheus-tools.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-alertmanager-real-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));
const amTest = testIf(MISSING_ALERTMANAGER);
const TTIMEOUT = '32:27.857000-0,TTIMEOUT,5,p:processName=test,t:connectID=19,Usr=DefUser,WaitConnections=18,Context=Форма.Записать';
const LABELS = { alertname: 'OneCLockTimeout', severity: 'warning', source: '1c-techjournal', cluster: 'srv1', infobase: 'test', lock_space: 'unknown' };

amTest('Alertmanager shows the alert firing, takes the re-sent updates into the same alert, and resolves it when perfpipe says so', async (t) => {
  const am = await startAlertmanager();
  t.teardown(() => am.close());
  const metrics = new Metrics();
  // Real time throughout: Alertmanager judges endsAt against its own clock. Re-sent every 1 s, resolved after
  // 2 s without events; a firing alert's endsAt is 3 re-send periods ahead, so it cannot lapse before the
  // resolution arrives (the disappearance below is the resolved post, not a lapse).
  const alerter = createAlerter({
    group_wait_ms: 100, resolve_after_ms: 2000, tick_ms: 50,
    channels: { log: false, clickhouse: false, kafka: false, alertmanager: { url: am.url, resend_ms: 1000 } },
  }, { metrics });
  t.teardown(() => alerter.stop());

  const observedAt = Date.now();
  alerter.observe(tjSegment(TTIMEOUT));
  let shown: GettableAlert[] = [];
  await waitFor(async () => (shown = await am.alerts()).length > 0, 'the alert in Alertmanager', 10_000, 50);
  t.is(shown.length, 1);
  const [first] = shown;
  t.deepEqual(first!.labels, LABELS);
  t.is(first!.status.state, 'active');
  t.is(first!.annotations.count, '1');
  t.is(first!.annotations.last_victim_user, 'DefUser');
  const startsAt = Date.parse(first!.startsAt);
  t.true(startsAt >= Math.floor(observedAt / 1000) * 1000 && startsAt <= Date.now(), `startsAt ${first!.startsAt} is when the first timeout was seen`);
  t.true(Date.parse(first!.endsAt) > Date.now(), `a firing alert ends in the future: ${first!.endsAt}`);

  // Two more timeouts: the next re-send carries the new count into the same alert (same fingerprint, same start).
  alerter.observe(tjSegment(TTIMEOUT));
  alerter.observe(tjSegment(TTIMEOUT));
  await waitFor(async () => (shown = await am.alerts()).some((a) => a.annotations.count === '3'), 'the re-sent count 3', 10_000, 50);
  t.is(shown.length, 1);
  t.is(shown[0]!.fingerprint, first!.fingerprint);
  t.is(shown[0]!.startsAt, first!.startsAt);
  t.true(await am.metric('alertmanager_alerts_received_total', { status: 'firing' }) >= 2, 'received firing at least twice');
  t.is(await am.metric('alertmanager_alerts_received_total', { status: 'resolved' }), 0);

  // No more events: perfpipe resolves the group and posts endsAt = now; Alertmanager stops listing it while the
  // last firing post's endsAt still lies ahead.
  let lastEndsAt = Date.parse(shown[0]!.endsAt);
  await waitFor(async () => {
    shown = await am.alerts();
    if (shown[0]) lastEndsAt = Date.parse(shown[0].endsAt);
    return shown.length === 0;
  }, 'the alert resolved in Alertmanager', 15_000, 50);
  t.true(Date.now() < lastEndsAt, 'gone before its firing endsAt: resolved by perfpipe, not lapsed');
  t.is(await am.metric('alertmanager_alerts_received_total', { status: 'resolved' }), 1);
  t.is(await am.metric('alertmanager_alerts', { state: 'active' }), 0);
  t.is(metrics.value('perfpipe_alerts_resolved_total', { rule: 'ttimeout' }), 1);
  t.is(await am.metric('alertmanager_alerts_invalid_total'), 0, 'every post was a valid postableAlerts body');
});

amTest('`perfpipe run --alertmanager` puts a TTIMEOUT appended to a watched file into Alertmanager, culprit named', async (t) => {
  const am = await startAlertmanager();
  t.teardown(() => am.close());
  const loc = join(work, 'tj');
  const file = join(loc, 'rphost_7', '26113014.log');
  mkdirSync(join(loc, 'rphost_7'), { recursive: true });
  writeFileSync(file, "\uFEFF10:00.000001-2500000,CALL,2,p:processName=erp_load,t:connectID=18,Usr=Петров,Context='Документ.РеализацияТоваровУслуг.Записать'\n");
  const daemon = await startDaemon(['run', '--tj', loc, '--tz', 'UTC', '--data', join(work, 'data'), '--alertmanager', am.url]);
  t.teardown(() => daemon.stop('SIGKILL'));
  // The culprit's CALL must be indexed before the timeout names it: wait until the daemon has read it.
  await waitFor(async () => /^perfpipe_events_total\{source="tj"\} 1$/m.test(await (await fetch(`${daemon.url}/metrics`)).text()), 'the CALL read', 30_000, 100);
  appendFileSync(file, '10:20.000002-0,TTIMEOUT,5,p:processName=erp_load,t:connectID=19,SessionID=4,Usr=Иванов,WaitConnections=18,Context=Форма.Записать : Документ.ПоступлениеТоваров\n');
  let shown: GettableAlert[] = [];
  await waitFor(async () => (shown = await am.alerts()).length > 0, 'the alert in Alertmanager', 20_000, 50);
  t.is(shown.length, 1);
  const [alert] = shown;
  t.is(alert!.status.state, 'active');
  t.like(alert!.labels, { alertname: 'OneCLockTimeout', infobase: 'erp_load' });
  t.like(alert!.annotations, {
    count: '1', last_victim_connection: '19', last_victim_user: 'Иванов', last_victim_context: 'Форма.Записать : Документ.ПоступлениеТоваров',
    last_culprit_connections: '18',
    last_culprits: 'connection 18 (user Петров; context Документ.РеализацияТоваровУслуг.Записать; last event CALL at 2026-11-30T14:10:00.000001Z)',
  });
  t.is(await daemon.stop('SIGTERM'), 0);
});

