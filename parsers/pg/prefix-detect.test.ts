// Finding a log_line_prefix from a log's first lines, on lines shaped as PostgreSQL 15 prints them. The real logs
// (every prefix of the corpus, and logs a real server writes under a dozen prefixes) are in test/pg-corpus.test.ts
// and test/pg-prefix-live.test.ts; these cases pin the rules one at a time.
import test from 'ava';
import { detectPgLog } from './log-detect.js';
import { detectPrefix } from './prefix-detect.js';

const found = (lines: string[]): string | null => detectPrefix(lines).prefix;

test('Debian\'s prefix: %q goes where the postmaster\'s lines stop', (t) => {
  t.is(found([
    '2026-11-30 14:09:45.100 MSK [812] LOG:  checkpoint starting: time',
    '2026-11-30 14:09:45.343 MSK [15932] usr1cv8@erp LOG:  duration: 0.512 ms  statement: SELECT 1',
    '2026-11-30 14:09:45.948 MSK [15937] usr1cv8@zup ERROR:  canceling statement due to lock timeout',
    '2026-11-30 14:09:45.948 MSK [15937] usr1cv8@zup STATEMENT:  UPDATE t SET v = 1',
  ]), '%m [%p] %q%u@%d ');
});

test('pgBadger\'s prefix: empty values of a process without a session, the literal -1 after the line number', (t) => {
  t.is(found([
    '2026-11-30 14:09:45 UTC [20]: [1-1] user=,db=,app=,client= LOG:  database system is ready to accept connections',
    '2026-11-30 14:09:46 UTC [36]: [1-1] user=postgres,db=shop,app=psql,client=10.0.0.21 LOG:  connection authorized: user=postgres database=shop',
    '2026-11-30 14:09:46 UTC [36]: [2-1] user=postgres,db=shop,app=psql,client=10.0.0.21 LOG:  duration: 2.280 ms  statement: END;',
    '2026-11-30 14:09:47 UTC [41]: [1-1] user=app,db=shop,app=pgbench,client=10.0.0.22 LOG:  duration: 0.168 ms  statement: BEGIN;',
    '2026-11-30 14:09:47 UTC [41]: [2-1] user=app,db=shop,app=pgbench,client=10.0.0.22 LOG:  duration: 0.2 ms  statement: END;',
  ]), '%t [%p]: [%l-1] user=%q%u,db=%d,app=%a,client=%h ');
});

test('the pid is the number inside %c, the line number the one that counts up within a process', (t) => {
  t.is(found([
    '2026-11-30 14:09:45.100 UTC 15932 1 6b1135bc.3e3c LOG:  connection received: host=[local]',
    '2026-11-30 14:09:45.200 UTC 15932 2 6b1135bc.3e3c LOG:  duration: 0.1 ms  statement: BEGIN',
    '2026-11-30 14:09:45.300 UTC 15937 1 6b1135bd.3e41 LOG:  connection received: host=[local]',
    '2026-11-30 14:09:45.400 UTC 15932 3 6b1135bc.3e3c LOG:  duration: 0.1 ms  statement: COMMIT',
  ]), '%m %p %l %c ');
});

test('a prefix with %c and no %p still names the process: the pid is the hex after the dot', (t) => {
  const lines = ['2026-11-30 14:09:45 UTC-6b1135bc.3e3c-LOG:  duration: 0.1 ms  statement: BEGIN', '2026-11-30 14:09:46 UTC-6b1135bd.3e41-LOG:  duration: 0.1 ms  statement: BEGIN'];
  t.is(found(lines), '%t-%c-');
});

test('a value with spaces in some lines does not split the value in the prefix found', (t) => {
  const line = (pid: number, app: string): string => `< 2026-11-30 14:09:45.100 UTC ${app} postgres shop ${pid} > LOG:  duration: 0.1 ms  statement: SELECT 1`;
  t.is(found([line(1, 'psql'), line(2, 'PostgreSQL JDBC Driver'), line(3, 'chainA'), line(4, 'chainB'), line(5, 'pgbench'), line(6, 'psql')]),
    '< %m %q%a %u %d %p > ');
});

test('a stray line of an earlier prefix does not change the one found', (t) => {
  const lines = ['2026-11-30 14:09:45.100 UTC [15932] LOG:  parameter "log_line_prefix" changed'];
  for (let i = 0; i < 20; i++) lines.push(`2026-11-30 14:09:46 UTC:[local]:postgres@shop:[${16000 + i}]:LOG:  duration: 0.1 ms  statement: SELECT ${i}`);
  const d = detectPrefix(lines);
  t.is(d.prefix, '%t:%q%h:%u@%d:[%p]:');
  t.deepEqual([d.framed, d.prefixed, d.unframed.map((u) => u.line)], [20, 21, [1]]);
});

test('Russian messages are found by their severity words', (t) => {
  t.is(found([
    '2026-11-30 14:09:45.948 MSK [15937] СООБЩЕНИЕ:  процесс 15937 продолжает ожидать в режиме ShareLock блокировку "транзакция 731" в течение 100.061 мс',
    '2026-11-30 14:09:45.948 MSK [15937] ПОДРОБНОСТИ:  Process holding the lock: 15932. Wait queue: 15937.',
    '2026-11-30 14:09:46.348 MSK [15937] ОШИБКА:  выполнение оператора отменено из-за тайм-аута блокировки',
  ]), '%m [%p] ');
});

test('syslog lines fit no prefix: nothing found, and the lines are named', (t) => {
  const d = detectPrefix([
    'Feb 11 13:15:39 test-pc postgres[10808]: [1-1] db=,user=,app=,client= LOG:  listening on IPv4 address "127.0.0.1", port 5432',
    'Feb 11 13:15:40 test-pc postgres[10809]: [2-1] db=,user=,app=,client= LOG:  database system is ready to accept connections',
  ], [0, 120]);
  t.is(d.prefix, null);
  t.deepEqual(d.unframed.map((u) => [u.line, u.offset]), [[1, 0], [2, 120]]);
});

test('csvlog and jsonlog are told by their records, whatever the file is called', (t) => {
  const csv = '2026-11-30 14:09:45.343 UTC,"postgres","shop",15932,"[local]",6b1135bc.3e3c,1,"idle",2026-11-30 14:09:44 UTC,3/4,0,LOG,00000,"duration: 0.5 ms",,,,,,,,,"psql","client backend",,0\n';
  t.is(detectPgLog(Buffer.from(csv.repeat(3)), true).format, 'csvlog');
  const json = '{"timestamp":"2026-11-30 14:09:45.343 UTC","pid":15932,"error_severity":"LOG","message":"duration: 0.5 ms"}\n';
  t.is(detectPgLog(Buffer.from(json.repeat(3)), true).format, 'jsonlog');
  const stderr = detectPgLog(Buffer.from('2026-11-30 14:09:45.343 UTC [15932] LOG:  duration: 0.5 ms, rows 1,2\n'), true);
  t.deepEqual([stderr.format, stderr.prefix], ['stderr', '%m [%p] ']);
});
