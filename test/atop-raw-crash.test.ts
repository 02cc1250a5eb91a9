// `perfpipe run --atop-raw` killed with SIGKILL in the middle of a raw log and started again: every interval sample
// is stored once. Intents are durable before each segment is published and acknowledgements are lazy, so the kill
// usually leaves a segment that ClickHouse already holds to be replayed under the same dedup token. Skipped without atop.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AtopRecord } from '../schemas/atop-record.js';
import { createAtopParser } from '../parsers/atop/index.js';
import { groupSamples } from '../parsers/atop/derive.js';
import { sinkQuery, startDaemon, waitFor, type Daemon } from './support/daemon.js';
import { missingPrograms, testIf } from './support/prerequisites.js';

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
  const journal = readdirSync(join(data, 'checkpoints')).map((d) => readFileSync(join(data, 'checkpoints', d, 'journal.jsonl'), 'utf8')).join('');
  const intents = journal.split('\n').filter((l) => l.includes('"t":"i"')).length;
  const acks = journal.split('\n').filter((l) => l.includes('"t":"a"')).length;
  t.log(`at the kill the journal held ${intents} intents and ${acks} acknowledgements`);

  const second = await startDaemon(['run', '--config', config, '--data', data]);
  daemons.push(second);
  // A deadline, not a timing goal: 29 small inserts and atop -r conversions took over 60 s once on a loaded CI run.
  await waitFor(async () => (await count()).unique === expected.length, 'every sample after the restart', 180_000, 300);
  await new Promise((r) => setTimeout(r, 1500)); // a duplicate, were there one, would land within a poll or two
  t.deepEqual(await count(), { n: expected.length, unique: expected.length });
  const stored = await sinkQuery<{ e: string }>(data, 'SELECT toUnixTimestamp(ts) AS e FROM atop_system ORDER BY ts');
  t.deepEqual(stored.map((r) => Number(r.e)), expected);
  t.is(await second.stop('SIGTERM'), 0);
});
