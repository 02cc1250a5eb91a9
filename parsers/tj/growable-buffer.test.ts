// The framer's window: appends keep absolute offsets, and shrinking between reads keeps exactly the bytes not yet
// discarded while giving back the room a large read left.
import test from 'ava';
import { GrowableBuffer } from './growable-buffer.js';

const bytes = (n: number, seed: number): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff));

test('after a 1 MiB read whose last event is unfinished, shrinking keeps that event only', (t) => {
  const w = new GrowableBuffer();
  w.reset(5000);
  const chunk = bytes(1 << 20, 1);
  w.append(chunk);
  const end = 5000 + chunk.length;
  w.discardBefore(end - 100);
  t.true(w.bytes.length >= 1 << 20);
  w.shrink();
  t.is(w.bytes.length, 100);
  t.deepEqual(w.slice(end - 100, end), chunk.subarray(chunk.length - 100));
  const more = bytes(300, 7);
  w.append(more);
  t.is(w.end, end + 300);
  t.deepEqual(w.slice(end - 100, end + 300), Buffer.concat([chunk.subarray(chunk.length - 100), more]));
});

test('a window that is mostly in use, or small, is kept as it is', (t) => {
  const w = new GrowableBuffer();
  w.reset(0);
  w.append(bytes(1 << 20, 2));
  w.discardBefore(100);
  const held = w.bytes;
  w.shrink();
  t.is(w.bytes, held, 'an event of most of a megabyte still being read');
  const small = new GrowableBuffer();
  small.reset(0);
  small.append(bytes(1000, 3));
  small.discardBefore(990);
  const smallHeld = small.bytes;
  small.shrink();
  t.is(small.bytes, smallHeld, 'a 64 KiB window is not worth a copy');
});

test('shrinking between reads also drops the read events that discarding left in place', (t) => {
  // A followed file: a 1 MiB read made the window 1 MiB; the next read of 500 KiB is settled but for its last 100
  // bytes, and that dead prefix is too small to be moved out at once, so it stays in the window.
  const w = new GrowableBuffer();
  w.reset(0);
  w.append(bytes(1 << 20, 4));
  w.discardBefore((1 << 20) - 10);
  w.append(bytes(500 * 1024, 5));
  const end = w.end;
  w.discardBefore(end - 100);
  t.is(w.bytes.length, 1 << 20, 'the window still holds the read events');
  const last = Buffer.from(w.slice(end - 100, end));
  w.shrink();
  t.is(w.bytes.length, 100);
  t.is(w.end, end);
  t.deepEqual(w.slice(end - 100, end), last);
  w.append(bytes(50, 6));
  t.deepEqual(w.slice(end - 100, end + 50), Buffer.concat([last, bytes(50, 6)]));
});
