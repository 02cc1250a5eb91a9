// The issue's bar for PostgreSQL, as a user meets it: `perfpipe run` follows a TJ directory and a PostgreSQL log
// directory; a lock timeout appended to the server log reaches the webhook naming the holder's statement and
// the 1C users of both pids (from the TJ DBPOSTGRS events), and the notice is a row of the `alerts` table.
import test from 'ava';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpGet, sinkQuery, startDaemon, waitFor } from './support/daemon.js';
import { startReceiver } from './support/alert-receiver.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-alert-pg-run-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

const L = (ts: string, pid: number, rest: string): string => `2026-11-30 14:09:${ts} UTC [${pid}] 1CV8 app@erp ${rest}\n`;

test('a lock timeout appended to a watched PostgreSQL log reaches the webhook with both 1C users, and the alerts table', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  const tj = join(work, 'tj');
  const pg = join(work, 'pg');
  const data = join(work, 'data');
  mkdirSync(join(tj, 'rphost_7'), { recursive: true });
  mkdirSync(pg);
  writeFileSync(join(tj, 'rphost_7', '26113014.log'), [
    "\uFEFF09:40.000000-1200,DBPOSTGRS,5,p:processName=erp,t:connectID=18,Usr=Петров,dbpid=15932,Sql='UPDATE _AccRg',Context='Документ.РеализацияТоваровУслуг.Провести'",
    "09:45.000000-300,DBPOSTGRS,5,p:processName=erp,t:connectID=19,Usr=Иванов,dbpid=16065,Sql='UPDATE _AccRg',Context='Форма.Записать'",
    '',
  ].join('\n'));
  const log = join(pg, 'postgresql-2026-11-30_140900.log');
  writeFileSync(log, L('45.500', 15932, 'LOG:  duration: 0.512 ms  statement: UPDATE _accrg SET _fld1 = 1 WHERE _id = 4;'));
  const config = join(work, 'perfpipe.yaml');
  writeFileSync(config, [
    'sources:',
    `  - { type: tj, location: ${JSON.stringify(tj)}, tz: UTC }`,
    `  - { type: pg, location: ${JSON.stringify(pg)}, prefix: "%m [%p] %a %u@%d " }`,
    'alerts:',
    '  group_wait_ms: 100',
    `  channels: { log: false, webhook: { url: ${JSON.stringify(`${rx.url}/hook`)} } }`,
    '',
  ].join('\n'));
  const daemon = await startDaemon(['run', '--config', config, '--data', data]);
  t.teardown(() => daemon.stop('SIGKILL'));
  // The TJ DBPOSTGRS events name the 1C users of both pids: wait until the daemon has read both before the wait starts.
  await waitFor(async () => /^perfpipe_events_total\{source="tj"\} 2$/m.test((await httpGet(`${daemon.url}/metrics`)).text), 'the 2 TJ events read', 30_000, 50);
  appendFileSync(log, [
    L('45.948', 16065, 'LOG:  process 16065 still waiting for ShareLock on transaction 731 after 1000.061 ms'),
    L('45.948', 16065, 'DETAIL:  Process holding the lock: 15932. Wait queue: 16065.'),
    L('45.948', 16065, 'STATEMENT:  UPDATE _accrg SET _fld1 = 0 WHERE _id = 4;'),
    L('49.948', 16065, 'ERROR:  canceling statement due to lock timeout'),
    L('49.948', 16065, 'CONTEXT:  while updating tuple (0,4) in relation "_accrg"'),
    L('49.948', 16065, 'STATEMENT:  UPDATE _accrg SET _fld1 = 0 WHERE _id = 4;'),
    // The next entry ends the ERROR's (a stderr entry ends when the next one starts).
    L('50.000', 15932, 'LOG:  duration: 0.3 ms  statement: COMMIT;'),
  ].join(''));
  await waitFor(async () => rx.received.length > 0, 'the webhook', 20_000);
  const text = JSON.stringify(rx.received[0]?.body);
  for (const expected of ['PostgresLockTimeout', '"waiter_pid":"16065"', '"holder_pids":"15932"', 'UPDATE _accrg SET _fld1 = 1 WHERE _id = 4;',
    '"waiter_1c_user":"Иванов"', '"holder_1c_users":"Петров"', 'Документ.РеализацияТоваровУслуг.Провести', '"relation":"_accrg"']) {
    t.true(text.includes(expected), `the notification mentions ${expected}: ${text.slice(0, 1500)}`);
  }
  await waitFor(async () => (await sinkQuery(data, "SELECT 1 FROM alerts WHERE alertname = 'PostgresLockTimeout'")).length > 0, 'the alerts row', 20_000);
  t.is(await daemon.stop('SIGTERM'), 0);
});
