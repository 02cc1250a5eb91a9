// `perfpipe parse pg` and `perfpipe ingest --pg` as a user runs them, on a small hand-written log (and the shared
// corpus log when present): the lock wait rides on its closing entry, a second ingest stores nothing twice, and
// unusable arguments say what is expected.
import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { corpusDir, missingCorpus, testIf } from './support/prerequisites.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-pgcli-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

const LOG = [
  '2026-11-30 14:09:45.500 MSK [15932] app@shop LOG:  duration: 0.512 ms  statement: UPDATE accounts SET balance = 0 WHERE id = 1;',
  '2026-11-30 14:09:45.948 MSK [15937] app@shop LOG:  process 15937 still waiting for ShareLock on transaction 731 after 100.061 ms',
  '2026-11-30 14:09:45.948 MSK [15937] app@shop DETAIL:  Process holding the lock: 15932. Wait queue: 15937.',
  '2026-11-30 14:09:45.948 MSK [15937] app@shop STATEMENT:  UPDATE accounts',
  '\tSET b = 1;',
  '2026-11-30 14:09:46.348 MSK [15937] app@shop ERROR:  canceling statement due to lock timeout',
  '2026-11-30 14:09:46.348 MSK [15937] app@shop STATEMENT:  UPDATE accounts',
  '\tSET b = 1;',
  '',
].join('\n');
const PREFIX = '%m [%p] %u@%d ';

test('parse pg prints every entry as NDJSON with the episode on the entry that closed it', async (t) => {
  const file = join(work, 'postgresql-2026-11-30_140945.log');
  writeFileSync(file, LOG);
  const r = await runCli(['parse', 'pg', file, '--pg-prefix', PREFIX, '--tz', 'Europe/Moscow']);
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, '');
  const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; ts: string; lock_episodes: Array<Record<string, unknown>> });
  t.deepEqual(events.map((e) => [e.kind, e.lock_episodes.length]), [['duration', 0], ['lock_wait', 0], ['lock_timeout', 1]]);
  t.is(events[0]?.ts, '2026-11-30T11:09:45.500Z');
  t.like(events[2]?.lock_episodes[0], { pid: 15937, outcome: 'lock_timeout', wait_ms: null, statement: 'UPDATE accounts\nSET b = 1;', user: 'app', database: 'shop' });
});

test('parse pg finds the prefix itself; a prefix given wins, and when it frames nothing that is said once', async (t) => {
  const file = join(work, 'postgresql-other-prefix.log');
  writeFileSync(file, LOG);
  const found = await runCli(['parse', 'pg', file, '--tz', 'Europe/Moscow']);
  t.is(found.code, 0, found.stderr);
  t.is(found.stderr, '');
  const given = await runCli(['parse', 'pg', file, '--pg-prefix', PREFIX, '--tz', 'Europe/Moscow']);
  t.is(found.stdout, given.stdout);
  // PostgreSQL's default prefix matches the time and pid, but not the user@database that follows here.
  const wrong = await runCli(['parse', 'pg', file, '--pg-prefix', '%m [%p] ']);
  t.is(wrong.code, 0);
  t.is(wrong.stdout.trim().split('\n').length, 8); // every line printed whole, as an orphan
  t.regex(wrong.stderr, /none of its 8 lines starts with the log_line_prefix '%m \[%p\] '.*--pg-prefix/);
  t.is(wrong.stderr.trim().split('\n').length, 1);
});

const SYSLOG = [
  'Feb 11 13:15:39 test-pc postgres[10808]: [1-1] db=,user=,app=,client= LOG:  listening on IPv4 address "127.0.0.1", port 5432',
  'Feb 11 13:15:40 test-pc postgres[10809]: [2-1] db=,user=,app=,client= LOG:  database system is ready to accept connections',
  '',
].join('\n');

test('a log no prefix fits is named with its lines, not printed as orphans, and parse pg exits 1', async (t) => {
  const file = join(work, 'syslog.log');
  writeFileSync(file, SYSLOG);
  const r = await runCli(['parse', 'pg', file]);
  t.is(r.code, 1);
  t.is(r.stdout, '');
  t.regex(r.stderr, /syslog\.log: no log_line_prefix fits its first 2 lines .*line 1: "Feb 11 13:15:39 test-pc postgres\[10808\].*line 2: .*--pg-prefix/);
});

test('ingest --pg stores pg_log and pg_lock_waits once, and a second ingest adds nothing', async (t) => {
  const dir = join(work, 'log');
  mkdirSync(dir);
  writeFileSync(join(dir, 'postgresql-2026-11-30_140945.log'), LOG);
  writeFileSync(join(dir, 'postgresql-2026-11-30_140945.csv'), 'not,the,stderr,file\n');
  const data = join(work, 'data');
  const args = ['ingest', '--pg', dir, '--pg-prefix', PREFIX, '--data', data];
  const first = await runCli(args);
  t.is(first.code, 0, first.stderr);
  t.notRegex(first.stderr, /log_line_prefix/);
  t.regex(first.stdout, /^ingested 3 events and 0 ingest errors from 1 files/);
  const again = await runCli(args);
  t.regex(again.stdout, /^ingested 0 events/);
  const r = await runCli(['sql', "SELECT (SELECT count() FROM pg_log) AS log, outcome, toString(ts_start) AS s, toString(ts_end) AS e, holder_pids FROM pg_lock_waits", '--data', data, '--format', 'csv']);
  t.is(r.stdout, '"log","outcome","s","e","holder_pids"\n3,"lock_timeout","2026-11-30 11:09:45.848","2026-11-30 11:09:46.348","[15932]"\n');
});

test('ingest --pg finds the prefix itself; a prefix given that frames nothing is used and said once', async (t) => {
  const dir = join(work, 'log-other-prefix');
  mkdirSync(dir);
  writeFileSync(join(dir, 'postgresql-2026-11-30_140945.log'), LOG);
  const found = await runCli(['ingest', '--pg', dir, '--data', join(work, 'data-found-prefix')]);
  t.is(found.code, 0, found.stderr);
  t.regex(found.stdout, /^ingested 3 events and 0 ingest errors from 1 files/);
  t.notRegex(found.stderr, /log_line_prefix/);
  const r = await runCli(['ingest', '--pg', dir, '--pg-prefix', '%m [%p] ', '--data', join(work, 'data-other-prefix')]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^ingested 8 events and 0 ingest errors from 1 files/);
  t.regex(r.stderr, /the log_line_prefix given \('%m \[%p\] '\) frames 0 of the first 6 lines .*'%m \[%p\] %q%u@%d '/);
  t.regex(r.stderr, /none of the first 8 lines starts with the log_line_prefix '%m \[%p\] ': .*SHOW log_line_prefix/);
  t.is(r.stderr.match(/frames 0 of the first/g)?.length, 1, 'said once');
});

test('ingest --pg of a log no prefix fits exits 1 naming its lines, stores nothing, and reads it when told the prefix', async (t) => {
  const dir = join(work, 'log-syslog');
  mkdirSync(dir);
  writeFileSync(join(dir, 'postgresql-2026-11-30_140945.log'), SYSLOG);
  const data = join(work, 'data-syslog');
  const r = await runCli(['ingest', '--pg', dir, '--data', data]);
  t.is(r.code, 1);
  t.regex(r.stdout, /^ingested 0 events/);
  t.regex(r.stderr, /no log_line_prefix fits its first 2 lines .*line 1: \\"Feb 11 13:15:39/);
  t.regex(r.stderr, /1 PostgreSQL log file was not read: no log_line_prefix fits its first lines/);
  const told = await runCli(['ingest', '--pg', dir, '--pg-prefix', '%t %q%a ', '--data', data]);
  t.is(told.code, 0, told.stderr);
  t.regex(told.stdout, /^ingested 2 events/);
});

testIf(missingCorpus('pg/generated/postgresql-phase1.log'))('the corpus log parses to its 77 lock waits', async (t) => {
  const file = join(corpusDir, 'pg', 'generated', 'postgresql-phase1.log');
  const r = await runCli(['parse', 'pg', file, '--pg-prefix', '%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ']);
  t.is(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  t.is(lines.length, 2364);
  t.is(lines.reduce((n, l) => n + (JSON.parse(l) as { lock_episodes: unknown[] }).lock_episodes.length, 0), 77);
});

test('unusable pg arguments exit 2 with a message that says what is expected', async (t) => {
  const bad = await runCli(['parse', 'pg', 'x.log', '--pg-format', 'syslog']);
  t.is(bad.code, 2);
  t.is(bad.stderr, 'perfpipe: --pg-format: "syslog" is not a log format; expected one of stderr, csvlog, jsonlog\n');
  const flags = await runCli(['ingest', '--pg', work, '--pg-format', 'syslog', '--data', join(work, 'never')]);
  t.is(flags.code, 2);
  t.is(flags.stderr, 'perfpipe: flags is not valid:\n  sources[0].format: "syslog" is not a log destination; expected "stderr", "csvlog" or "jsonlog"\n');
});
