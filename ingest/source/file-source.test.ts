import test from 'ava';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Segment } from '../bus/bus.js';
import { rowsOf } from '../../test/support/segments.js';
import { createFileSource } from './file-source.js';
import { silentSourceEvents } from './source-events.js';
import { tjSourceParts } from './tj/tj-source.js';
import { tjSource, until, type CountedSource } from '../../test/support/torture-support.js';

const line = (sec: number, usr: string): string => `00:${String(sec).padStart(2, '0')}.000000-5,CALL,1,Usr=${usr}\n`;

function setup(t: { teardown(fn: () => void): void }) {
  const root = mkdtempSync(join(tmpdir(), 'perfpipe-source-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const loc = join(root, 'tj');
  mkdirSync(loc);
  return { loc, cp: join(root, 'checkpoints') };
}

/** `events()`: the tj_events rows of every segment published so far, decoded. */
interface Collector { segments: Segment[]; events(): Array<Record<string, unknown>>; publish(s: Segment): Promise<void> }

function collector(): Collector {
  const segments: Segment[] = [];
  return {
    segments,
    events: () => segments.flatMap((s) => rowsOf(s, 'tj_events')),
    publish: async (s) => { segments.push(s); },
  };
}

/** The torture tests' TJ source (50 ms polls, scans counted) over `loc`. */
function source(loc: string, cp: string, publish: (s: Segment) => Promise<void>, mode: 'follow' | 'backfill' = 'follow'): CountedSource {
  return tjSource({ root: loc, loc, cp, proc: () => loc }, publish, { mode });
}

const users = (c: Collector): string[] => c.events().map((e) => e.user as string).sort();

test('new process folders and hour files are read as they appear; a partial last line waits for its end', async (t) => {
  const { loc, cp } = setup(t);
  const c = collector();
  const s = source(loc, cp, c.publish);
  await s.start();
  t.teardown(() => s.stop());
  mkdirSync(join(loc, 'rphost_1'));
  const f1 = join(loc, 'rphost_1', '26113014.log');
  writeFileSync(f1, `\uFEFF${line(1, 'a')}${line(2, 'b')}00:03.000000-5,CALL,1,Usr=`);
  await until('two events', () => c.events().length === 2);
  await s.scanned();
  t.deepEqual(users(c), ['a', 'b'], 'the partial third line is not emitted');
  appendFileSync(f1, 'c\n');
  await until('the completed line', () => c.events().length === 3);
  mkdirSync(join(loc, 'rphost_2'));
  writeFileSync(join(loc, 'rphost_2', '26113014.log'), line(4, 'd'));
  writeFileSync(join(loc, 'rphost_1', '26113015.log'), line(5, 'e'));
  await until('five events', () => c.events().length === 5);
  t.deepEqual(users(c), ['a', 'b', 'c', 'd', 'e']);
  t.is(new Set(c.events().map((e) => `${e.file_key}@${e.file_offset}`)).size, 5);
});

test('a file deleted by the platform is still read to its end', async (t) => {
  const { loc, cp } = setup(t);
  mkdirSync(join(loc, 'rphost_1'));
  const old = join(loc, 'rphost_1', '26113013.log');
  writeFileSync(old, line(1, 'a'));
  const c = collector();
  const s = source(loc, cp, c.publish);
  await s.start();
  t.teardown(() => s.stop());
  await until('the first event', () => c.events().length === 1);
  appendFileSync(old, line(2, 'b'));
  unlinkSync(old);
  writeFileSync(join(loc, 'rphost_1', '26113014.log'), line(3, 'c'));
  await until('three events', () => c.events().length === 3);
  t.deepEqual(users(c), ['a', 'b', 'c']);
});

test('a restart goes on from the checkpoints: nothing lost, nothing read twice', async (t) => {
  const { loc, cp } = setup(t);
  mkdirSync(join(loc, 'rphost_1'));
  const f = join(loc, 'rphost_1', '26113014.log');
  writeFileSync(f, Array.from({ length: 100 }, (_, i) => line(i % 60, `u${i}`)).join(''));
  const first = collector();
  const s1 = source(loc, cp, first.publish);
  await s1.start();
  await until('100 events', () => first.events().length === 100);
  await s1.stop();
  appendFileSync(f, Array.from({ length: 50 }, (_, i) => line(i, `v${i}`)).join(''));
  writeFileSync(join(loc, 'rphost_1', '26113015.log'), line(1, 'w'));
  const second = collector();
  const s2 = source(loc, cp, second.publish);
  await s2.start();
  t.teardown(() => s2.stop());
  await until('51 more events', () => second.events().length === 51);
  await s2.scanned();
  const all = [...first.events(), ...second.events()].map((e) => `${e.file_key}@${e.file_offset}`);
  t.is(all.length, 151);
  t.is(new Set(all).size, 151);
});

test('after a crash between publish and acknowledgement the same byte ranges are replayed with the same ids', async (t) => {
  const { loc, cp } = setup(t);
  mkdirSync(join(loc, 'rphost_1'));
  const f = join(loc, 'rphost_1', '26113014.log');
  writeFileSync(f, `${line(1, 'a')}${line(2, 'b')}`);
  const lost: Segment[] = [];
  // The downstream takes the segment and never answers: the process dies before the acknowledgement.
  const s1 = source(loc, cp, (seg) => { lost.push(seg); return new Promise(() => {}); });
  await s1.start();
  await until('the unacknowledged segment', () => lost.length === 1);
  await s1.stop();
  appendFileSync(f, line(3, 'c'));
  const c = collector();
  const s2 = source(loc, cp, c.publish);
  await s2.start();
  t.teardown(() => s2.stop());
  await until('all three events', () => c.events().length === 3);
  t.is(c.segments[0]?.id, lost[0]?.id, 'the replay covers exactly the lost range');
  t.deepEqual(c.segments[0]?.tables, lost[0]?.tables);
  t.deepEqual(users(c), ['a', 'b', 'c']);
});

test('two files whose first lines are identical are two files', async (t) => {
  const { loc, cp } = setup(t);
  for (const p of ['rphost_1', 'rphost_2']) {
    mkdirSync(join(loc, p));
    writeFileSync(join(loc, p, '26113014.log'), line(1, 'same'));
  }
  const c = collector();
  const s = source(loc, cp, c.publish, 'backfill');
  await s.start();
  await s.done();
  await s.stop();
  t.is(c.events().length, 2);
  t.is(new Set(c.events().map((e) => e.file_key)).size, 2);
});

test('a file finished by a backfill is read on by a follower when it grows', async (t) => {
  const { loc, cp } = setup(t);
  mkdirSync(join(loc, 'rphost_1'));
  const f = join(loc, 'rphost_1', '26113014.log');
  writeFileSync(f, line(1, 'a'));
  const first = collector();
  const backfill = source(loc, cp, first.publish, 'backfill');
  await backfill.start();
  await backfill.done();
  await backfill.stop();
  t.deepEqual(users(first), ['a']);
  appendFileSync(f, line(2, 'b'));
  const second = collector();
  const follow = source(loc, cp, second.publish);
  await follow.start();
  t.teardown(() => follow.stop());
  await until('the appended event', () => second.events().length === 1);
  t.deepEqual(users(second), ['b']);
});

test('a file written a little at a time is cut into segments by the delay, not one per write, each cut in time', async (t) => {
  const { loc, cp } = setup(t);
  mkdirSync(join(loc, 'rphost_1'));
  const f = join(loc, 'rphost_1', '26113014.log');
  writeFileSync(f, '');
  const c = collector();
  const cutAt: number[] = [];
  const s = createFileSource({
    source: 'tj', family: 'tj', host: 'h', checkpointDir: cp,
    ...tjSourceParts({ location: loc, tz: 'UTC', hour: null, idle_finish_ms: 60_000 }, 'h'),
    publish: async (seg) => { cutAt.push(performance.now()); await c.publish(seg); }, events: silentSourceEvents, mode: 'follow',
    pollIntervalMs: 50, segmentBytes: 1 << 20, segmentDelayMs: 300, maxInFlightPerFile: 2, readChunkBytes: 64 * 1024, backfillConcurrency: 1,
  });
  await s.start();
  t.teardown(() => s.stop());
  let lastWrite = 0;
  for (let i = 0; i < 30; i++) {
    appendFileSync(f, line(i % 60, `u${i}`));
    lastWrite = performance.now();
    await new Promise((r) => setTimeout(r, 40));
  }
  await until('all 30 events', () => c.events().length === 30);
  // Bounds loose enough for a loaded machine (how long after its delay a cut comes is bench material): one
  // segment per write would give 30, one segment for the whole file 1; a 300 ms delay over 1.2 s of writes gives ~4.
  t.true(c.segments.length >= 2 && c.segments.length <= 15, `${c.segments.length} segments for 30 writes over 1.2 s`);
  t.true((cutAt[0] ?? Infinity) < lastWrite, 'the first segment is cut once its delay is over, while the file is still being written');
  t.deepEqual(users(c), Array.from({ length: 30 }, (_, i) => `u${i}`).sort());
});
