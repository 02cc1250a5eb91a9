// `report pg-locks`: PostgreSQL wait episodes carry the 1C side of the waiter and of the holder, found through
// the TJ DB events whose dbpid is the PostgreSQL backend pid (issue "APDEX and lock-wait analytics", item 6).
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-pglocks-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

const PG = [
  '2026-11-30 14:00:02.000 UTC [4242] LOG:  process 4242 still waiting for ShareLock on transaction 731 after 1000.123 ms',
  '2026-11-30 14:00:02.000 UTC [4242] DETAIL:  Process holding the lock: 4343. Wait queue: 4242.',
  '2026-11-30 14:00:02.000 UTC [4242] CONTEXT:  while updating tuple (0,1) in relation "_inforg20642"',
  '2026-11-30 14:00:02.000 UTC [4242] STATEMENT:  UPDATE _InfoRg20642 SET _Fld20643 = $1 WHERE _Fld20644 = $2',
  '2026-11-30 14:00:04.500 UTC [4242] LOG:  process 4242 acquired ShareLock on transaction 731 after 3500.456 ms',
  '2026-11-30 14:00:04.500 UTC [4242] CONTEXT:  while updating tuple (0,1) in relation "_inforg20642"',
  '2026-11-30 14:00:04.500 UTC [4242] STATEMENT:  UPDATE _InfoRg20642 SET _Fld20643 = $1 WHERE _Fld20644 = $2',
  '2026-11-30 14:00:05.000 UTC [4343] LOG:  duration: 1.000 ms  statement: COMMIT',
  '',
].join('\n');

const TJ = [
  "00:00.200000-1500,DBPOSTGRS,4,process=rphost,p:processName=erp_load,t:connectID=18,Usr=Петров,dbpid=4343,Sql='UPDATE _InfoRg20642 SET _Fld20643 = $1',Context='Документ.РеализацияТоваровУслуг.Провести'",
  "00:05.000000-3600000,DBPOSTGRS,4,process=rphost,p:processName=erp_load,t:connectID=19,Usr=Иванов,dbpid=4242,Sql='UPDATE _InfoRg20642 SET _Fld20643 = $1 WHERE _Fld20644 = $2',Context='Документ.ПоступлениеТоваров.Записать'",
  '',
].join('\n');

test('a PostgreSQL wait names the 1C user and context of the waiter and of the holder', async (t) => {
  mkdirSync(join(work, 'pg'));
  writeFileSync(join(work, 'pg', 'postgresql-2026-11-30.log'), PG);
  mkdirSync(join(work, 'tj', 'rphost_5'), { recursive: true });
  writeFileSync(join(work, 'tj', 'rphost_5', '26113014.log'), TJ);
  const data = join(work, 'data');
  const ingested = await runCli(['ingest', '--pg', join(work, 'pg'), '--tj', join(work, 'tj'), '--tz', 'UTC', '--data', data]);
  t.is(ingested.code, 0, ingested.stderr);
  const r = await runCli(['report', 'pg-locks', '--format', 'json', '--data', data]);
  t.is(r.code, 0, r.stderr);
  const { episodes } = JSON.parse(r.stdout) as { episodes: Record<string, unknown>[] };
  t.is(episodes.length, 1);
  t.like(episodes[0], {
    pid: 4242, outcome: 'acquired', wait_ms: 3500.456, holder_pids: [4343],
    waiter_infobase: 'erp_load', waiter_1c_user: 'Иванов', waiter_connect_id: '19', waiter_context: 'Документ.ПоступлениеТоваров.Записать',
    holder_1c_user: 'Петров', holder_connect_id: '18', holder_context: 'Документ.РеализацияТоваровУслуг.Провести',
  });
  const table = await runCli(['report', 'pg-locks', '--data', data]);
  t.regex(table.stdout, /4242 .*acquired.*Иванов.*Петров/s);
});
