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
