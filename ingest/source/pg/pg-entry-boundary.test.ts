// What the source promises a crash replay: a segment cut at `settled` and re-read over exactly its byte range by a
// fresh parser gives the same entries (and lock-wait episodes), which needs the peek at the next line for stderr.
import test from 'ava';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncrementalParser } from '../../../parsers/parser.js';
import { createPgEpisodeStream } from '../../../parsers/pg/episode-stream.js';
import { createPgParser } from '../../../parsers/pg/index.js';
import { compilePrefix } from '../../../parsers/pg/prefix.js';
import type { PgStreamEvent } from '../../../schemas/pg-stream-event.js';
import { createPgRowBuilder } from './pg-rows.js';
import { pgSourceParts } from './pg-source.js';
import { startsNewEntry } from './pg-entry-boundary.js';

const L = (ts: string, pid: number, rest: string): string => `2026-11-30 14:09:${ts} UTC [${pid}] ${rest}\n`;
const LOG = [
  L('45.500', 1, 'LOG:  duration: 0.5 ms  statement: UPDATE a SET x = 1'), '\tWHERE id = 1;\n',
  L('45.948', 2, 'LOG:  process 2 still waiting for ShareLock on transaction 731 after 100.061 ms'),
  L('45.948', 2, 'DETAIL:  Process holding the lock: 1. Wait queue: 2.'),
  L('45.948', 2, 'STATEMENT:  UPDATE a SET x = 2 WHERE id = 1;'),
  '\n',
  L('46.000', 3, 'LOG:  duration: 2.0 ms  statement: SELECT 1;'),
  'archive_command output without a prefix\n',
  L('46.100', 4, 'LOG:  process 4 still waiting for ShareLock on transaction 732 after 100.000 ms'),
  L('46.100', 4, 'DETAIL:  Process holding the lock: 1. Wait queue: 4.'),
  L('46.500', 4, 'ERROR:  canceling statement due to lock timeout'),
  L('46.500', 4, 'STATEMENT:  DELETE FROM a;'),
  L('47.047', 1, 'LOG:  duration: 1503.494 ms  statement: COMMIT;'),
  L('47.048', 2, 'LOG:  process 2 acquired ShareLock on transaction 731 after 1199.185 ms'),
  L('47.100', 3, 'LOG:  duration: 1.0 ms  statement: SELECT 2;'),
].join('').repeat(3);

const dir = mkdtempSync(join(tmpdir(), 'perfpipe-pgpeek-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'postgresql-2026-11-30.log');
writeFileSync(file, LOG);
const st = statSync(file);
const identity = { file_key: 'k', fingerprint: 'f', dev: st.dev, ino: st.ino };
const bytes = Buffer.from(LOG);

const withPeek = (offset: number) => pgSourceParts({
  location: dir, format: 'stderr', prefix: '%m [%p] ', filename: 'postgresql-*', tz: null, idle_finish_ms: 0,
}, 'h').createParser(file, identity, offset, createPgRowBuilder()) as IncrementalParser<PgStreamEvent>;
const detected = pgSourceParts({ location: dir, format: null, prefix: null, filename: 'postgresql-*', tz: null, idle_finish_ms: 0 }, 'h', 'backfill');
const withFoundPrefix = (offset: number) => detected.createParser(file, identity, offset, createPgRowBuilder()) as IncrementalParser<PgStreamEvent>;
const withoutPeek = (offset: number) => createPgEpisodeStream(createPgParser({ host: 'h', source: 'pg', file, file_key: 'k', offset, format: 'stderr' }));

const view = (events: PgStreamEvent[]) => events.map((e) => [e.origin.offset, e.kind, e.message, e.detail, e.statement, e.lock_episodes.map((ep) => ep.outcome)]);

/** Segments as a FileTail cuts them: after each read, [previous end, settled) with what was handed out. */
function segments(make: (o: number) => IncrementalParser<PgStreamEvent>, chunk: number) {
  const p = make(0);
  const out: Array<{ start: number; end: number; events: PgStreamEvent[] }> = [];
  let start = 0;
  for (let at = 0; at < bytes.length; at += chunk) {
    const events = p.push(bytes.subarray(at, Math.min(bytes.length, at + chunk))).events;
    out.push({ start, end: p.settled, events });
    start = p.settled;
  }
  return out;
}

/** Replays each segment as FileTail does after a crash: a fresh parser at its start, reading exactly to its end. */
function mismatches(make: (o: number) => IncrementalParser<PgStreamEvent>, chunk: number): number {
  let bad = 0;
  for (const seg of segments(make, chunk)) {
    const p = make(seg.start);
    const again = p.push(bytes.subarray(seg.start, seg.end)).events;
    if (JSON.stringify(view(again)) !== JSON.stringify(view(seg.events))) bad++;
  }
  return bad;
}

test('every segment replays to the same entries with the peek, for reads of any size', (t) => {
  for (const chunk of [17, 64, 100, 211, 512, 4096]) t.is(mismatches(withPeek, chunk), 0, `reads of ${chunk} bytes`);
});

test('without the peek, replays that stop where the next entry begins lose their last entry (the test can fail)', (t) => {
  t.true([17, 64, 100, 211, 512].some((chunk) => mismatches(withoutPeek, chunk) > 0));
});

test('with no prefix given, the one the first lines show is found and every segment replays the same', async (t) => {
  t.deepEqual(await detected.discover(), [file]);
  for (const chunk of [17, 211, 4096]) t.is(mismatches(withFoundPrefix, chunk), 0, `reads of ${chunk} bytes`);
  const found = withFoundPrefix(0);
  const alone = withoutPeek(0);
  t.deepEqual(view([...found.push(bytes).events, ...found.finish().events]), view([...alone.push(bytes).events, ...alone.finish().events]));
});

/** `text` read whole by the parser alone, and in pieces of `size` bytes with the peek. */
function wholeAndPieces(text: Buffer, size: number) {
  const whole = withoutPeek(0);
  const p = withPeek(0);
  const got: PgStreamEvent[] = [];
  for (let at = 0; at < text.length; at += size) got.push(...p.push(text.subarray(at, at + size)).events);
  got.push(...p.finish().events);
  return { pieces: view(got), whole: view([...whole.push(text).events, ...whole.finish().events]) };
}

test('reading whole or in pieces gives the same entries as the parser alone', (t) => {
  const { pieces, whole } = wholeAndPieces(bytes, 37);
  t.deepEqual(pieces, whole);
});

test('the next line decides: severity and unprefixed lines start an entry, TAB and DETAIL lines continue', (t) => {
  const m = compilePrefix('%m [%p] ');
  t.true(startsNewEntry(Buffer.from('\n' + L('41.000', 1, 'LOG:  x')), m));
  t.true(startsNewEntry(Buffer.from('pg_ctl output\n'), m));
  t.false(startsNewEntry(Buffer.from('\tmore\n'), m));
  t.false(startsNewEntry(Buffer.from(L('41.000', 1, 'DETAIL:  x')), m));
  t.is(startsNewEntry(Buffer.from('2026-11-30 14:09:4'), m), null);
});

test('a line longer than the peek, read in pieces, gives the same entries as the parser alone', (t) => {
  const long = Buffer.from(L('41.000', 9, `LOG:  duration: 1.0 ms  statement: SELECT '${'x'.repeat(200 * 1024)}'`) + LOG);
  const { pieces, whole } = wholeAndPieces(long, 7000);
  t.deepEqual(pieces, whole);
});
