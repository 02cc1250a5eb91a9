// Pumps asked for while one runs (a scan, the delayed cut's timer, a watch event) run one after another: never two
// at once over the same offset.
import test from 'ava';
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgParser } from '../../parsers/pg/index.js';
import { createPgEpisodeStream } from '../../parsers/pg/episode-stream.js';
import type { Segment } from '../bus/bus.js';
import { CheckpointStore } from './checkpoint-store.js';
import { FileTail } from './file-tail.js';
import { createPgRowBuilder } from './pg/pg-rows.js';
import { anyLine, UNLIMITED } from './record-limits.js';
import { silentSourceEvents } from './source-events.js';
import { rowsOf } from '../../test/support/segments.js';

const entry = (i: number): string => `2026-12-03 14:09:10.${String(i % 1000).padStart(3, '0')} UTC [${1000 + i}] LOG:  duration: 1.0 ms  statement: SELECT ${i}\n\tFROM t\n`;

test('pumps asked for while one runs never read the same bytes twice', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-pumps-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'postgresql.log');
  writeFileSync(file, '');
  const handle = await open(file, 'r');
  const st = statSync(file);
  const abort = new AbortController();
  const segments: Segment[] = [];
  const tail = new FileTail({
    host: 'h', source: 'pg', family: 'pg', path: file, handle, fileKey: 'k', dev: st.dev, ino: st.ino,
    checkpoints: CheckpointStore.open(join(dir, 'cp')),
    createParser: (offset) => createPgEpisodeStream(createPgParser({ host: 'h', source: 'pg', file, file_key: 'k', offset, format: 'stderr' })),
    rows: createPgRowBuilder(), publish: async (s) => { segments.push(s); }, events: silentSourceEvents,
    segmentBytes: 4096, maxInFlight: 4, readChunkBytes: 1000, limits: UNLIMITED, isRecordStart: anyLine, signal: abort.signal,
  });
  t.teardown(async () => { abort.abort(); await tail.close(); });
  const n = 1200;
  const offsets: number[] = [0];
  for (let i = 0; i < n; i++) offsets.push((offsets[i] as number) + Buffer.byteLength(entry(i)));
  const write = (from: number, to: number): void => appendFileSync(file, Array.from({ length: to - from }, (_, i) => entry(from + i)).join(''));
  for (let round = 0; round < 3; round++) {
    const at = round * 400;
    write(at, at + 200);
    // A first pump reads these in 1,000-byte reads; a second is asked for meanwhile (a timer) and more is written.
    const first = tail.pump();
    const second = tail.pump();
    while (tail.position <= (offsets[at] as number)) await new Promise(setImmediate);
    write(at + 200, at + 400);
    await first;
    // A third once the first ended, while the second reads (a scan): it must wait for the second.
    await Promise.all([second, tail.pump()]);
  }
  appendFileSync(file, entry(n));
  await tail.pump(true);
  await tail.drain();
  t.deepEqual(segments.flatMap((s) => rowsOf(s, 'pg_log').map((r) => Number(r.file_offset))), offsets);
});
