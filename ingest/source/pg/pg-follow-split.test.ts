// A young stderr log followed while it is written (as `run` follows a live simulate --realtime): reads end wherever the
// writer stopped, often mid-line, and the prefix found in the first lines is refined as the file grows. Whatever
// the pieces, the entries must be those of the whole file parsed at once.
import test from 'ava';
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncrementalParser } from '../../../parsers/parser.js';
import { createPgEpisodeStream } from '../../../parsers/pg/episode-stream.js';
import { createPgParser } from '../../../parsers/pg/index.js';
import type { PgStreamEvent } from '../../../schemas/pg-stream-event.js';
import { createPgRowBuilder } from './pg-rows.js';
import { pgSourceParts } from './pg-source.js';

const entry = (i: number): string => `2026-12-03 14:09:${String(10 + (i % 50)).padStart(2, '0')}.809 UTC [${391267 + i}] usr1cv8@zup_load `
  + `LOG:  duration: 212.755 ms  execute <unnamed>: SELECT\n\tT1._IDRRef,\n\tT1._Fld521\n\tFROM _Reference28054 T1\n`
  + '\tWHERE ((T1._Fld521 = CAST(0 AS NUMERIC)))\n\tLIMIT 1000\n';
const LOG = '2026-12-03 14:08:14.590 UTC [812] LOG:  database system is ready to accept connections\n'
  + Array.from({ length: 5 }, (_, i) => entry(i)).join('');
const bytes = Buffer.from(LOG);

const dir = mkdtempSync(join(tmpdir(), 'perfpipe-pgfollow-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const view = (events: PgStreamEvent[]) => events.map((e) => [e.origin.offset, e.kind, e.severity, e.ts, e.user, e.message]);

function wholeFile(): ReturnType<typeof view> {
  const p = createPgEpisodeStream(createPgParser({
    host: 'h', source: 'pg', file: 'f', file_key: 'k', offset: 0, format: 'stderr', prefix: '%m [%p] %q%u@%d ',
  }));
  return view([...p.push(bytes).events, ...p.finish().events]);
}

/** Writes LOG in pieces at `cuts` and reads each piece as `run` does: discover (the reading decided anew), then push. */
async function followed(name: string, cuts: number[]): Promise<ReturnType<typeof view>> {
  const file = join(dir, `postgresql-${name}.log`);
  writeFileSync(file, '');
  const parts = pgSourceParts({ location: dir, format: null, prefix: null, filename: `postgresql-${name}.log`, tz: null, idle_finish_ms: 60_000 }, 'h', 'follow');
  let parser: IncrementalParser<PgStreamEvent> | null = null;
  const got: PgStreamEvent[] = [];
  let read = 0;
  let written = 0;
  for (const end of [...cuts, bytes.length]) {
    appendFileSync(file, bytes.subarray(written, end));
    written = end;
    if ((await parts.discover()).length === 0) continue; // nothing decided yet: the tail is not opened
    if (parser === null) {
      const st = statSync(file);
      parser = parts.createParser(file, { file_key: 'k', fingerprint: 'f', dev: st.dev, ino: st.ino }, 0, createPgRowBuilder()) as IncrementalParser<PgStreamEvent>;
    }
    got.push(...parser.push(bytes.subarray(read, end)).events);
    read = end;
  }
  if (parser !== null) got.push(...parser.finish().events);
  return view(got);
}

test('a followed log cut at any byte, its prefix found from its first lines, gives the whole file\'s entries', async (t) => {
  const expected = wholeFile();
  const wrong: string[] = [];
  // The first piece ends anywhere in the first two entries (the prefix is refined there: `%m [%p] ` from the first
  // line alone, `%m [%p] %q%u@%d ` once a session's line is there); later pieces of 97 bytes cut lines anywhere.
  for (let first = 1; first < 320 && wrong.length === 0; first++) {
    const cuts: number[] = [];
    for (let at = first; at < bytes.length; at += 97) cuts.push(at);
    if (JSON.stringify(await followed(`a${first}`, cuts)) !== JSON.stringify(expected)) wrong.push(`first piece ${first} bytes`);
  }
  for (let size = 1; size < 120 && wrong.length === 0; size++) {
    const cuts: number[] = [];
    for (let at = size; at < bytes.length; at += size) cuts.push(at);
    if (JSON.stringify(await followed(`b${size}`, cuts)) !== JSON.stringify(expected)) wrong.push(`pieces of ${size} bytes`);
  }
  t.deepEqual(wrong, []);
});
