// `perfpipe run --atop-spawn 1`: perfpipe runs the installed atop itself and stores its samples without the
// since-boot one, starts atop again when it is killed from outside, and leaves no atop process behind after
// SIGTERM, nor (atop dies of SIGPIPE at its next sample) after perfpipe itself is SIGKILLed. Skipped without atop.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { sinkQuery, startDaemon, waitFor, type Daemon } from './support/daemon.js';
import { missingPrograms, testIf } from './support/prerequisites.js';

const maybe = testIf(missingPrograms('atop'), { serial: true });

const work = mkdtempSync(join(tmpdir(), 'perfpipe-atopspawn-'));
const daemons: Daemon[] = [];
test.after.always(async () => {
  for (const d of daemons) await d.stop('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

async function run(data: string): Promise<Daemon> {
  const d = await startDaemon(['run', '--atop-spawn', '1', '--data', data]);
  daemons.push(d);
  return d;
}

/** The atop processes whose parent is `pid`. */
function atopChildren(pid: number): number[] {
  const r = spawnSync('pgrep', ['-P', String(pid), '-x', 'atop'], { encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean).map(Number);
}

/** Alive = it exists and is not a zombie waiting for a parent to reap it. */
function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    return readFileSync(stat, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return false;
  }
}

interface Stored { n: number; runs: number; max_interval: number }
async function stored(data: string): Promise<Stored> {
  const [r] = await sinkQuery<Record<string, string>>(data, 'SELECT count() AS n, uniqExact(file_key) AS runs, max(interval_s) AS max_interval FROM atop_system');
  return { n: Number(r?.n), runs: Number(r?.runs), max_interval: Number(r?.max_interval) };
}

maybe('run --atop-spawn 1 stores samples, restarts a killed atop, and leaves no atop after SIGTERM', async (t) => {
  const data = join(work, 'data');
  const daemon = await run(data);
  const pid = daemon.child.pid!;
  let first: number[] = [];
  await waitFor(() => (first = atopChildren(pid)).length === 1, 'perfpipe to start atop', 10_000);
  await waitFor(async () => (await stored(data)).n >= 3, '3 samples stored', 30_000, 300);

  process.kill(first[0]!, 'SIGKILL');
  let second: number[] = [];
  await waitFor(() => (second = atopChildren(pid)).length === 1 && second[0] !== first[0], 'atop started again', 15_000);
  const before = (await stored(data)).n;
  await waitFor(async () => (await stored(data)).n >= before + 2, 'samples from the restarted atop', 30_000, 300);
  const s = await stored(data);
  t.is(s.runs, 2, 'two atop runs, each its own stream');
  t.true(s.max_interval <= 2, `no since-boot sample stored (largest interval ${s.max_interval} s)`);
  t.regex(daemon.log(), /atop was killed by SIGKILL; starting it again in 1 s/);

  t.is(await daemon.stop('SIGTERM'), 0);
  t.false(alive(first[0]!));
  t.false(alive(second[0]!), 'atop is gone once perfpipe has exited');
});

maybe('atop started by a perfpipe that is SIGKILLed dies at its next sample', async (t) => {
  const data = join(work, 'killed');
  const daemon = await run(data);
  const pid = daemon.child.pid!;
  let atop: number[] = [];
  await waitFor(() => (atop = atopChildren(pid)).length === 1, 'perfpipe to start atop', 10_000);
  await daemon.stop('SIGKILL');
  await waitFor(() => !alive(atop[0]!), 'the orphaned atop to die of SIGPIPE', 5_000, 100);
  t.pass();
});

test('ingest refuses --atop-spawn: a live source never finishes', async (t) => {
  const r = await runCli(['ingest', '--atop-spawn', '1', '--data', join(work, 'ingest')]);
  t.is(r.code, 2);
  t.regex(r.stderr, /perfpipe: an atop_spawn source samples this host live: run it with `perfpipe run` or `perfpipe agent`, not `ingest`\n$/);
});
