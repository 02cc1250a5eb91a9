// PostgreSQL lock alerts (issue "Alerts on lock timeouts"): a lock timeout names the waiting and holding pids
// with their statements and the 1C user/context of each from TJ DB events with that dbpid; a deadlock lists its
// participants; a wait longer than pg_lock_wait.threshold_ms alerts, a shorter one does not.
import test from 'ava';
import { Metrics } from '../ingest/observe/metrics.js';
import { createAlerter, type AlertNotice } from '../ingest/alert/index.js';
import { pgSegment, startReceiver, tjSegment } from './support/alert-receiver.js';

const L = (ts: string, pid: number, rest: string): string => `2026-11-30 14:09:${ts} UTC [${pid}] 1CV8 app@erp ${rest}`;

// 1C side: connection 18 (Петров, posting a document) runs on backend 15932; connection 19 (Иванов) on 16065.
const TJ_DB = [
  "09:40.000000-1200,DBPOSTGRS,5,process=rphost,p:processName=erp,t:connectID=18,SessionID=7,Usr=Петров,dbpid=15932,Sql='UPDATE _AccRg SET _Fld1 = 1',Context='\nДокумент.РеализацияТоваровУслуг.МодульОбъекта : 120 : Провести()'",
  "09:45.000000-300,DBPOSTGRS,5,process=rphost,p:processName=erp,t:connectID=19,SessionID=9,Usr=Иванов,dbpid=16065,Sql='UPDATE _AccRg SET _Fld1 = 0',Context=Форма.Записать : Документ.ПоступлениеТоваров.ФормаОбъекта",
].join('\n');

const LOCK_TIMEOUT = [
  L('45.500', 15932, 'LOG:  duration: 0.512 ms  statement: UPDATE _accrg SET _fld1 = 1 WHERE _id = 4;'),
  L('45.948', 16065, 'LOG:  process 16065 still waiting for ShareLock on transaction 731 after 1000.061 ms'),
  L('45.948', 16065, 'DETAIL:  Process holding the lock: 15932. Wait queue: 16065.'),
  L('45.948', 16065, 'CONTEXT:  while updating tuple (0,4) in relation "_accrg"'),
  L('45.948', 16065, 'STATEMENT:  UPDATE _accrg SET _fld1 = 0 WHERE _id = 4;'),
  L('49.948', 16065, 'ERROR:  canceling statement due to lock timeout'),
  L('49.948', 16065, 'CONTEXT:  while updating tuple (0,4) in relation "_accrg"'),
  L('49.948', 16065, 'STATEMENT:  UPDATE _accrg SET _fld1 = 0 WHERE _id = 4;'),
].join('\n');

async function run(segments: Array<ReturnType<typeof pgSegment>>, config: object = {}) {
  const rx = await startReceiver();
  let now = Date.parse('2026-11-30T15:00:00Z');
  const metrics = new Metrics();
  const alerter = createAlerter({ group_wait_ms: 1000, channels: { log: false, webhook: { url: rx.url } }, ...config }, { metrics, now: () => now, manual: true });
  for (const s of segments) alerter.observe(s);
  now += 1000;
  await alerter.tick();
  await alerter.stop();
  await rx.close();
  return { alerts: rx.received.flatMap((r) => (r.body as { alerts: AlertNotice[] }).alerts), metrics };
}

test('a lock timeout names the waiting and holding pids, their statements and their 1C users and contexts', async (t) => {
  const { alerts } = await run([tjSegment(TJ_DB), pgSegment(LOCK_TIMEOUT)]);
  t.is(alerts.length, 1, 'one alert: the 4 s wait ended in the timeout, so it is not also a long wait');
  const a = alerts[0]!;
  t.deepEqual(a.labels, { alertname: 'PostgresLockTimeout', severity: 'warning', source: 'postgresql', instance: 'db1', database: 'erp', sqlstate: '55P03' });
  t.is(a.annotations.summary, '1 PostgreSQL lock timeout(s) (55P03) in database erp on db1');
  t.like(a.examples[0], {
    ts: '2026-11-30T14:09:49.948Z', waiter_pid: '16065', waiter_statement: 'UPDATE _accrg SET _fld1 = 0 WHERE _id = 4;',
    user: 'app', database: 'erp', application: '1CV8', relation: '_accrg', lock: 'ShareLock on transaction 731', waited_ms: '5000',
    holder_pids: '15932',
    holders: 'pid 15932: last statements «UPDATE _accrg SET _fld1 = 1 WHERE _id = 4;»; 1C user Петров; context Документ.РеализацияТоваровУслуг.МодульОбъекта : 120 : Провести(); infobase erp; connection 18 on srv1 (DBPOSTGRS at 2026-11-30T14:09:40.000000Z)',
    waiter_1c_user: 'Иванов', waiter_1c_context: 'Форма.Записать : Документ.ПоступлениеТоваров.ФормаОбъекта',
    holder_1c_users: 'Петров', holder_1c_contexts: 'Документ.РеализацияТоваровУслуг.МодульОбъекта : 120 : Провести()',
  });
  t.is(a.annotations.last_waiter_1c, '1C user Иванов; context Форма.Записать : Документ.ПоступлениеТоваров.ФормаОбъекта; infobase erp; connection 19 on srv1 (DBPOSTGRS at 2026-11-30T14:09:45.000000Z)');
});

test('without TJ DB events or a still-waiting line the alert says what it does not know, and why', async (t) => {
  const { alerts } = await run([pgSegment([
    L('50.000', 17001, 'ERROR:  canceling statement due to lock timeout'),
    L('50.000', 17001, 'STATEMENT:  LOCK TABLE _reference10;'),
  ].join('\n'))]);
  t.like(alerts[0]!.examples[0], {
    waiter_pid: '17001', waiter_statement: 'LOCK TABLE _reference10;', holder_pids: '?', waited_ms: '?',
    holders: 'unknown: no `still waiting` line for this wait (needs log_lock_waits=on and deadlock_timeout below the timeout)',
    waiter_1c: '1C: no TJ event with dbpid=17001 seen yet',
  });
});

test('a wait longer than threshold_ms alerts with its total wait and holder; a shorter one does not', async (t) => {
  const wait = (pid: number, holder: number, xid: number, ms: string, at: string) => [
    L('30.000', holder, `LOG:  duration: 0.4 ms  statement: UPDATE _inforg SET _fld2 = ${holder};`),
    L('31.000', pid, `LOG:  process ${pid} still waiting for ExclusiveLock on transaction ${xid} after 1000.012 ms`),
    L('31.000', pid, `DETAIL:  Process holding the lock: ${holder}. Wait queue: ${pid}.`),
    L('31.000', pid, `STATEMENT:  DELETE FROM _inforg WHERE _fld2 = ${pid};`),
    L(at, pid, `LOG:  process ${pid} acquired ExclusiveLock on transaction ${xid} after ${ms} ms`),
  ].join('\n');
  const { alerts } = await run([tjSegment(TJ_DB), pgSegment(`${wait(16065, 15932, 800, '7200.500', '37.200')}\n${wait(16100, 16101, 801, '4999.000', '35.000')}`)]);
  t.is(alerts.length, 1);
  const a = alerts[0]!;
  t.deepEqual(a.labels, { alertname: 'PostgresLockWait', severity: 'warning', source: 'postgresql', instance: 'db1', database: 'erp' });
  t.is(a.count, 1);
  t.is(a.annotations.summary, '1 PostgreSQL lock wait(s) longer than 5000 ms in database erp on db1');
  t.like(a.examples[0], {
    waiter_pid: '16065', waited_ms: '7201', outcome: 'acquired', holder_pids: '15932', lock: 'ExclusiveLock on transaction 800',
    waiter_statement: 'DELETE FROM _inforg WHERE _fld2 = 16065;', waiter_1c_user: 'Иванов', holder_1c_users: 'Петров',
  });
  t.true(a.examples[0]!.holders!.startsWith('pid 15932: last statements «UPDATE _inforg SET _fld2 = 15932;»; 1C user Петров'), a.examples[0]!.holders);
  const lower = await run([pgSegment(wait(16200, 16201, 802, '4999.000', '35.000'))], { rules: { pg_lock_wait: { threshold_ms: 4000 } } });
  t.deepEqual(lower.alerts.map((x) => [x.labels.alertname, x.examples[0]!.waiter_pid]), [['PostgresLockWait', '16200']]);
});

test('a deadlock lists every participant with its statement and 1C context', async (t) => {
  const { alerts } = await run([tjSegment(TJ_DB), pgSegment([
    L('49.214', 16065, 'LOG:  process 16065 detected deadlock while waiting for ShareLock on transaction 749 after 1000.094 ms'),
    L('49.214', 16065, 'DETAIL:  Process holding the lock: 15932. Wait queue: .'),
    L('49.314', 16065, 'ERROR:  deadlock detected'),
    L('49.314', 16065, 'DETAIL:  Process 16065 waits for ShareLock on transaction 749; blocked by process 15932.\n\tProcess 15932 waits for ShareLock on transaction 748; blocked by process 16065.\n\tProcess 16065: UPDATE t SET x = 1 WHERE id = 2;\n\tProcess 15932: UPDATE t SET x = 2 WHERE id = 1;'),
    L('49.314', 16065, 'HINT:  See server log for query details.'),
    L('49.314', 16065, 'STATEMENT:  UPDATE t SET x = 1 WHERE id = 2;'),
  ].join('\n'))]);
  t.deepEqual(alerts.map((a) => [a.labels.alertname, a.labels.severity, a.labels.sqlstate]), [['PostgresDeadlock', 'critical', '40P01']]);
  const e = alerts[0]!.examples[0]!;
  t.is(e.participants, [
    'pid 16065 waits for ShareLock on transaction 749, blocked by pid 15932; statement «UPDATE t SET x = 1 WHERE id = 2;»; 1C user Иванов; context Форма.Записать : Документ.ПоступлениеТоваров.ФормаОбъекта; infobase erp; connection 19 on srv1 (DBPOSTGRS at 2026-11-30T14:09:45.000000Z)',
    'pid 15932 waits for ShareLock on transaction 748, blocked by pid 16065; statement «UPDATE t SET x = 2 WHERE id = 1;»; 1C user Петров; context Документ.РеализацияТоваровУслуг.МодульОбъекта : 120 : Провести(); infobase erp; connection 18 on srv1 (DBPOSTGRS at 2026-11-30T14:09:40.000000Z)',
  ].join('\n'));
  t.like(e, { waiter_pid: '16065', holder_pids: '15932', waiter_1c_user: 'Иванов', holder_1c_users: 'Петров' });
});

test('a long wait seen first by its still-waiting line alerts once, not again when its episode closes later', async (t) => {
  // The episode stream releases a wait held beyond maxHoldBytes (and at the end of a file) before it closes.
  const { alerts } = await run([
    pgSegment([
      L('40.000', 16300, 'LOG:  process 16300 still waiting for AccessExclusiveLock on relation 16386 of database 16385 after 6000.100 ms'),
      L('40.000', 16300, 'DETAIL:  Process holding the lock: 16301. Wait queue: 16300.'),
      L('40.000', 16300, 'STATEMENT:  ALTER TABLE _document30456 ADD COLUMN x int;'),
    ].join('\n')),
    pgSegment(L('44.000', 16300, 'LOG:  process 16300 acquired AccessExclusiveLock on relation 16386 of database 16385 after 10000.200 ms')),
  ]);
  t.is(alerts.length, 1);
  t.is(alerts[0]!.count, 1);
  t.like(alerts[0]!.examples[0], { waiter_pid: '16300', waited_ms: '6000', outcome: 'still waiting', holder_pids: '16301', lock: 'AccessExclusiveLock on relation 16386 of database 16385' });
});
