// The rules besides TTIMEOUT: TDEADLOCK edges (docs/tj-format.md §5.3), lock EXCP and the TLOCK wait rate.
import test from 'ava';
import { copyOf } from './support/bus-contract.js';
import { Metrics } from '../ingest/observe/metrics.js';
import { createAlerter, parseDeadlockEdges, type AlertNotice } from '../ingest/alert/index.js';
import { digestAlert } from '../ingest/alert/alert-digest.js';
import { startReceiver, tjSegment } from './support/alert-receiver.js';

test('DeadlockConnectionIntersections splits into edges; commas inside quoted values stay in the fields', (t) => {
  const cases: Array<[string, string, Array<[string, string, string, string, string]>]> = [
    ['the documented two-connection cycle',
      '17 18 Reference10.REFLOCK Exclusive ID=10:9d31eb60b487eef9426efe8ac93cf86c,18 17 Reference10.REFLOCK Exclusive ID=10:95aae4f5c33133584335e2ca22f204fd',
      [['17', '18', 'Reference10.REFLOCK', 'Exclusive', 'ID=10:9d31eb60b487eef9426efe8ac93cf86c'],
        ['18', '17', 'Reference10.REFLOCK', 'Exclusive', 'ID=10:95aae4f5c33133584335e2ca22f204fd']]],
    ['three participants, a quoted comma, a value starting with a line break',
      '\n5 6 InfoRg20642.DIMS Shared Fld20643="a,b" Period=T"20200313000000",6 7 AccumRg16.RECORDER Exclusive,7 5 Document30456.REFLOCK Exclusive ID=30456:88f5',
      [['5', '6', 'InfoRg20642.DIMS', 'Shared', 'Fld20643="a,b" Period=T"20200313000000"'],
        ['6', '7', 'AccumRg16.RECORDER', 'Exclusive', ''],
        ['7', '5', 'Document30456.REFLOCK', 'Exclusive', 'ID=30456:88f5']]],
    ['a quoted value that looks like the start of an edge stays a value',
      '3 4 InfoRg1.DIMS Exclusive Fld1="q,5 6 w e",4 3 InfoRg1.DIMS Exclusive Fld1=z',
      [['3', '4', 'InfoRg1.DIMS', 'Exclusive', 'Fld1="q,5 6 w e"'], ['4', '3', 'InfoRg1.DIMS', 'Exclusive', 'Fld1=z']]],
    ['an unquoted comma in a value is glued back to its edge',
      '1 2 InfoRg1.DIMS Exclusive Fld1=x,y,2 1 InfoRg1.DIMS Exclusive Fld1=z',
      [['1', '2', 'InfoRg1.DIMS', 'Exclusive', 'Fld1=x,y'], ['2', '1', 'InfoRg1.DIMS', 'Exclusive', 'Fld1=z']]],
    ['empty', '', []],
  ];
  for (const [title, value, expected] of cases) {
    t.deepEqual(parseDeadlockEdges(value).map((e) => [e.waiter, e.holder, e.space, e.mode, e.fields]), expected, title);
  }
});

async function run(text: string, config: object = {}) {
  const rx = await startReceiver();
  let now = Date.parse('2026-11-30T15:00:00Z');
  const metrics = new Metrics();
  const alerter = createAlerter({ group_wait_ms: 1000, channels: { log: false, webhook: { url: rx.url } }, ...config }, { metrics, now: () => now, manual: true });
  alerter.observe(tjSegment(text));
  now += 1000;
  await alerter.tick();
  await alerter.stop();
  await rx.close();
  return { alerts: rx.received.flatMap((r) => (r.body as { alerts: AlertNotice[] }).alerts), metrics };
}

test('a TDEADLOCK alert lists each edge and names the holders by their last user and context', async (t) => {
  const { alerts } = await run([
    "45:30.000000-3,TLOCK,6,p:processName=test,t:connectID=18,Usr=Сидоров,Regions=Reference10.REFLOCK,WaitConnections=,Context='\nОбщийМодуль.Цены.Модуль : 7 : Записать()'",
    "45:36.115007-0,TDEADLOCK,6,process=rphost,p:processName=test,t:connectID=17,SessionID=62,Usr=DefUser,DeadlockConnectionIntersections='17 18 Reference10.REFLOCK Exclusive ID=10:9d31,\n18 17 Reference10.REFLOCK Exclusive ID=10:95aa',Context='Форма.Записать'",
  ].join('\n'));
  t.is(alerts.length, 1);
  const a = alerts[0]!;
  t.is(a.labels.alertname, 'OneCDeadlock');
  t.is(a.labels.severity, 'critical');
  t.is(a.labels.lock_space, 'Reference10.REFLOCK');
  t.is(a.examples[0]!.edges, '17 waits for 18 on Reference10.REFLOCK Exclusive ID=10:9d31; 18 waits for 17 on Reference10.REFLOCK Exclusive ID=10:95aa');
  t.is(a.examples[0]!.holders, 'connection 18 (user Сидоров; context ОбщийМодуль.Цены.Модуль : 7 : Записать(); last event TLOCK at 2026-11-30T14:45:30.000000Z; last lock Reference10.REFLOCK); connection 17 (user DefUser; context Форма.Записать; last event TDEADLOCK at 2026-11-30T14:45:36.115007Z)',
    'the victim, a holder too, is named by its TDEADLOCK: read after the finding, before the notice');
});

const DEADLOCK_4857 = "45:36.115007-0,TDEADLOCK,6,process=rphost,p:processName=test,t:connectID=4857,Usr=DefUser,DeadlockConnectionIntersections='4857 4904 InfoRg20642.DIMS Exclusive Fld20644=13,4904 4857 InfoRg20642.DIMS Exclusive Fld20644=30',Context='Форма.Записать'";
const HOLDER_4904 = "45:35.400203-11,TLOCK,5,process=rphost,p:processName=test,t:connectID=4904,Usr=loadtest,Regions=InfoRg20642.DIMS,WaitConnections=,Context='Обработка.Нагрузка.Модуль : 12 : Записать()'";
const HOLDER_4904_TEXT = 'connection 4904 (user loadtest; context Обработка.Нагрузка.Модуль : 12 : Записать(); last event TLOCK at 2026-11-30T14:45:35.400203Z; last lock InfoRg20642.DIMS)';

/** The deadlock's notices when the holder's earlier TLOCK is read `holderAfterMs` after the TDEADLOCK (default group wait, 500 ms). */
async function deadlockWithLateHolder(holderAfterMs: number): Promise<AlertNotice[]> {
  const rx = await startReceiver();
  const t0 = Date.parse('2026-11-30T15:00:00Z');
  let now = t0;
  const alerter = createAlerter({ channels: { log: false, webhook: { url: rx.url } } }, { metrics: new Metrics(), now: () => now, manual: true });
  // The victim's rphost file is read first; the holder's (another rphost) later, as on a busy machine.
  alerter.observe(tjSegment(DEADLOCK_4857));
  const steps = [{ at: holderAfterMs, run: () => alerter.observe(tjSegment(HOLDER_4904)) }, { at: 500, run: () => alerter.tick() }];
  for (const step of steps.sort((a, b) => a.at - b.at)) {
    now = t0 + step.at;
    await step.run();
  }
  await alerter.stop();
  await rx.close();
  return rx.received.flatMap((r) => (r.body as { alerts: AlertNotice[] }).alerts);
}

const digestOf = (a: AlertNotice) => digestAlert({ alertname: a.labels.alertname!, severity: a.labels.severity!, labels: a.labels, events: a.count, last_example: a.examples[0]! });

test('a deadlock holder whose earlier events come in a segment read after the TDEADLOCK, within the group wait, is named with its user', async (t) => {
  const alerts = await deadlockWithLateHolder(200);
  t.is(alerts.length, 1);
  t.is(alerts[0]!.examples[0]!.holders, `${HOLDER_4904_TEXT}; connection 4857 (user DefUser; context Форма.Записать; last event TDEADLOCK at 2026-11-30T14:45:36.115007Z)`);
  t.true(alerts[0]!.annotations.top_holders!.split('\n').includes(`${HOLDER_4904_TEXT} ×1`), alerts[0]!.annotations.top_holders);
  t.like(digestOf(alerts[0]!), { victim: 'DefUser (connection 4857)', culprit: 'loadtest (connection 4904)' });
});

test('a deadlock holder read only after the notice was sent is named by a correction, at the latest when the alerter stops', async (t) => {
  const alerts = await deadlockWithLateHolder(600);
  t.is(alerts.length, 2);
  t.like(digestOf(alerts[0]!), { culprit: 'connection 4904' });
  t.like(alerts[1]!, { count: 1, sequence: 2 });
  t.is(alerts[1]!.annotations.correction, 'names culprits not yet seen in the journal when notice 1 was sent');
  t.like(digestOf(alerts[1]!), { victim: 'DefUser (connection 4857)', culprit: 'loadtest (connection 4904)' });
});

test('an EXCP about a lock conflict alerts; other exceptions do not', async (t) => {
  const { alerts } = await run([
    "10:00.000000-0,EXCP,3,p:processName=upp,t:connectID=5,Usr=Кассир,Exception=580392e6-ba49-4280-ac67-fcd6f2180121,Descr='src\\VResourceInfoBaseServerImpl.cpp(1153):\nКонфликт блокировок при выполнении транзакции:\nПревышено максимальное время ожидания предоставления блокировки',Context=Форма.Провести",
    "10:01.000000-0,EXCP,3,p:processName=upp,t:connectID=6,Usr=Кассир,Exception=DataBaseException,Descr='Деление на 0'",
  ].join('\n'));
  t.deepEqual(alerts.map((a) => [a.labels.alertname, a.labels.infobase, a.count]), [['OneCLockException', 'upp', 1]]);
  t.is(alerts[0]!.examples[0]!.descr, 'src\\VResourceInfoBaseServerImpl.cpp(1153):');
  t.is(alerts[0]!.examples[0]!.victim_user, 'Кассир');
});

const waits = (n: number, minute: string) => Array.from({ length: n }, (_, i) =>
  `${minute}:${String(i % 60).padStart(2, '0')}.${String(i).padStart(6, '0')}-1500000,TLOCK,6,p:processName=zup,t:connectID=${100 + i},Usr=U,Regions=InfoRg20642.DIMS,WaitConnections=42,Context=Расчет`).join('\n');

test('TLOCK waits above per_minute in one lock space and minute alert with the whole count; at the limit they do not', async (t) => {
  const config = { rules: { lock_wait_rate: { per_minute: 10 } } };
  const above = await run(waits(11, '20'), config);
  t.deepEqual(above.alerts.map((a) => [a.labels.alertname, a.labels.lock_space, a.count]), [['OneCLockWaitRate', 'InfoRg20642.DIMS', 11]]);
  const at = await run(`${waits(10, '20')}\n${waits(10, '21')}`, config);
  t.deepEqual(at.alerts, []);
  t.is(at.metrics.total('perfpipe_alert_events_total'), 0);
});

test('a segment delivered twice (at-least-once bus) is counted once', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  const metrics = new Metrics();
  const alerter = createAlerter({ channels: { log: false, webhook: { url: rx.url } } }, { metrics, manual: true });
  const segment = tjSegment('32:27.857000-0,TTIMEOUT,5,p:processName=test,t:connectID=19,WaitConnections=18');
  alerter.observe(segment);
  alerter.observe(copyOf(segment));
  await alerter.stop();
  t.is(metrics.value('perfpipe_alert_events_total', { rule: 'ttimeout' }), 1);
  t.is((rx.received[0]!.body as { alerts: AlertNotice[] }).alerts[0]!.count, 1);
});
