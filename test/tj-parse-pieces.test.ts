// `parse tj` in pieces on several threads (cli/ndjson/tj-pieces.ts) prints exactly what the one-thread path prints
// (tj-ndjson.ts): the same bytes on stdout and the same ingest errors, wherever the cuts fall, including inside a
// quoted value that runs over lines and holds a line that looks like an event header, and inside a quote never closed.
import test from 'ava';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pieceStarts, pieceThreads } from '../cli/ndjson/file-pieces.js';
import type { NdjsonPiece } from '../cli/ndjson/ndjson-encoder.js';
import { createTjNdjsonEncoder, TjNdjsonLines } from '../cli/ndjson/tj-ndjson.js';
import { readTjPiece } from '../cli/ndjson/tj-piece-worker.js';
import { parseTjInPieces, PieceChain, startsEvent } from '../cli/ndjson/tj-pieces.js';
import type { TjFileContext } from '../parsers/tj/index.js';
import type { IngestError } from '../schemas/ingest-error.js';
import { runCli } from './support/cli.js';
import { tjJournal } from './support/tj-journals.js';

const ctx: TjFileContext = { host: 'h', source: 'tj', file: '/j/rphost_1/26113014.log', file_key: 'k', offset: 0, hour: '26113014', tz: 'Europe/Moscow' };

interface Printed { ndjson: Buffer; errors: IngestError[] }

function gather(pieces: NdjsonPiece[]): Printed {
  return { ndjson: Buffer.concat(pieces.map((p) => Buffer.from(p.ndjson))), errors: pieces.flatMap((p) => p.errors) };
}

function oneThread(bytes: Buffer, context = ctx): Printed {
  const encoder = createTjNdjsonEncoder(context);
  const pieces: NdjsonPiece[] = [];
  for (let at = 0; at < bytes.length; at += 64 * 1024) pieces.push(...encoder.push(bytes.subarray(at, at + 64 * 1024)));
  pieces.push(...encoder.finish());
  return gather(pieces);
}

/**
 * The pieces as the threads read them, without threads: piece i on thread i % threads (each thread's writer kept from
 * piece to piece, as a worker keeps it), then the pieces the main thread prints.
 */
function inPiecesHere(bytes: Buffer, starts: number[], chunkBytes: number): Printed & { dropped: number } {
  const threads = [new TjNdjsonLines(ctx), new TjNdjsonLines(ctx)];
  const read = (buf: Buffer, position: number): number => bytes.copy(buf, 0, position, Math.min(bytes.length, position + buf.length));
  const done = starts.map((_, i) => readTjPiece(read, threads[i % 2] as TjNdjsonLines, starts, i, chunkBytes));
  const chain = new PieceChain(starts);
  const kept = done.filter((d) => chain.keeps(d));
  return { ...gather(kept.map((d) => ({ ndjson: Buffer.from(d.ndjson), errors: d.errors }))), dropped: done.length - kept.length };
}

/** An event whose quoted value runs over lines, one of which starts like an event header. */
const HEADER_INSIDE = "00:02.000001-7,CALL,1,Context='first line\n00:03.000002-8,TLOCK,2,Usr=inside the quote\nlast line',Usr=x\n";
/** A journal: generated journals, with now and then the event above or a quote that no line closes. */
const journal = fc.array(fc.oneof(
  { weight: 6, arbitrary: tjJournal },
  { weight: 2, arbitrary: fc.constant(Buffer.from(HEADER_INSIDE)) },
  { weight: 1, arbitrary: fc.constant(Buffer.from("00:04.000001-1,CALL,1,Sql='never closed\n00:05.000001-1,CALL,1,Usr=a\n")) },
), { minLength: 1, maxLength: 8 }).map((parts) => Buffer.concat(parts));

/** Offsets of every line that starts like an event header (where pieceStarts may cut). */
function headerLines(bytes: Buffer): number[] {
  const at: number[] = [];
  for (let ls = bytes.indexOf(10) + 1; ls > 0 && ls < bytes.length; ls = bytes.indexOf(10, ls) + 1) {
    const nl = bytes.indexOf(10, ls);
    if (startsEvent(bytes, ls, nl < 0 ? bytes.length : nl)) at.push(ls);
  }
  return at;
}

test('a file above 8 MiB is parsed in pieces only while the machine has an idle core, or when the threads are set', (t) => {
  const size = 200 << 20;
  const cores = availableParallelism();
  const none = {};
  t.is(pieceThreads(size, 1 << 20, none, cores + 0.5), 0, 'no idle core');
  t.is(pieceThreads(size, 1 << 20, none, 0.2), cores >= 2 ? Math.min(cores, 4) : 0, 'an idle machine');
  t.is(pieceThreads(size, 1 << 20, { PERFPIPE_PIECE_THREADS: '3' }, cores + 10), 3);
  t.is(pieceThreads(size, 1 << 20, { PERFPIPE_PIECE_THREADS: '1' }, 0), 0, 'one thread is the one-thread path');
  t.is(pieceThreads(7 << 20, 1 << 20, { PERFPIPE_PIECE_THREADS: '3' }, 0), 0, 'below 8 MiB');
});

test('any journal, cut at any bytes or at any header-like lines: the pieces print what one thread prints', (t) => {
  let dropped = 0;
  fc.assert(fc.property(journal, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), fc.constantFrom(7, 64, 1 << 20), (bytes, picks, onHeaders, chunkBytes) => {
    const candidates = onHeaders ? headerLines(bytes) : Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    const cuts = [...new Set(picks.filter(() => candidates.length > 0).map((p) => candidates[p % candidates.length] as number))].sort((a, b) => a - b);
    const many = inPiecesHere(bytes, [0, ...cuts], chunkBytes);
    dropped += many.dropped;
    const one = oneThread(bytes);
    t.true(many.ndjson.equals(one.ndjson));
    t.deepEqual(many.errors, one.errors);
  }), { numRuns: 1500 });
  t.true(dropped > 100, `pieces dropped because their cut fell inside an event: ${dropped}`);
});

test('a cut at a header-like line inside a quoted value: the piece before reads on, the piece after is dropped', (t) => {
  const bytes = Buffer.from(`00:01.000001-1,CALL,1,Usr=a\n${HEADER_INSIDE}00:06.000001-1,CALL,1,Usr=b\n`);
  const inside = bytes.indexOf('00:03.');
  const after = bytes.indexOf('00:06.');
  const many = inPiecesHere(bytes, [0, inside, after], 1 << 20);
  t.is(many.dropped, 1);
  t.true(many.ndjson.equals(oneThread(bytes).ndjson));
  t.is(many.ndjson.toString().split('\n').length - 1, 3, 'three events, the one with the header-like line whole');
});

/** A journal of `size` bytes or more from generated ones, with the tricky events now and then. */
function writeJournal(dir: string, size: number): string {
  const parts: Buffer[] = [];
  let bytes = 0;
  for (const [i, sample] of fc.sample(tjJournal, { numRuns: 400, seed: 29 }).entries()) {
    const part = i % 50 === 7 ? Buffer.from(HEADER_INSIDE) : sample;
    parts.push(part);
    bytes += part.length;
  }
  const one = Buffer.concat(parts);
  const file = join(dir, '26113014.log');
  writeFileSync(file, Buffer.concat(Array.from({ length: Math.ceil(size / bytes) }, () => one)));
  return file;
}

test('on worker threads, pieces cut where parse tj cuts print what one thread prints', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-tj-pieces-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = writeJournal(dir, 300_000);
  const bytes = readFileSync(file);
  const one = oneThread(bytes, { ...ctx, file });
  for (const size of [2048, 16 * 1024]) {
    // Where parse tj cuts, and also at every header-like line inside a quoted value.
    const inside = headerLines(bytes).filter((at) => bytes.subarray(at, at + 6).toString() === '00:03.');
    const starts = [...new Set([0, ...pieceStarts(file, size, startsEvent), ...inside])].sort((a, b) => a - b);
    t.true(starts.length > 10 + inside.length && inside.length > 5, `${starts.length} pieces of ${size} bytes, ${inside.length} cut inside a value`);
    const pieces: NdjsonPiece[] = [];
    await parseTjInPieces({ ctx: { ...ctx, file }, starts, chunkBytes: 4096 }, 2, async (p) => { pieces.push(...p); });
    const many = gather(pieces);
    t.true(many.ndjson.equals(one.ndjson), `the lines in pieces of ${size} bytes`);
    t.deepEqual(many.errors, one.errors);
  }
});

test('`perfpipe parse tj` of a journal above 8 MiB goes through the pieces and prints what one thread prints', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-tj-pieces-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = writeJournal(dir, 9 << 20);
  const size = readFileSync(file).length;
  // Two threads whatever the machine's load (a busy machine would otherwise parse it on one).
  const forced = { PERFPIPE_PIECE_THREADS: '2' };
  t.is(pieceThreads(size, 64 * 1024, forced), 2);
  const args = ['parse', 'tj', file, '--tz', 'Europe/Moscow', '--host', 'h'];
  const [pieces, single] = await Promise.all([
    runCli(args, { PERFPIPE_TJ_PIECE_BYTES: String(64 * 1024), ...forced }),
    runCli(args, { PERFPIPE_TJ_PIECE_BYTES: String(1 << 30) }),
  ]);
  t.is(pieces.code, 0, pieces.stderr);
  t.is(single.code, 0, single.stderr);
  t.true(pieces.stdout.length > 9 << 20);
  t.is(pieces.stdout, single.stdout);
  t.is(pieces.stderr, single.stderr);
});
