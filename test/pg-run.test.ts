// `perfpipe run --pg` follows a log directory: a lock wait open when the daemon is killed (SIGKILL) is still one
// episode with its opening fields after the restart, a file the collector rotates to is picked up, and nothing is
// stored twice.
import test from 'ava';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sinkQuery, startDaemon, waitFor, type Daemon } from './support/daemon.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-pgrun-'));
const dir = join(work, 'log');
const data = join(work, 'data');
let daemon: Daemon | undefined;
test.after.always(async () => {
  await daemon?.stop('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

const L = (ts: string, pid: number, rest: string): string => `2026-11-30 14:09:${ts} UTC [${pid}] ${rest}\n`;
const config = join(work, 'perfpipe.yaml');
// A rotated-away file is finished after 1 s without growth (default 60), so its last entry is stored in the test's time.
const run = (): Promise<Daemon> => startDaemon(['run', '--config', config, '--data', data]);

async function counts(): Promise<{ log: number; unique: number; waits: number }> {
  const [r] = await sinkQuery<{ log: string; unique: string; waits: string }>(data,
    'SELECT count() AS log, uniqExact(file_key, file_offset) AS unique, (SELECT count() FROM pg_lock_waits) AS waits FROM pg_log');
  return { log: Number(r?.log), unique: Number(r?.unique), waits: Number(r?.waits) };
}

test('a wait open across a SIGKILL and a rotation to a new file are stored once each', async (t) => {
  mkdirSync(dir);
  writeFileSync(config, `sources:\n  - type: pg\n    location: ${JSON.stringify(dir)}\n    idle_finish_s: 1\n`);
  const first = join(dir, 'postgresql-2026-11-30_140900.log');
  writeFileSync(first, [
    L('45.500', 1, 'LOG:  duration: 0.5 ms  statement: UPDATE a SET x = 1 WHERE id = 1;'),
    L('45.600', 3, 'LOG:  duration: 0.7 ms  statement: SELECT 1;'),
    L('45.948', 2, 'LOG:  process 2 still waiting for ShareLock on transaction 731 after 100.061 ms'),
    L('45.948', 2, 'DETAIL:  Process holding the lock: 1. Wait queue: 2.'),
    L('45.948', 2, 'STATEMENT:  UPDATE a SET x = 2 WHERE id = 1;'),
    L('46.000', 3, 'LOG:  duration: 0.9 ms  statement: SELECT 2;'),
  ].join(''));
  daemon = await run();
  // Entries after the open wait's first line are held: only the two before it are stored.
  await waitFor(async () => (await counts()).log === 2, 'the entries before the wait', 60_000);
  await daemon.stop('SIGKILL');
  appendFileSync(first, [
    L('46.348', 2, 'ERROR:  canceling statement due to lock timeout'),
    L('46.348', 2, 'STATEMENT:  UPDATE a SET x = 2 WHERE id = 1;'),
    L('46.400', 3, 'LOG:  duration: 1.0 ms  statement: SELECT 3;'),
  ].join(''));
  daemon = await run();
  await waitFor(async () => (await counts()).waits === 1, 'the lock timeout episode', 60_000);
  writeFileSync(join(dir, 'postgresql-2026-11-30_141000.log'), [
    L('50.000', 5, 'LOG:  process 5 still waiting for ExclusiveLock on tuple (0,1) of relation 16386 of database 16385 after 100.000 ms'),
    L('50.000', 5, 'DETAIL:  Process holding the lock: 3. Wait queue: 5.'),
    L('50.500', 5, 'LOG:  process 5 acquired ExclusiveLock on tuple (0,1) of relation 16386 of database 16385 after 600.000 ms'),
    L('50.600', 3, 'LOG:  duration: 1.0 ms  statement: SELECT 4;'),
  ].join(''));
  // 6 entries of the finished first file, 2 of the second: its last entry waits for the next line like any stderr tail.
  await waitFor(async () => { const c = await counts(); return c.waits === 2 && c.log >= 8; }, 'the rotated file', 60_000)
    .catch(async (e: Error) => { throw new Error(`${e.message}: ${JSON.stringify(await counts())}\n${daemon?.log()}`); });
  t.deepEqual(await counts(), { log: 8, unique: 8, waits: 2 });
  const waits = await sinkQuery<{ outcome: string; holder_pids: number[]; statement: string; wait_ms: number | null }>(data,
    'SELECT outcome, holder_pids, statement, wait_ms FROM pg_lock_waits ORDER BY ts_end');
  t.deepEqual(waits, [
    { outcome: 'lock_timeout', holder_pids: [1], statement: 'UPDATE a SET x = 2 WHERE id = 1;', wait_ms: null },
    { outcome: 'acquired', holder_pids: [3], statement: '', wait_ms: 600 },
  ]);
});

test('a tailed log no prefix fits is said once and counted in /metrics; the others are read under the prefix they show', async (t) => {
  const logDir = join(work, 'log-mixed');
  const mixedData = join(work, 'data-mixed');
  mkdirSync(logDir);
  // Debian's prefix, not given: found from the file's first lines.
  writeFileSync(join(logDir, 'postgresql-2026-11-30_140900.log'), [
    L('45.100', 812, 'LOG:  database system is ready to accept connections'),
    L('45.500', 1, 'app@erp LOG:  duration: 0.5 ms  statement: UPDATE a SET x = 1 WHERE id = 1;'),
    L('45.600', 3, 'app@erp LOG:  duration: 0.7 ms  statement: SELECT 1;'),
  ].join(''));
  const syslog = (i: number): string => `Nov 30 14:09:${String(i % 60).padStart(2, '0')} db1 postgres[${900 + i}]: [${i}-1] LOG:  duration: 0.${i} ms  statement: SELECT ${i}\n`;
  const bad = join(logDir, 'postgresql-2026-11-30_141000.log');
  writeFileSync(bad, Array.from({ length: 250 }, (_, i) => syslog(i)).join(''));
  const d = await startDaemon(['run', '--pg', logDir, '--data', mixedData]);
  t.teardown(() => d.stop('SIGKILL'));
  const metric = async (): Promise<number> => Number(/^perfpipe_pg_unframed_files_total\{source="pg"\} (\d+)$/m.exec(await (await fetch(`${d.url}/metrics`)).text())?.[1] ?? 0);
  await waitFor(async () => (await metric()) === 1, 'the unframed file counted', 60_000);
  appendFileSync(bad, Array.from({ length: 50 }, (_, i) => syslog(250 + i)).join(''));
  await waitFor(async () => {
    const [r] = await sinkQuery<{ n: string; users: string[] }>(mixedData, 'SELECT count() AS n, groupUniqArray(user) AS users FROM pg_log');
    // The last entry waits for the next line, like any stderr tail: two of three are stored.
    return Number(r?.n) === 2 && r?.users.includes('app') === true;
  }, 'the Debian-prefixed file read with its users', 60_000);
  t.is(await metric(), 1);
  t.is(d.log().split('\n').filter((l) => l.includes('no log_line_prefix fits its first')).length, 1, d.log());
  t.regex(d.log(), /postgresql-2026-11-30_141000\.log: no log_line_prefix fits its first 250 lines .*line 1: \\"Nov 30 14:09:00 db1 postgres\[900\]/);
});

test('a young log whose first lines have no session yet is read under the prefix its later client lines show', async (t) => {
  const logDir = join(work, 'log-young');
  const youngData = join(work, 'data-young');
  mkdirSync(logDir);
  const file = join(logDir, 'postgresql-2026-11-30_140900.log');
  // A server just started: its first lines come from processes without a session, so '%m [%p] ' fits them.
  writeFileSync(file, [
    L('45.000', 812, 'LOG:  starting PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu'),
    L('45.050', 815, 'LOG:  database system was shut down at 2026-11-30 14:08:00 UTC'),
    L('45.100', 812, 'LOG:  database system is ready to accept connections'),
  ].join(''));
  const d = await startDaemon(['run', '--pg', logDir, '--data', youngData]);
  t.teardown(() => d.stop('SIGKILL'));
  await waitFor(async () => Number((await sinkQuery<{ n: string }>(youngData, 'SELECT count() AS n FROM pg_log'))[0]?.n) >= 2, 'the start-up lines', 60_000);
  // Then sessions log, with Debian's %q%u@%d after the pid.
  const lines: string[] = [];
  for (let i = 0; i < 20; i++) lines.push(L(`${50 + (i % 9)}.${String(i).padStart(3, '0')}`, 900 + i, `usr1cv8@erp LOG:  duration: 1.${i} ms  statement: SELECT ${i}`));
  appendFileSync(file, lines.join(''));
  await waitFor(async () => Number((await sinkQuery<{ n: string }>(youngData, "SELECT count() AS n FROM pg_log WHERE user = 'usr1cv8'"))[0]?.n) >= 19,
    'the client lines with their user', 60_000).catch(async (e: Error) => {
    throw new Error(`${e.message}: ${JSON.stringify(await sinkQuery(youngData, 'SELECT user, database, severity, substring(message, 1, 60) AS m FROM pg_log ORDER BY file_offset'))}`);
  });
  const [orphans] = await sinkQuery<{ n: string }>(youngData, "SELECT count() AS n FROM pg_log WHERE severity = ''"); // an orphan line stores no severity
  t.is(Number(orphans?.n), 0);
});
