// TTIMEOUT alerts end to end through a real HTTP receiver: the culprit is named, the group wait is kept,
// and a storm of timeouts becomes a bounded number of notifications carrying the right count.
import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { Metrics } from '../ingest/observe/metrics.js';
import { createAlerter } from '../ingest/alert/index.js';
import { startReceiver, tjSegment } from './support/alert-receiver.js';

// The culprit (connection 18) takes a document lock; the victim (19) waits 20 s for it, then times out.
const CULPRIT_TLOCK = `32:10.000000-5000,TLOCK,6,process=rphost,p:processName=test,t:connectID=18,SessionID=18,Usr=Петров,Regions=Document30456.REFLOCK,Locks='Document30456.REFLOCK Exclusive ID=30456:88f5',WaitConnections=,Context='
ОбщийМодуль.Проведение.Модуль : 120 : Блокировка.Заблокировать();
\tДокумент.Реализация.МодульОбъекта : 10 : Провести()'`;
const VICTIM_TLOCK = '32:27.850000-20000000,TLOCK,6,process=rphost,p:processName=test,t:connectID=19,SessionID=19,Usr=DefUser,Regions=Document30456.REFLOCK,Locks=\'Document30456.REFLOCK Exclusive ID=30456:88f5\',WaitConnections=18,Context=Форма.Записать : Документ.ДокументДляБлокировки.ФормаОбъекта';
const TTIMEOUT = '32:27.857000-0,TTIMEOUT,5,process=rphost,p:processName=test,t:clientID=52,t:applicationName=1CV8C,t:computerName=yardnout,t:connectID=19,SessionID=19,Usr=DefUser,AppID=1CV8C,WaitConnections=18,Context=Форма.Записать : Документ.ДокументДляБлокировки.ФормаОбъекта';
const CULPRIT_18 = 'connection 18 (user Петров; context ОбщийМодуль.Проведение.Модуль : 120 : Блокировка.Заблокировать();; last event TLOCK at 2026-11-30T14:32:10.000000Z; last lock Document30456.REFLOCK)';

interface WebhookAlert { status: string; labels: Record<string, string>; annotations: Record<string, string>; count: number; examples: Record<string, string>[]; fingerprint: string }
const alertsOf = (body: unknown) => (body as { alerts: WebhookAlert[] }).alerts;

test('a TTIMEOUT becomes a webhook after the group wait, naming the culprit connection with its last user and context', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  let now = Date.parse('2026-11-30T14:33:00Z');
  const metrics = new Metrics();
  const alerter = createAlerter({ group_wait_ms: 10_000, channels: { log: false, webhook: { url: `${rx.url}/hook` } } },
    { metrics, now: () => now, manual: true });
  alerter.observe(tjSegment([CULPRIT_TLOCK, VICTIM_TLOCK, TTIMEOUT].join('\n')));

  now += 9_999;
  await alerter.tick();
  t.is(rx.received.length, 0, 'nothing before the group wait');
  now += 1;
  await alerter.tick();
  t.is(rx.received.length, 1);
  t.is(rx.received[0]!.path, '/hook');
  const [alert] = alertsOf(rx.received[0]!.body);
  t.deepEqual(alert!.labels, {
    alertname: 'OneCLockTimeout', severity: 'warning', source: '1c-techjournal', cluster: 'srv1', infobase: 'test', lock_space: 'Document30456.REFLOCK',
  });
  t.is(alert!.status, 'firing');
  t.is(alert!.count, 1);
  t.deepEqual(alert!.examples, [{
    ts: '2026-11-30T14:32:27.857000Z', victim_connection: '19', victim_user: 'DefUser',
    victim_context: 'Форма.Записать : Документ.ДокументДляБлокировки.ФормаОбъекта', wait_ms: '20000',
    lock_space: 'Document30456.REFLOCK', culprit_connections: '18', culprits: CULPRIT_18,
  }]);
  t.is(alert!.annotations.summary, '1 managed-lock timeout(s) in infobase test on Document30456.REFLOCK');
  t.is(alert!.annotations.top_culprits, `${CULPRIT_18} ×1`);
  t.is(metrics.value('perfpipe_alerts_fired_total', { rule: 'ttimeout' }), 1);
  t.is(metrics.value('perfpipe_alert_notifications_sent_total', { channel: 'webhook' }), 1);
  await alerter.stop();
  t.is(rx.received.length, 1, 'stop has nothing new to send');
});

test('a culprit whose earlier events are read after the TTIMEOUT, before the group wait ends, is named with its user', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  let now = Date.parse('2026-11-30T14:33:00Z');
  const alerter = createAlerter({ group_wait_ms: 500, channels: { log: false, webhook: { url: rx.url } } },
    { metrics: new Metrics(), now: () => now, manual: true });
  // The victim's file is read first; the culprit's (another rphost) within the group wait.
  alerter.observe(tjSegment([VICTIM_TLOCK, TTIMEOUT].join('\n')));
  now += 499;
  await alerter.tick();
  alerter.observe(tjSegment(CULPRIT_TLOCK));
  now += 1;
  await alerter.tick();
  t.is(rx.received.length, 1);
  const [alert] = alertsOf(rx.received[0]!.body);
  t.is(alert!.examples[0]!.culprits, CULPRIT_18);
  t.is(alert!.annotations.last_culprits, CULPRIT_18);
  t.is(alert!.annotations.top_culprits, `${CULPRIT_18} ×1`);
  await alerter.stop();
  t.is(rx.received.length, 1, 'nothing to correct at stop');
});

test('a culprit named only after its notice was sent brings one correction at the next round; a further one waits for the update', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  let now = Date.parse('2026-11-30T14:33:00Z');
  const alerter = createAlerter({ group_wait_ms: 500, group_interval_ms: 60_000, channels: { log: false, webhook: { url: rx.url } } },
    { metrics: new Metrics(), now: () => now, manual: true });
  const waitingFor = (id: number, at: string) => tjSegment(TTIMEOUT.replace('32:27.857000', at).replace('WaitConnections=18', `WaitConnections=${id}`));
  const culprit = (id: number, user: string) => tjSegment(CULPRIT_TLOCK.replace('connectID=18,SessionID=18,Usr=Петров', `connectID=${id},SessionID=${id},Usr=${user}`));
  const named = (id: number, user: string) => CULPRIT_18.replace('connection 18 (user Петров', `connection ${id} (user ${user}`);
  const notice = (i: number) => alertsOf(rx.received[i]!.body)[0]!;

  alerter.observe(waitingFor(20, '32:27.857000'));
  now += 500;
  await alerter.tick();
  t.is(rx.received.length, 1);
  t.is(notice(0).examples[0]!.culprits, 'connection 20 (not seen in the journal yet)', 'unknown when sent: as it was');

  alerter.observe(culprit(20, 'Сидоров'));
  now += 250;
  await alerter.tick();
  t.is(rx.received.length, 2, 'the correction goes out at the next round, not group_interval_ms later');
  t.like(notice(1), { count: 1, sequence: 2 });
  t.is(notice(0).annotations.correction, undefined);
  t.is(notice(1).annotations.correction, 'names culprits not yet seen in the journal when notice 1 was sent');
  t.is(notice(1).examples[0]!.culprits, named(20, 'Сидоров'));
  t.is(notice(1).annotations.top_culprits, `${named(20, 'Сидоров')} ×1`);
  await alerter.tick();
  t.is(rx.received.length, 2, 'corrected once');

  alerter.observe(waitingFor(21, '32:40.000000'));
  alerter.observe(culprit(21, 'Козлов'));
  now += 250;
  await alerter.tick();
  t.is(rx.received.length, 2, 'a second correction waits for the update');
  now += 60_000;
  await alerter.tick();
  t.is(rx.received.length, 3);
  t.like(notice(2), { count: 2, sequence: 3 });
  t.is(notice(2).annotations.correction, undefined, 'an update, not a correction');
  t.deepEqual(notice(2).examples.map((e) => e.culprits), [named(20, 'Сидоров'), named(21, 'Козлов')]);
  await alerter.stop();
});

test('the internal timer sends without anyone calling tick', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  const lines: string[] = [];
  const alerter = createAlerter({ group_wait_ms: 200, tick_ms: 50, channels: { webhook: { url: rx.url } } },
    { metrics: new Metrics(), log: (l) => lines.push(l) });
  t.teardown(() => alerter.stop());
  const t0 = Date.now();
  alerter.observe(tjSegment(TTIMEOUT));
  while (rx.received.length === 0 && Date.now() - t0 < 5000) await sleep(20);
  t.is(rx.received.length, 1);
  t.true(Date.now() - t0 >= 200, 'not before the group wait');
  t.true(lines.some((l) => l.startsWith('alert firing OneCLockTimeout severity="warning" source="1c-techjournal" cluster="srv1" infobase="test" lock_space="unknown" count=1: ')));
});

test('a first notice goes out when its group wait ends, not at the next tick', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  // A tick a minute apart: only the wake-up at the end of the group wait can send within the test.
  const alerter = createAlerter({ group_wait_ms: 300, tick_ms: 60_000, resolve_after_ms: 120_000, channels: { log: false, webhook: { url: rx.url } } },
    { metrics: new Metrics() });
  t.teardown(() => alerter.stop());
  const t0 = Date.now();
  alerter.observe(tjSegment(TTIMEOUT));
  while (rx.received.length === 0 && Date.now() - t0 < 10_000) await sleep(10);
  t.is(rx.received.length, 1);
  t.true(Date.now() - t0 >= 300, 'not before the group wait');
  t.is(alertsOf(rx.received[0]!.body)[0]!.count, 1);
});

test('1,000 timeouts in 10 s become one notice per group and one resolve, with the total count', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  let now = Date.parse('2026-11-30T14:00:00Z');
  const metrics = new Metrics();
  // Alertmanager's usual 30 s group wait: the whole burst lands in the first notice of each group.
  const alerter = createAlerter({ group_wait_ms: 30_000, channels: { log: false, webhook: { url: rx.url } } }, { metrics, now: () => now, manual: true });
  // 10 segments of 100 timeouts, one per second, spread over 4 infobases (4 groups) and 7 culprits.
  for (let s = 0; s < 10; s++) {
    const lines: string[] = [];
    for (let i = 0; i < 100; i++) {
      const n = s * 100 + i;
      lines.push(`${String(s).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000000-0,TTIMEOUT,5,p:processName=ib${n % 4},t:connectID=${1000 + n},Usr=U${n % 3},WaitConnections=${n % 7},Context=Форма.Записать`);
    }
    alerter.observe(tjSegment(lines.join('\n')));
    now += 1000;
    await alerter.tick();
  }
  for (let s = 0; s < 600; s++) { now += 1000; await alerter.tick(); }
  await alerter.stop();

  const alerts = rx.received.flatMap((r) => alertsOf(r.body));
  t.true(rx.received.length <= 4, `${rx.received.length} POSTs`);
  t.is(alerts.filter((a) => a.status === 'firing').length, 4);
  t.is(alerts.filter((a) => a.status === 'resolved').length, 4);
  const total = (status: string) => alerts.filter((a) => a.status === status).reduce((sum, a) => sum + a.count, 0);
  t.is(total('firing'), 1000);
  t.is(total('resolved'), 1000);
  for (const a of alerts) {
    t.is(a.count, 250);
    t.is(a.examples.length, 5);
    t.is(a.annotations.count, '250');
  }
  t.is(metrics.value('perfpipe_alert_events_total', { rule: 'ttimeout' }), 1000);
  t.is(metrics.value('perfpipe_alerts_fired_total', { rule: 'ttimeout' }), 4);
  t.is(metrics.value('perfpipe_alerts_resolved_total', { rule: 'ttimeout' }), 4);
});

test('with the default timings, 1,000 timeouts in 10 s still become a bounded number of notices, counts complete', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  let now = Date.parse('2026-11-30T14:00:00Z');
  const alerter = createAlerter({ channels: { log: false, webhook: { url: rx.url } } }, { metrics: new Metrics(), now: () => now, manual: true });
  for (let s = 0; s < 10; s++) {
    const lines: string[] = [];
    for (let i = 0; i < 100; i++) {
      const n = s * 100 + i;
      lines.push(`${String(s).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000000-0,TTIMEOUT,5,p:processName=ib${n % 4},t:connectID=${1000 + n},Usr=U${n % 3},WaitConnections=${n % 7},Context=Форма.Записать`);
    }
    alerter.observe(tjSegment(lines.join('\n')));
    for (let k = 0; k < 4; k++) { now += 250; await alerter.tick(); }
  }
  for (let s = 0; s < 2400; s++) { now += 250; await alerter.tick(); }
  await alerter.stop();
  const alerts = rx.received.flatMap((r) => alertsOf(r.body));
  // Per group (4 infobases): the first notice after the 500 ms group wait, one update after the 5 min group
  // interval carrying the whole count, one resolve: at most 3 each.
  t.true(alerts.length <= 12, `${alerts.length} notices`);
  for (const ib of ['ib0', 'ib1', 'ib2', 'ib3']) {
    const mine = alerts.filter((a) => a.labels.infobase === ib);
    t.is(mine.filter((a) => a.status === 'firing').at(-1)?.count, 250);
    t.is(mine.filter((a) => a.status === 'resolved').length, 1);
  }
});
