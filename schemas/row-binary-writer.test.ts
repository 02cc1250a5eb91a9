// The RowBinary writer hands each segment's bytes over whole and writes the next segment into a buffer given back
// by an acknowledged one: a backfill keeps two buffers alive (the segment in flight and the one being written),
// not one per segment, and the buffers of a file read to its end serve the next file (docs/write-path.md §7). The
// order below is file-tail's: segment N is acknowledged and given back while N+1 is being written, then N+1 is cut
// and N+2 starts. Each test has spares of its own, as two files' writers of one process share theirs.
import test from 'ava';
import { RowBinaryWriter, SpareBuffers } from './row-binary.js';

const KiB = 1024;
const write = (w: RowBinaryWriter, bytes: number, fill: number): void => { for (let i = 0; i < bytes; i++) w.u8(fill); };

test('the segment after next goes into the buffer given back, even when it is a little larger than the last', (t) => {
  const w = new RowBinaryWriter(300 * KiB, new SpareBuffers());
  write(w, 400_000, 1);
  const first = w.finish();
  write(w, 400_000, 2);
  w.recycle(first); // acknowledged while the second was written
  const second = w.finish();
  // 3 % larger than the second: within the eighth the first buffer was not necessarily given on top.
  write(w, 412_000, 3);
  const third = w.finish();
  t.is(third.buffer, first.buffer, 'the third segment went into the first one\'s buffer');
  t.true(second.every((b) => b === 2), 'the segment in flight was not written over');
  t.true(third.every((b) => b === 3));
  t.is(third.length, 412_000);
});

test('a writer holds no buffer between a segment handed out and its next byte', (t) => {
  const w = new RowBinaryWriter(300 * KiB, new SpareBuffers());
  t.is(w.buf.length, 0, 'nothing before the first byte');
  write(w, 400_000, 1);
  w.finish();
  t.is(w.buf.length, 0, 'nothing after the cut');
  w.u8(7);
  t.true(w.buf.length >= 400_000, 'the next buffer is sized from the last segment');
});

test('a buffer given back by one file\'s writer takes the next file\'s first segment', (t) => {
  const spares = new SpareBuffers();
  const done = new RowBinaryWriter(300 * KiB, spares);
  write(done, 2_000_000, 1);
  const last = done.finish();
  done.recycle(last); // the file's last segment was acknowledged; its writer is let go
  const next = new RowBinaryWriter(300 * KiB, spares);
  write(next, 1_500_000, 2);
  const first = next.finish();
  t.is(first.buffer, last.buffer, 'no fresh buffer while a spare holds the segment');
  t.true(first.every((b) => b === 2));
});

test('a spare too small for the last segment is not grown into, nor one more than twice its size taken', (t) => {
  const spares = new SpareBuffers();
  const w = new RowBinaryWriter(300 * KiB, spares);
  write(w, 400_000, 1);
  const small = w.finish();
  write(w, 5_000_000, 2);
  w.recycle(small);
  w.finish();
  write(w, 5_000_000, 3);
  const next = w.finish();
  t.not(next.buffer, small.buffer);
  t.true(next.every((x) => x === 3));
  const huge = new RowBinaryWriter(300 * KiB, spares);
  write(huge, 12_000_000, 4);
  const big = huge.finish();
  w.recycle(big);
  write(w, 5_000_000, 5);
  t.not(w.finish().buffer, big.buffer, 'a 12 MB spare is left for a writer it fits');
});

test('at most four spares are kept, the oldest let go first', (t) => {
  const spares = new SpareBuffers();
  const w = new RowBinaryWriter(300 * KiB, spares);
  const bodies = [1, 2, 3, 4, 5].map((fill) => { write(w, 400_000, fill); return w.finish(); });
  for (const b of bodies) w.recycle(b);
  t.is(spares.bytes, 4 * (bodies[1] as Buffer).buffer.byteLength);
  const taken = [0, 1, 2, 3].map(() => spares.take(0, Number.POSITIVE_INFINITY)?.buffer);
  t.false(taken.includes((bodies[0] as Buffer).buffer), 'the first given back was let go');
  t.is(spares.take(0, Number.POSITIVE_INFINITY), null);
});

test('small writers (a value, a constant) neither take nor give spares', (t) => {
  const spares = new SpareBuffers();
  const big = new RowBinaryWriter(300 * KiB, spares);
  write(big, 400_000, 1);
  big.recycle(big.finish());
  const small = new RowBinaryWriter(64, spares);
  small.string('Форма.Записать');
  const value = small.finish();
  t.is(value.toString('utf8', 1), 'Форма.Записать');
  t.is(spares.bytes > 0, true, 'the spare is still there');
  small.recycle(value);
  t.truthy(spares.take(400_000, Number.POSITIVE_INFINITY));
  t.is(spares.take(0, Number.POSITIVE_INFINITY), null, 'the small body was not kept');
});
