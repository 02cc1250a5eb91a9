// `perfpipe run --atop-raw` killed with SIGKILL in the middle of a raw log and started again: every interval sample
// is stored once. Intents are durable before each segment is published and acknowledgements are lazy, so the kill
// usually leaves a segment that ClickHouse already holds to be replayed under the same dedup token. Skipped without atop.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AtopRecord } from '../schemas/atop-record.js';
import { createAtopParser } from '../parsers/atop/index.js';
import { groupSamples } from '../parsers/atop/derive.js';
import { sinkQuery, startDaemon, waitFor, type Daemon } from './support/daemon.js';
import { missingPrograms, testIf } from './support/prerequisites.js';
import { readCheckpoints } from './support/checkpoints.js';

const maybe = testIf(missingPrograms('atop'), { serial: true });

const work = mkdtempSync(join(tmpdir(), 'perfpipe-atoprawcrash-'));
const daemons: Daemon[] = [];
test.after.always(async () => {
  for (const d of daemons) await d.stop('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

maybe('a run killed with SIGKILL mid-file and started again stores every interval sample once', async (t) => {
  const dir = join(work, 'atop');
  mkdirSync(dir);
  const file = join(dir, 'atop_20261130');
  const made = spawnSync('atop', ['-w', file, '1', '30'], { timeout: 90_000 });
  t.is(made.status, 0, String(made.stderr));
  const parser = createAtopParser({ host: 'h', source: 'atop', file, file_key: 'k', offset: 0 });
  const text = spawnSync('atop', ['-r', file, '-P', 'CPU'], { encoding: 'utf8', maxBuffer: 64 << 20 }).stdout;
  const expected = groupSamples(parser.push(Buffer.from(text)).events as AtopRecord[]).filter((s) => !s[0]!.since_boot).map((s) => s[0]!.epoch);
  t.is(expected.length, 29);

  const data = join(work, 'data');
  const config = join(work, 'perfpipe.yaml');
  // Segments of about one sample each (a sample is tens of KiB of -P text), so the kill falls between many inserts.
  writeFileSync(config, `pipeline:\n  segment_bytes: 4096\nsources:\n  - type: atop_raw\n    location: ${JSON.stringify(dir)}\n`);
  const count = async (): Promise<{ n: number; unique: number }> => {
    const [r] = await sinkQuery<Record<string, string>>(data, 'SELECT count() AS n, uniqExact(ts) AS unique FROM atop_system');
    return { n: Number(r?.n), unique: Number(r?.unique) };
  };
  const first = await startDaemon(['run', '--config', config, '--data', data]);
  daemons.push(first);
  await waitFor(async () => (await count()).n >= 3, 'the first samples stored', 60_000, 50);
  await first.stop('SIGKILL');
  // The acknowledged offset of an atop raw log is the epoch after its last stored sample (atop-raw-reader.ts).
  const checkpoints = join(data, 'checkpoints');
  const end = expected.at(-1)! + 1;
  const atKill = readCheckpoints(checkpoints);
  const ackedAtKill = Math.max(0, ...atKill.acked.values());
  t.log(`at the kill: acknowledged up to epoch ${ackedAtKill} of ${end}, ${atKill.open.length} ranges in flight`);
  t.true(ackedAtKill < end, 'the kill came before the file was read to its end');

  const second = await startDaemon(['run', '--config', config, '--data', data]);
  daemons.push(second);
  // A deadline, not a timing goal: 29 small inserts and atop -r conversions took over 60 s once on a loaded CI run.
  await waitFor(async () => (await count()).unique === expected.length, 'every sample after the restart', 180_000, 300);
  // Every sample acknowledged, nothing in flight: whatever the restart read and published is stored by now.
  await waitFor(() => {
    const now = readCheckpoints(checkpoints);
    return now.open.length === 0 && Math.max(0, ...now.acked.values()) >= end;
  }, 'the file acknowledged to its last sample, no range in flight', 60_000, 100);
  t.deepEqual(await count(), { n: expected.length, unique: expected.length });
  const stored = await sinkQuery<{ e: string }>(data, 'SELECT toUnixTimestamp(ts) AS e FROM atop_system ORDER BY ts');
  t.deepEqual(stored.map((r) => Number(r.e)), expected);
  t.is(await second.stop('SIGTERM'), 0);
});
