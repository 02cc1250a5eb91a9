// The atop source on a file atop keeps appending to: segments end at a SEP and hold whole samples, even when a
// read stops mid-sample; a restart goes on from the last sample end; the rows skip the since-boot sample.
import test from 'ava';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Segment } from '../../bus/bus.js';
import { createAtopParser } from '../../../parsers/atop/index.js';
import { rowsOf } from '../../../test/support/segments.js';
import { scanCounter } from '../../../test/support/source-scans.js';
import { until, type CountedSource } from '../../../test/support/torture-support.js';
import { createFileSource } from '../file-source.js';
import { createAtopRowBuilder } from './atop-rows.js';
import { silentSourceEvents } from '../source-events.js';
import { atopSourceParts } from './atop-source.js';
import { holdUntilSampleEnd } from './atop-samples.js';

/** One sample of atop 2.8.1 -P CPU,cpu,CPL,DSK output (field counts as docs/atop-format.md §6), without its SEP. */
function sample(epoch: number, interval: number, reset: boolean): string {
  const h = `vm ${epoch} 2026/11/30 14:09:04 ${interval}`;
  return [
    ...(reset ? ['RESET'] : []),
    `CPU ${h} 100 2 10 50 0 120 10 0 5 5 0 2400 100 0 0`,
    `cpu ${h} 100 0 5 25 0 60 5 0 2 3 0 2400 100 0 0`,
    `cpu ${h} 100 1 5 25 0 60 5 0 3 2 0 2400 100 0 0`,
    `CPL ${h} 2 0.52 0.31 0.12 1000 500`,
    `DSK ${h} vda 40 10 80 20 160 0 0 0 1.50`,
    '',
  ].join('\n');
}
const TEXT = `${sample(1000, 423, true)}SEP\n${sample(1001, 1, false)}SEP\n${sample(1002, 1, false)}SEP\n`;
const ctx = { host: 'h', source: 'atop', file: 'f', file_key: 'k', offset: 0 };

test('held records come out only at sample ends, the same for every split of the input', (t) => {
  const whole = holdUntilSampleEnd(createAtopParser(ctx));
  const expected = [...whole.push(Buffer.from(TEXT)).events, ...whole.finish().events];
  t.is(expected.length, 15);
  for (let at = 0; at <= TEXT.length; at++) {
    const p = holdUntilSampleEnd(createAtopParser(ctx));
    const first = p.push(Buffer.from(TEXT.slice(0, at)));
    t.true(first.events.every((e) => e.origin.offset < p.settled), `split at ${at}: a record past settled`);
    const got = [...first.events, ...p.push(Buffer.from(TEXT.slice(at))).events, ...p.finish().events];
    t.deepEqual(got, expected, `split at ${at}`);
  }
});

function setup(t: { teardown(fn: () => void): void }) {
  const root = mkdtempSync(join(tmpdir(), 'perfpipe-atop-source-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  return { file: join(root, 'atop.txt'), cp: join(root, 'checkpoints') };
}

function source(file: string, cp: string, segments: Segment[]): CountedSource {
  const parts = atopSourceParts({ location: file, pattern: '*.txt', idle_finish_ms: 200 }, 'h');
  const scans = scanCounter();
  const source = createFileSource({
    source: 'atop', family: 'atop', createRows: createAtopRowBuilder, host: 'h', checkpointDir: cp, ...parts, discover: scans.counting(parts.discover),
    publish: async (s) => { segments.push(s); }, events: silentSourceEvents, mode: 'follow', pollIntervalMs: 50,
    segmentBytes: 1 << 20, maxInFlightPerFile: 2, readChunkBytes: 64 * 1024, backfillConcurrency: 1,
  });
  return Object.assign(source, { scanned: scans.scanned });
}

const records = (segments: Segment[]): number => segments.reduce((n, s) => n + s.records, 0);
/** The samples stored from segments, by epoch (a since-boot sample is read but not stored). */
const stored = (segments: Segment[]): number[] => segments.flatMap((s) => rowsOf(s, 'atop_system').map((r) => Date.parse(`${String(r.ts).replace(' ', 'T')}Z`) / 1000));

test('a file atop appends to is cut into segments of whole samples, and a restart goes on after the last one', async (t) => {
  const { file, cp } = setup(t);
  const [s0, s1, s2] = TEXT.split(/(?<=SEP\n)/) as [string, string, string];
  const half = s1.indexOf('CPL');
  writeFileSync(file, s0 + s1.slice(0, half));
  const segments: Segment[] = [];
  const first = source(file, cp, segments);
  await first.start();
  await until('the since-boot sample', () => records(segments) === 5);
  await first.scanned();
  t.is(records(segments), 5, 'the half-written sample waits for its SEP');
  t.deepEqual(stored(segments), [], 'the since-boot sample is not stored as rates');
  t.is(segments.at(-1)?.end, s0.length);
  appendFileSync(file, s1.slice(half));
  await until('the second sample', () => records(segments) === 10);
  await first.stop();
  t.deepEqual(segments.map((s) => [s.start, s.end]).at(-1), [s0.length, s0.length + s1.length]);

  appendFileSync(file, s2);
  const after: Segment[] = [];
  const second = source(file, cp, after);
  await second.start();
  t.teardown(() => second.stop());
  await until('the third sample', () => records(after) === 5);
  t.deepEqual(stored(after), [1002]);

  const systemRows = [...segments, ...after].flatMap((s) => rowsOf(s, 'atop_system'));
  // busy = (T − idle − iowait) / T with T = 10+50+120+10+5+5 = 200 ticks: (200 − 130) / 200.
  t.deepEqual(systemRows.map((r) => [r.ts, r.cpu_busy_pct]), [['1970-01-01 00:16:41.000', 35], ['1970-01-01 00:16:42.000', 35]]);
});
