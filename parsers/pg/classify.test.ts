// Case table for message classification: message texts from docs/pg-format.md §7, the generated PG15 logs and the
// catalog (message-catalog.ts, docs/pg-format.md §6) in English, Russian, German and French, with the figures read by hand.
import test from 'ava';
import type { PgEvent } from '../../schemas/pg-event.js';
import { classify, parseDeadlockDetail } from './classify.js';
import { createEventFactory } from './entry.js';

const newEvent = createEventFactory({ host: 'h', source: 'pg', file: 'f', file_key: 'k', offset: 0 });

function run(message: string, more: Partial<PgEvent> = {}): PgEvent {
  const e = { ...newEvent(0), severity: 'LOG' as const, ...more, message };
  classify(e);
  return e;
}

type Row = [title: string, message: string, severity: PgEvent['severity'], expect: Partial<PgEvent>];

const ROWS: Row[] = [
  ['duration of a simple query', 'duration: 3.415 ms  statement: CREATE ROLE app LOGIN;', 'LOG',
    { kind: 'duration', duration_ms: 3.415, statement_phase: 'statement', statement: 'CREATE ROLE app LOGIN;' }],
  ['duration of a parse step', 'duration: 0.052 ms  parse P_0: BEGIN;', 'LOG',
    { kind: 'duration', duration_ms: 0.052, statement_phase: 'parse', prepared_name: 'P_0', statement: 'BEGIN;' }],
  ['duration of a bind step with a portal', 'duration: 0.020 ms  bind P_1/C_2: SELECT 1', 'LOG',
    { kind: 'duration', statement_phase: 'bind', prepared_name: 'P_1', statement: 'SELECT 1' }],
  ['duration of an unnamed execute', 'duration: 778.166 ms  execute <unnamed>: select 1 from t where a = $1', 'LOG',
    { kind: 'duration', duration_ms: 778.166, statement_phase: 'execute', prepared_name: '<unnamed>', statement: 'select 1 from t where a = $1' }],
  ['duration of an execute fetch', 'duration: 1.000 ms  execute fetch from S_1/C_3: SELECT 2', 'LOG',
    { kind: 'duration', statement_phase: 'execute_fetch', prepared_name: 'S_1', statement: 'SELECT 2' }],
  ['bare log_duration line', 'duration: 0.140 ms', 'LOG', { kind: 'duration', duration_ms: 0.14, statement: null }],
  ['log_statement line', 'statement: SELECT 1;', 'LOG', { kind: 'statement', statement: 'SELECT 1;' }],
  ['log_statement execute line', 'execute S_1: SELECT 3', 'LOG', { kind: 'statement', statement_phase: 'execute', prepared_name: 'S_1', statement: 'SELECT 3' }],
  ['auto_explain plan', 'duration: 1501.607 ms  plan:\nQuery Text: SELECT 1\nResult', 'LOG',
    { kind: 'auto_explain', duration_ms: 1501.607, plan: 'Query Text: SELECT 1\nResult' }],
  ['temporary file', 'temporary file: path "base/pgsql_tmp/pgsql_tmp16217.0.fileset/0.0", size 8699904', 'LOG',
    { kind: 'temp_file', temp_file_path: 'base/pgsql_tmp/pgsql_tmp16217.0.fileset/0.0', temp_file_bytes: 8699904 }],
  ['lock timeout', 'canceling statement due to lock timeout', 'ERROR', { kind: 'lock_timeout' }],
  ['statement timeout', 'canceling statement due to statement timeout', 'ERROR', { kind: 'statement_timeout' }],
  ['Russian statement timeout (a prefix of the lock timeout text)', 'выполнение оператора отменено из-за тайм-аута', 'ERROR', { kind: 'statement_timeout', lang: 'ru' }],
  ['Russian lock timeout', 'выполнение оператора отменено из-за тайм-аута блокировки', 'ERROR', { kind: 'lock_timeout', lang: 'ru' }],
  ['user cancel falls back to error', 'canceling statement due to user request', 'ERROR', { kind: 'error' }],
  ['unknown FATAL', 'database "no_such_db" does not exist', 'FATAL', { kind: 'fatal' }],
  ['PANIC wins over the message', 'could not write to file "pg_wal/xlogtemp.123": No space left on device', 'PANIC', { kind: 'panic' }],
  ['crash of a backend', 'server process (PID 16715) was terminated by signal 9: Killed', 'LOG',
    { kind: 'server_crash', server: { phase: 'crash', process: 'server process', child_pid: 16715, signal: 9, exit_code: null } }],
  ['routine exit of a background worker', 'background worker "logical replication launcher" (PID 16823) exited with exit code 1', 'LOG',
    { kind: 'other', server: { phase: 'child_exit', process: 'background worker "logical replication launcher"', child_pid: 16823, signal: null, exit_code: 1 } }],
  ['server ready', 'database system is ready to accept connections', 'LOG', { kind: 'server_start' }],
  ['server start banner', 'starting PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu', 'LOG', { kind: 'server_start' }],
  ['fast shutdown', 'received fast shutdown request', 'LOG', { kind: 'server_stop' }],
  ['checkpoint starting', 'checkpoint starting: immediate force wait', 'LOG',
    { kind: 'checkpoint', checkpoint: { phase: 'starting', flags: ['immediate', 'force', 'wait'], figures: {} } }],
  ['checkpoint complete (PG15)', 'checkpoint complete: wrote 3 buffers (0.0%); 0 WAL file(s) added, 0 removed, 2 recycled; write=0.101 s, sync=0.002 s, total=0.108 s; sync files=2, longest=0.001 s, average=0.001 s; distance=32768 kB, estimate=32768 kB', 'LOG',
    { kind: 'checkpoint', checkpoint: { phase: 'complete', flags: [], figures: {
      buffers: 3, buffers_pct: 0, wal_added: 0, wal_removed: 0, wal_recycled: 2, write_s: 0.101, sync_s: 0.002,
      total_s: 0.108, sync_files: 2, longest_s: 0.001, average_s: 0.001, distance_kb: 32768, estimate_kb: 32768 } } }],
  ['Russian checkpoint complete', 'контрольная точка завершена: записано буферов: 3 (0.0%); добавлено файлов WAL 0, удалено: 0, переработано: 2; запись=0.101 сек., синхр.=0.002 сек., всего=0.108 сек.; синхронизировано_файлов=2, самая_долгая_синхр.=0.001 сек., средняя=0.001 сек.; расстояние=32768 КБ, ожидалось=32768 КБ', 'LOG',
    { kind: 'checkpoint', lang: 'ru' }],
  ['checkpoint complete (PG 9.x wording)', 'checkpoint complete: wrote 34 buffers (0.0%); 0 transaction log file(s) added, 0 removed, 1 recycled; write=3.310 s, sync=0.004 s, total=3.323 s; sync files=12, longest=0.002 s, average=0.000 s', 'LOG',
    { kind: 'checkpoint', checkpoint: { phase: 'complete', flags: [], figures: {
      buffers: 34, buffers_pct: 0, wal_added: 0, wal_removed: 0, wal_recycled: 1, write_s: 3.31, sync_s: 0.004,
      total_s: 3.323, sync_files: 12, longest_s: 0.002, average_s: 0 } } }],
  ['checkpoint complete (PG18 wording with SLRU buffers and lsn)', 'checkpoint complete: wrote 5 buffers (0.0%), wrote 2 SLRU buffers; 0 WAL file(s) added, 0 removed, 0 recycled; write=0.001 s, sync=0.001 s, total=0.003 s; sync files=0, longest=0.000 s, average=0.000 s; distance=0 kB, estimate=0 kB; lsn=0/1000028, redo lsn=0/1000028', 'LOG',
    { kind: 'checkpoint', checkpoint: { phase: 'complete', flags: [], figures: {
      buffers: 5, buffers_pct: 0, slru_buffers: 2, wal_added: 0, wal_removed: 0, wal_recycled: 0, write_s: 0.001, sync_s: 0.001,
      total_s: 0.003, sync_files: 0, longest_s: 0, average_s: 0, distance_kb: 0, estimate_kb: 0 } } }],
  ['checkpoints too frequent', 'checkpoints are occurring too frequently (10 seconds apart)', 'LOG',
    { kind: 'checkpoint', checkpoint: { phase: 'too_frequent', flags: [], figures: { seconds_apart: 10 } } }],
  ['autovacuum with body', 'automatic aggressive vacuum of table "template1.pg_catalog.pg_proc": index scans: 0\npages: 0 removed, 96 remain, 1 scanned (1.04% of total)\nbuffer usage: 18 hits, 0 misses, 1 dirtied', 'LOG',
    { kind: 'autovacuum', vacuum: { table: 'template1.pg_catalog.pg_proc', aggressive: true, wraparound: false, index_scans: 0,
      properties: { pages: '0 removed, 96 remain, 1 scanned (1.04% of total)', 'buffer usage': '18 hits, 0 misses, 1 dirtied' } } }],
  ['autoanalyze', 'automatic analyze of table "shop.public.accounts"\navg read rate: 0.000 MB/s, avg write rate: 0.000 MB/s', 'LOG',
    { kind: 'autoanalyze' }],
  ['connection received', 'connection received: host=127.0.0.1 port=34814', 'LOG',
    { kind: 'connection', connection: { phase: 'received', host: '127.0.0.1', port: 34814, user: null, database: null, application: null, session_ms: null } }],
  ['connection authorized', 'connection authorized: user=app database=shop application_name=sessA', 'LOG',
    { kind: 'connection', connection: { phase: 'authorized', host: null, port: null, user: 'app', database: 'shop', application: 'sessA', session_ms: null } }],
  ['disconnection', 'disconnection: session time: 0:01:02.054 user=postgres database=postgres host=127.0.0.1 port=5432', 'LOG',
    { kind: 'connection', connection: { phase: 'disconnection', host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres', application: null, session_ms: 62054 } }],
  ['Russian duration with its comma separator', 'продолжительность: 1208.347 мс, оператор: UPDATE accounts', 'LOG',
    { kind: 'duration', duration_ms: 1208.347, statement: 'UPDATE accounts', lang: 'ru' }],
  ['Russian execute of a prepared statement', 'продолжительность: 0.5 мс  выполнение S_1: SELECT 1', 'LOG',
    { kind: 'duration', statement_phase: 'execute', prepared_name: 'S_1', statement: 'SELECT 1', lang: 'ru' }],
  ['German duration', 'Dauer: 12.5 ms  Anweisung: SELECT 1', 'LOG', { kind: 'duration', duration_ms: 12.5, lang: 'de' }],
  ['French temporary file', 'fichier temporaire : chemin « base/pgsql_tmp/pgsql_tmp1.0 », taille 1024', 'LOG', { kind: 'temp_file', temp_file_bytes: 1024, lang: 'fr' }],
];

for (const [title, message, severity, expect] of ROWS) {
  test(`classify: ${title}`, (t) => {
    const e = run(message, { severity });
    for (const [k, v] of Object.entries(expect)) t.deepEqual(e[k as keyof PgEvent], v, k);
  });
}

type LockRow = [title: string, message: string, expect: Partial<NonNullable<PgEvent['lock']>>];
const LOCKS: LockRow[] = [
  ['tuple lock of a third waiter', 'process 15961 still waiting for ExclusiveLock on tuple (0,1) of relation 16386 of database 16385 after 100.162 ms',
    { phase: 'still_waiting', pid: 15961, mode: 'ExclusiveLock', object_kind: 'tuple', tuple: [0, 1], relation_oid: 16386, database_oid: 16385, wait_ms: 100.162 }],
  ['relation lock taken during parse analysis (`at character`)', 'process 16040 acquired AccessShareLock on relation 16386 of database 16385 after 907.530 ms at character 15',
    { phase: 'acquired', object_kind: 'relation', object: 'relation 16386 of database 16385', wait_ms: 907.53 }],
  ['extension of a relation', 'process 16300 acquired ExclusiveLock on extension of relation 16400 of database 16385 after 2.108 ms',
    { object_kind: 'extension', relation_oid: 16400, wait_ms: 2.108 }],
  ['advisory lock', 'process 16127 still waiting for ExclusiveLock on advisory lock [16385,0,42,1] after 100.071 ms',
    { object_kind: 'advisory', lock_keys: [16385, 0, 42, 1], database_oid: 16385, object: 'advisory lock [16385,0,42,1]' }],
  ['virtual transaction (CREATE INDEX CONCURRENTLY)', 'process 16140 still waiting for ShareLock on virtual transaction 3/29 after 100.089 ms',
    { object_kind: 'virtual_transaction', virtual_transaction: '3/29' }],
  ['deadlock victim', 'process 16053 detected deadlock while waiting for ShareLock on transaction 749 after 100.094 ms',
    { phase: 'deadlock', transaction_id: 749 }],
  ['Russian tuple wait restated in English', 'процесс 5 продолжает ожидать в режиме ExclusiveLock блокировку "кортеж (0,1) отношения 16386 базы данных 16385" в течение 100.162 мс',
    { object: 'tuple (0,1) of relation 16386 of database 16385', tuple: [0, 1], relation_oid: 16386 }],
  ['German wait with a decimal comma', 'Prozess 12 wartet immer noch auf ShareLock-Sperre auf Transaktion 5 nach 100,123 ms',
    { pid: 12, mode: 'ShareLock', wait_ms: 100.123 }],
];
for (const [title, message, expect] of LOCKS) {
  test(`classify lock: ${title}`, (t) => {
    const e = run(message);
    t.is(e.kind, 'lock_wait');
    for (const [k, v] of Object.entries(expect)) t.deepEqual(e.lock?.[k as keyof NonNullable<PgEvent['lock']>], v, k);
  });
}

test('classify lock: holders and queue come from DETAIL, several holders and an empty queue', (t) => {
  const a = run('process 16036 still waiting for AccessExclusiveLock on relation 16386 of database 16385 after 100.080 ms',
    { detail: 'Processes holding the lock: 16028, 16029. Wait queue: 16036.' });
  t.deepEqual([a.lock?.holder_pids, a.lock?.queue_pids], [[16028, 16029], [16036]]);
  const b = run('process 16053 detected deadlock while waiting for ShareLock on transaction 749 after 100.094 ms',
    { detail: 'Process holding the lock: 16049. Wait queue: .' });
  t.deepEqual([b.lock?.holder_pids, b.lock?.queue_pids], [[16049], []]);
});

test('deadlock DETAIL gives each participant, its wait, blocker and multi-line query', (t) => {
  const d = parseDeadlockDetail([
    'Process 16053 waits for ShareLock on transaction 749; blocked by process 16049.',
    'Process 16049 waits for ShareLock on transaction 750; blocked by process 16053.',
    'Process 16053: UPDATE a SET x = 1',
    'WHERE id = 3;',
    'Process 16049: UPDATE a SET x = 2 WHERE id = 2;',
  ].join('\n'));
  t.deepEqual(d, [
    { pid: 16053, mode: 'ShareLock', object: 'transaction 749', blocked_by: 16049, statement: 'UPDATE a SET x = 1\nWHERE id = 3;' },
    { pid: 16049, mode: 'ShareLock', object: 'transaction 750', blocked_by: 16053, statement: 'UPDATE a SET x = 2 WHERE id = 2;' },
  ]);
});

test('deadlock DETAIL in Russian', (t) => {
  const d = parseDeadlockDetail('Процесс 7 ожидает в режиме ShareLock блокировку "транзакция 9"; заблокирован процессом 8.\nПроцесс 7: SELECT 1');
  t.deepEqual(d, [{ pid: 7, mode: 'ShareLock', object: 'transaction 9', blocked_by: 8, statement: 'SELECT 1' }]);
});
