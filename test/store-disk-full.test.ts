// The store's disk full (issue 30): `perfpipe run` over a data directory on a 24 MB tmpfs. While the disk is full it
// says so once (not once per retry), counts its retries in /metrics, and /ready answers 503; when the tmpfs is
// grown it says space is back, once, and stores every event of the journal exactly once.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Expected } from '../simulate/load-expected.js';
import { runCli } from './support/cli.js';
import { httpGet, spawnDaemon, storedIn, waitFor, type Daemon } from './support/daemon.js';
import { missingTmpfsMount, testIf } from './support/prerequisites.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-diskfull-'));
const data = join(work, 'data');
let mounted = false;
let daemon: Daemon | undefined;
test.after.always(async () => {
  await daemon?.stop('SIGKILL');
  if (mounted) execFileSync('umount', ['-l', data]);
  rmSync(work, { recursive: true, force: true });
});

/** A value of /metrics (0 when the series is not there yet). */
async function metric(name: string): Promise<number> {
  const text = (await httpGet(`${daemon?.url}/metrics`)).text;
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
}
const lines = (pattern: RegExp): number => (daemon?.log() ?? '').split('\n').filter((l) => pattern.test(l)).length;

testIf(missingTmpfsMount(), { serial: true })('a full store disk is said once, counted, not ready; space back is said once and every event is stored once', async (t) => {
  const sim = join(work, 'sim');
  const made = await runCli(['simulate', '--out', sim, '--users', '20', '--duration', '2m', '--rate', '800', '--seed', '4']);
  t.is(made.code, 0, made.stderr);
  const events = (JSON.parse(readFileSync(join(sim, 'expected.json'), 'utf8')) as Expected).tj.events;
  mkdirSync(data);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', data]);
  mounted = true;
  daemon = await spawnDaemon(['run', '--tj', join(sim, 'tj'), '--data', data]);

  await waitFor(async () => (await metric('perfpipe_store_disk_full')) === 1, 'the disk to fill', 180_000);
  // Retries go on, counted, while the log says nothing more.
  const counted = await metric('perfpipe_store_disk_full_retries_total');
  await waitFor(async () => (await metric('perfpipe_store_disk_full_retries_total')) >= counted + 3, 'three more retries', 120_000);
  t.is((await httpGet(`${daemon.url}/ready`)).status, 503);
  t.is(lines(/is full: perfpipe is waiting for space/), 1, daemon.log());
  t.is(lines(/insert failed; retrying|publish failed; retrying|cannot write checkpoints/), 0, daemon.log());

  execFileSync('mount', ['-o', 'remount,size=1g', data]);
  await waitFor(async () => (await storedIn(data).catch(() => ({ count: 0, unique: 0 }))).count >= events, `${events} events stored`, 300_000, 1000);
  t.deepEqual(await storedIn(data), { count: events, unique: events });
  t.is(await metric('perfpipe_store_disk_full'), 0);
  t.is((await httpGet(`${daemon.url}/ready`)).status, 200);
  t.is(lines(/has space again/), 1, daemon.log());
  t.is(lines(/is full: perfpipe is waiting for space/), 1);
  t.log(`${events} events; ${await metric('perfpipe_store_disk_full_retries_total')} writes retried while the disk was full; the log:\n${daemon.log()}`);
});
