// The framer's window between reads of a followed file: a daemon follows dozens of files, so what one framer keeps
// while its file waits for more is multiplied by them all (docs/write-path.md §7).
import test from 'ava';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TjEventScanner } from './event-scanner.js';
import { Found, TjFramer } from './framing.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const events = (n: number, from = 0): Buffer =>
  Buffer.from(Array.from({ length: n }, (_, i) => `00:${String((from + i) % 60).padStart(2, '0')}.${String(i % 1e6).padStart(6, '0')}-1,CALL,1,process=rphost,p:processName=base,Context=x\n`).join(''));

test('once reading stops, the window a large read grew is no longer kept alive by the framer or the scanner', async (t) => {
  // As the TJ row encoder reads (ingest/source/tj/tj-row-encoder.ts): the framer finds, the scanner reads each event.
  const framer = new TjFramer(0);
  const scanner = new TjEventScanner({ hour: '26120309', tz: 'UTC' }, () => 0);
  framer.push(events(20_000));
  let frames = 0;
  while (framer.next() !== Found.nothing) if (scanner.read(framer)) frames++;
  t.true(frames >= 19_999);
  const large = new WeakRef(framer.window.buffer);
  t.true(framer.window.buffer.byteLength >= 1 << 20);
  framer.idle();
  scanner.idle();
  // A WeakRef holds its target until the current job ends.
  await new Promise((r) => setImmediate(r));
  gc();
  t.is(large.deref(), undefined, 'the megabyte window is garbage once reading stopped');
  // And reading on from there finds the same events as before.
  framer.push(events(3, 7));
  let more = 0;
  while (framer.next() !== Found.nothing) more++;
  t.true(more >= 2);
});
