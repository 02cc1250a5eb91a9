// The read-ahead budget: a segment starts only when what it may hold fits beside what is held, waiters are let in
// in order, and a daemon that follows many files far behind holds about the budget, not a segment per file.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Segment } from '../bus/bus.js';
import { createFileSource } from './file-source.js';
import { ReadAhead } from './read-ahead.js';
import { silentSourceEvents } from './source-events.js';
import { tjSourceParts } from './tj/tj-source.js';

const never = new AbortController().signal;

test('bytes that fit are let in at once; the rest wait in order until enough is given back', async (t) => {
  const ra = new ReadAhead(100);
  t.true(await ra.admit(60, never));
  const order: string[] = [];
  const b = ra.admit(50, never).then(() => order.push('b'));
  const c = ra.admit(10, never).then(() => order.push('c'));
  await new Promise((r) => setImmediate(r));
  t.deepEqual(order, [], 'c fits, but waits behind b');
  ra.change(-60);
  await Promise.all([b, c]);
  t.deepEqual(order, ['b', 'c']);
  t.is(ra.bytes, 60);
});

test('a segment larger than the whole budget starts once nothing else is held', async (t) => {
  const ra = new ReadAhead(100);
  t.true(await ra.admit(30, never));
  let started = false;
  const big = ra.admit(500, never).then(() => { started = true; });
  await new Promise((r) => setImmediate(r));
  t.false(started);
  ra.change(-30);
  await big;
  t.is(ra.bytes, 500);
});

test('a wait that is aborted holds nothing and lets the next waiter in', async (t) => {
  const ra = new ReadAhead(100);
  t.true(await ra.admit(80, never));
  const stop = new AbortController();
  const first = ra.admit(50, stop.signal);
  const second = ra.admit(10, never);
  stop.abort();
  t.false(await first);
  t.true(await second);
  t.is(ra.bytes, 90);
});

test('thirty files far behind hold about the budget, and every event is published once', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'perfpipe-read-ahead-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const loc = join(root, 'tj');
  let events = 0;
  for (let p = 0; p < 30; p++) {
    mkdirSync(join(loc, `rphost_${p}`), { recursive: true });
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++, events++) lines.push(`00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(6, '0')}-5,CALL,1,Usr=u${p},Context=${'Форма.Записать '.repeat(8)}`);
    writeFileSync(join(loc, `rphost_${p}`, '26113014.log'), `${lines.join('\n')}\n`);
  }
  const segmentBytes = 64 * 1024;
  const readChunkBytes = 16 * 1024;
  const ra = new ReadAhead(2 * segmentBytes);
  let most = 0;
  let published = 0;
  let inFlight = 0;
  let mostInFlight = 0;
  let store: Promise<void> = Promise.resolve();
  const source = createFileSource({
    source: 'tj', family: 'tj', host: 'h', checkpointDir: join(root, 'checkpoints'),
    ...tjSourceParts({ location: loc, tz: 'UTC', hour: null, idle_finish_ms: 60_000 }, 'h'),
    // The store inserts one segment at a time, a few milliseconds each, as the embedded engine does.
    publish: (s: Segment) => {
      most = Math.max(most, ra.bytes);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      store = store.then(() => new Promise((r) => setTimeout(r, 5))).then(() => { inFlight--; published += s.records; });
      return store;
    },
    events: silentSourceEvents, mode: 'follow', pollIntervalMs: 50, segmentBytes, segmentDelayMs: 200,
    maxInFlightPerFile: 1, readChunkBytes, backfillConcurrency: 2, readAhead: ra,
  });
  await source.start();
  t.teardown(() => source.stop());
  const deadline = Date.now() + 60_000;
  while (published < events && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  t.is(published, events);
  // A started segment reads on to its cut: one read past it, at most, and the last event's unsettled bytes.
  t.true(most <= 2 * segmentBytes + 2 * readChunkBytes, `held at most ${most} bytes`);
  // Without the budget the files cut what they held at the end of their segment delay, all at once (5 here).
  t.true(mostInFlight <= 3, `${mostInFlight} segments in flight at once`);
  await source.stop();
  t.is(ra.bytes, 0, 'a stopped source holds nothing');
});
