// `perfpipe report locks --format json` as a user runs it: a small TJ hour file with one managed-lock wait, the
// lock timeout it ends in and a two-connection deadlock (docs/tj-format.md §5) → the victims, culprits and edges.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-lockscli-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

const WRITE = 'Форма.Записать : Справочник.Номенклатура.ФормаОбъекта';
const PRICES = 'ОбщийМодуль.Цены.Модуль : 7 : Записать()';
// Connection 18 holds the item; 19 waits 1.5 s for it and times out; 17 and 18 then deadlock on two items.
const TJ = [
  "45:30.000000-3,TLOCK,6,p:processName=test,t:connectID=18,Usr=Сидоров,Regions=Reference10.REFLOCK,Locks='Reference10.REFLOCK Exclusive ID=10:95aa',WaitConnections=,Context='",
  `${PRICES}'`,
  `45:31.500000-1500000,TLOCK,6,p:processName=test,t:connectID=19,Usr=Петров,Regions=Reference10.REFLOCK,Locks='Reference10.REFLOCK Exclusive ID=10:95aa',WaitConnections=18,Context='${WRITE}'`,
  `45:32.000000-0,TTIMEOUT,5,p:processName=test,t:connectID=19,Usr=Петров,WaitConnections=18,Context='${WRITE}'`,
  "45:36.115007-0,TDEADLOCK,6,p:processName=test,t:connectID=17,Usr=DefUser,DeadlockConnectionIntersections='17 18 Reference10.REFLOCK Exclusive ID=10:9d31,18 17 Reference10.REFLOCK Exclusive ID=10:95aa',Context='Форма.Записать'",
  '',
].join('\n');

test('report locks names the timeout victim and its culprit, the deadlock edges and the lock space waited on', async (t) => {
  const tj = join(work, 'tj', 'rphost_123');
  mkdirSync(tj, { recursive: true });
  writeFileSync(join(tj, '26113014.log'), `\uFEFF${TJ}`);
  const data = join(work, 'data');
  const ingest = await runCli(['ingest', '--tj', join(work, 'tj'), '--tz', 'UTC', '--data', data]);
  t.regex(ingest.stdout, /^ingested 4 events and 0 ingest errors/, ingest.stderr);
  const r = await runCli(['report', 'locks', '--format', 'json', '--data', data, '--from', '2026-11-30T14:00:00Z', '--to', '2026-11-30T15:00:00Z']);
  t.is(r.code, 0, r.stderr);
  // No SDBL in this file: the transactions are not in the log, so the culprit's lock is looked for in the hour before.
  const noTx = { tx_start: null, tx_end: null, tx_outcome: null, tx_user: null, tx_context: null };
  const held = { ts: '2026-11-30T14:45:30.000000Z', region: 'Reference10.REFLOCK', mode: 'Exclusive', lock: 'ID=10:95aa', context: PRICES, match: 'exact' };
  const c18 = { connect_id: 18, user: 'Сидоров', context: PRICES, ...noTx, lock: held };
  t.deepEqual(JSON.parse(r.stdout), {
    waits: [{
      ts: '2026-11-30T14:45:31.500000Z', infobase: 'test', connect_id: 19, user: 'Петров', context: WRITE,
      regions: ['Reference10.REFLOCK'], wait_ms: 1500, culprit_connect_ids: [18], culprits: [c18], culprit_status: 'settled',
    }],
    timeouts: [{
      ts: '2026-11-30T14:45:32.000000Z', infobase: 'test', victim_connect_id: 19, victim_user: 'Петров', victim_context: WRITE,
      culprit_connect_ids: [18], culprits: [c18], culprit_status: 'settled',
    }],
    deadlocks: [{
      ts: '2026-11-30T14:45:36.115007Z', infobase: 'test', victim_connect_id: 17, victim_user: 'DefUser', victim_context: 'Форма.Записать',
      culprit_connect_ids: [18],
      edges: [
        // 18 holds 95aa, not the 9d31 that 17 waits for; 17 took nothing we can see.
        { waiter: 17, holder: 18, region: 'Reference10.REFLOCK', mode: 'Exclusive', lock: 'ID=10:9d31', culprit: { ...c18, lock: null } },
        { waiter: 18, holder: 17, region: 'Reference10.REFLOCK', mode: 'Exclusive', lock: 'ID=10:95aa', culprit: { connect_id: 17, user: 'DefUser', context: 'Форма.Записать', ...noTx, lock: null } },
      ],
      // The log holds no SDBL: the culprits' transactions can never be found, so the episodes are settled, not complete.
      culprit_status: 'settled',
    }],
    top_regions: [{ infobase: 'test', region: 'Reference10.REFLOCK', waits: 1, total_wait_ms: 1500, max_wait_ms: 1500, waiting_connections: 1 }],
    per_minute: [{ minute: '2026-11-30T14:45:00Z', infobase: 'test', waits: 1, total_wait_ms: 1500, max_wait_ms: 1500, timeouts: 1, deadlocks: 1 }],
    top_contexts: [
      { infobase: 'test', context: WRITE, waits: 1, total_wait_ms: 1500, max_wait_ms: 1500, timeouts: 1, deadlocks: 0 },
      { infobase: 'test', context: 'Форма.Записать', waits: 0, total_wait_ms: 0, max_wait_ms: 0, timeouts: 0, deadlocks: 1 },
    ],
  });
  // A window that ends before the events holds none of them.
  const before = await runCli(['report', 'locks', '--format', 'json', '--data', data, '--to', '2026-11-30T14:45:00Z']);
  t.is(before.stdout, '{"waits":[],"timeouts":[],"deadlocks":[],"top_regions":[],"per_minute":[],"top_contexts":[]}\n');
});
