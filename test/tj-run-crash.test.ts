// Fault injection on the embedded default: `perfpipe run` is killed with SIGKILL at random moments
// while a TJ file grows, and restarted; in the end ClickHouse holds every event exactly once, and every CALL's split
// (tj_call_splits, written in the CALL's segment) exactly once too. `sql`
// works while the daemon holds the data directory (through its local port) and after it stopped.
import test from 'ava';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { runCli, spawnCli } from './support/cli.js';
import { createPrng } from '../simulate/prng.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-crash-'));
const loc = join(work, 'tj');
const data = join(work, 'data');
let daemon: ChildProcess | null = null;
test.after.always(() => {
  daemon?.kill('SIGKILL');
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startDaemon(): Promise<ChildProcess> {
  const child = spawnCli(['run', '--tj', loc, '--tz', 'UTC', '--data', data, '--listen', '127.0.0.1:0']);
  child.stderr?.on('data', (d: Buffer) => appendFileSync(join(work, 'daemon.log'), d));
  const deadline = Date.now() + 60_000;
  const announced = (): boolean => {
    try {
      return (JSON.parse(readFileSync(join(data, 'daemon.json'), 'utf8')) as { pid: number }).pid === child.pid;
    } catch {
      return false;
    }
  };
  while (!announced()) {
    if (Date.now() > deadline) throw new Error('perfpipe run did not start');
    if (child.exitCode !== null) throw new Error(`perfpipe run exited with ${child.exitCode}`);
    await sleep(50);
  }
  return child;
}

/** Its exit code, also when it has exited already ('exit' is emitted once: a listener added later never hears it). */
function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((r) => child.once('exit', (code) => r(code)));
}

/** The daemon's stderr so far, for a failure message. */
function daemonLog(): string {
  try {
    return readFileSync(join(work, 'daemon.log'), 'utf8').slice(-3000);
  } catch {
    return '(no daemon log)';
  }
}

/** Events stored, and the server-call splits stored with them (one per CALL, in the CALL's segment: issue #25). */
async function stored(): Promise<{ rows: number; unique: number; splits: number; unique_splits: number }> {
  const r = await runCli(['sql', `SELECT count() AS rows, uniqExact(file_key, file_offset) AS unique,
    (SELECT count() FROM tj_call_splits) AS splits, (SELECT uniqExact(file_key, file_offset) FROM tj_call_splits) AS unique_splits FROM tj_events`, '--data', data, '--format', 'json']);
  if (r.code !== 0) throw new Error(r.stderr);
  const row = JSON.parse(r.stdout) as Record<string, string>;
  return { rows: Number(row.rows), unique: Number(row.unique), splits: Number(row.splits), unique_splits: Number(row.unique_splits) };
}

test('SIGKILL at random moments loses nothing and stores nothing twice', async (t) => {
  const rng = createPrng(7);
  mkdirSync(join(loc, 'rphost_1'), { recursive: true });
  mkdirSync(join(loc, 'rphost_2'), { recursive: true });
  let written = 0;
  const writeBatch = (n: number): void => {
    for (const proc of ['rphost_1', 'rphost_2']) {
      let text = '';
      for (let i = 0; i < n; i++, written++) {
        const s = written % 3600;
        text += `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.${String(written % 1e6).padStart(6, '0')}-${i},CALL,1,t:connectID=${written},Context='Форма.Записать : ${written}\n\tМодуль : 1',Usr=u${written % 17}\n`;
      }
      appendFileSync(join(loc, proc, '26113014.log'), text);
    }
  };
  daemon = await startDaemon();
  let kills = 0;
  for (let batch = 0; batch < 24; batch++) {
    writeBatch(100 + rng.int(0, 400));
    await sleep(rng.int(20, 250));
    if (batch % 6 === 5) {
      // A daemon that died by itself would be a failure of its own, not a kill of this test's.
      t.true(daemon.exitCode === null && daemon.signalCode === null, `perfpipe run exited by itself (${daemon.exitCode}): ${daemonLog()}`);
      daemon.kill('SIGKILL');
      await exited(daemon);
      kills++;
      daemon = await startDaemon();
    }
  }
  t.is(kills, 4);
  const deadline = Date.now() + 90_000;
  let s = await stored();
  // A segment's tables are inserted one after another (tj_events, then tj_call_splits): wait for both, or a check
  // made between the two inserts of the last segments sees splits missing that are on their way.
  while ((s.rows < written || s.splits < written) && Date.now() < deadline) {
    await sleep(500);
    s = await stored();
  }
  t.deepEqual(s, { rows: written, unique: written, splits: written, unique_splits: written }, 'stored exactly what was written, each CALL with one split (read through the daemon)');

  t.true(daemon.exitCode === null && daemon.signalCode === null, `perfpipe run exited by itself (${daemon.exitCode}): ${daemonLog()}`);
  daemon.kill('SIGTERM');
  const code = await exited(daemon);
  daemon = null;
  t.is(code, 0);
  t.false(existsSync(join(data, 'daemon.json')), 'the daemon removed its address file');
  t.deepEqual(await stored(), { rows: written, unique: written, splits: written, unique_splits: written }, 'the same after it stopped (read directly)');
});
