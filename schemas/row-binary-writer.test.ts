// The RowBinary writer hands each segment's bytes over whole and writes the next segment into a buffer given back
// by an acknowledged one: a backfill keeps two buffers alive (the segment in flight and the one being written),
// not one per segment (docs/write-path.md §7). The order below is file-tail's: segment N is acknowledged and
// given back while N+1 is being written, then N+1 is cut and N+2 starts.
import test from 'ava';
import { RowBinaryWriter } from './row-binary.js';

const write = (w: RowBinaryWriter, bytes: number, fill: number): void => { for (let i = 0; i < bytes; i++) w.u8(fill); };

test('the segment after next goes into the buffer given back, even when it is a little larger than the last', (t) => {
  const w = new RowBinaryWriter(1024);
  write(w, 100_000, 1);
  const first = w.finish();
  write(w, 100_000, 2);
  w.recycle(first); // acknowledged while the second was written
  const second = w.finish();
  // 3 % larger than the second: within the eighth the first buffer was not necessarily given on top.
  write(w, 103_000, 3);
  const third = w.finish();
  t.is(third.buffer, first.buffer, 'the third segment went into the first one\'s buffer');
  t.true(second.every((b) => b === 2), 'the segment in flight was not written over');
  t.true(third.every((b) => b === 3));
  t.is(third.length, 103_000);
});

test('only one buffer given back is kept', (t) => {
  const w = new RowBinaryWriter(1024);
  write(w, 50_000, 1);
  const a = w.finish();
  write(w, 50_000, 2);
  const b = w.finish();
  w.recycle(a);
  w.recycle(b); // a spare is kept already: this one is let go
  write(w, 50_000, 3);
  w.finish(); // the next segment goes into a
  write(w, 50_000, 4);
  const d = w.finish();
  write(w, 50_000, 5);
  const e = w.finish();
  t.is(d.buffer, a.buffer);
  t.not(e.buffer, b.buffer, 'the second buffer given back was not kept');
  t.true(b.every((x) => x === 2), 'nothing was written into the buffer let go');
  t.true(e.every((x) => x === 5));
});

test('a spare too small for the last segment is let go rather than grown into', (t) => {
  const w = new RowBinaryWriter(1024);
  write(w, 5_000, 1);
  const small = w.finish();
  write(w, 500_000, 2);
  w.recycle(small);
  w.finish();
  write(w, 500_000, 3);
  const next = w.finish();
  t.not(next.buffer, small.buffer);
  t.true(next.every((x) => x === 3));
});
