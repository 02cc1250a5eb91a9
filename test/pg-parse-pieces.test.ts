// `parse pg` in pieces on several threads (cli/ndjson/pg-pieces.ts) prints exactly what the one-thread path
// prints: the same bytes on stdout and the same ingest errors, lock-wait episodes included when a wait starts in one
// piece and ends in another. Pieces are cut small here so that a small log crosses many cuts.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgParser } from '../parsers/pg/index.js';
import { createLockEpisodeBuilder } from '../parsers/pg/lock-episodes.js';
import { compilePrefix } from '../parsers/pg/prefix.js';
import type { IngestError } from '../schemas/ingest-error.js';
import { pgLines } from '../cli/ndjson/pg-lines.js';
import { pieceStarts } from '../cli/ndjson/file-pieces.js';
import { parsePgInPieces, startsEntry } from '../cli/ndjson/pg-pieces.js';
import { runCli } from './support/cli.js';
import { corpusDir, missingCorpus, testIf } from './support/prerequisites.js';

const PREFIX = '%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ';

interface Printed { ndjson: Buffer; errors: IngestError[] }

function oneThread(file: string, prefix: string): Printed {
  const bytes = readFileSync(file);
  const encoder = pgLines(createPgParser({ host: 'h', source: 'pg', file, file_key: 'k', offset: 0, format: 'stderr', prefix }), createLockEpisodeBuilder());
  const parts: Buffer[] = [];
  const errors: IngestError[] = [];
  const take = (pieces: ReturnType<typeof encoder.push>) => { for (const p of pieces) { parts.push(Buffer.from(p.ndjson)); errors.push(...p.errors); } };
  for (let at = 0; at < bytes.length; at += 64 * 1024) take(encoder.push(bytes.subarray(at, at + 64 * 1024)));
  take(encoder.finish());
  return { ndjson: Buffer.concat(parts), errors };
}

async function inPieces(file: string, prefix: string, bytesPerPiece: number): Promise<Printed & { pieces: number; lines: number }> {
  const starts = pieceStarts(file, bytesPerPiece, startsEntry(compilePrefix(prefix)));
  const parts: Buffer[] = [];
  const errors: IngestError[] = [];
  const counted = await parsePgInPieces({ parser: { host: 'h', source: 'pg', file, file_key: 'k', prefix }, chunkBytes: 64 * 1024 }, readFileSync(file).length, starts, 2, async (pieces) => {
    for (const p of pieces) { parts.push(Buffer.from(p.ndjson)); errors.push(...p.errors); }
  });
  return { ndjson: Buffer.concat(parts), errors, pieces: starts.length + 1, lines: counted.lines };
}

/**
 * A log whose lock waits outlast pieces: each wait's `still waiting` (with DETAIL, CONTEXT and a STATEMENT continued
 * on a TAB line) comes ~6 KB before its `acquired`, with the holder's statements, orphan lines, a CRLF entry and a
 * label whose entry is elsewhere in between.
 */
function writeLog(dir: string): string {
  const lines: string[] = [];
  const at = (s: number) => `2026-03-02 10:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.${String(s % 1000).padStart(3, '0')} UTC`;
  const p = (s: number, pid: number, n: number, app: string) => `${at(s)} [${pid}]: [${n}-1] user=app,db=shop,app=${app},client=[local] `;
  for (let i = 0; i < 120; i++) {
    const holder = 1000 + i;
    const waiter = 5000 + i;
    lines.push(`${p(i, holder, 1, 'h')}LOG:  duration: 0.${i} ms  statement: UPDATE stock SET qty = qty - 1 WHERE id = ${i}`);
    lines.push(`${p(i, waiter, 1, 'w')}LOG:  process ${waiter} still waiting for ShareLock on transaction ${9000 + i} after 1000.${i} ms`);
    lines.push(`${p(i, waiter, 2, 'w')}DETAIL:  Process holding the lock: ${holder}. Wait queue: ${waiter}.`);
    lines.push(`${p(i, waiter, 3, 'w')}CONTEXT:  while updating tuple (0,${i}) in relation "stock"`);
    lines.push(`${p(i, waiter, 4, 'w')}STATEMENT:  UPDATE stock SET qty = qty - 2`, `\tWHERE id = ${i}`);
    for (let k = 0; k < 40; k++) lines.push(`${p(i, 200 + k, 1, 'f')}LOG:  duration: ${k}.25 ms  statement: SELECT ${k} FROM filler WHERE note = 'x ${'y'.repeat(k)}'`);
    if (i % 7 === 0) lines.push(`an orphan line without the prefix ${i}`, '');
    if (i % 11 === 0) lines.push(`${p(i, 333, 1, 'c')}LOG:  checkpoint starting: time\r`);
    if (i % 13 === 0) lines.push(`${p(i, 4444, 9, 'x')}HINT:  a label whose entry is not here`);
    lines.push(`${p(i + 1, waiter, 5, 'w')}LOG:  process ${waiter} acquired ShareLock on transaction ${9000 + i} after 1500.${i} ms`);
  }
  lines.push(`${p(200, 77, 1, 'e')}ERROR:  canceling statement due to lock timeout`);
  const file = join(dir, 'postgresql.log');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

test('a log cut into pieces prints the same bytes and errors as one thread, episodes across cuts included', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-pieces-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = writeLog(dir);
  const one = oneThread(file, PREFIX);
  const episodes = one.ndjson.toString().split('\n').filter((l) => l.includes('"lock_episodes":[{')).length;
  t.is(episodes, 120, 'every wait closes with an episode');
  for (const size of [4096, 10_000, 64 * 1024]) {
    const many = await inPieces(file, PREFIX, size);
    t.true(many.pieces > 5, `${many.pieces} pieces of ${size} bytes`);
    t.true(many.ndjson.equals(one.ndjson), `the lines in pieces of ${size} bytes`);
    t.deepEqual(many.errors, one.errors);
    t.is(many.lines, one.ndjson.toString().split('\n').length - 1);
  }
});

test('a cut never falls on a label, a continuation or an orphan line: each piece starts with an entry', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-pieces-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = writeLog(dir);
  const bytes = readFileSync(file);
  const starts = pieceStarts(file, 2048, startsEntry(compilePrefix(PREFIX)));
  t.true(starts.length > 20);
  for (const s of starts) {
    t.is(bytes[s - 1], 10);
    const line = bytes.toString('utf8', s, bytes.indexOf(10, s));
    t.regex(line, /^2026-03-02 [\d:.]+ UTC \[\d+\]: \[\d+-1\] user=app,db=shop,app=\w,client=\[local\] (LOG|ERROR):  /, line);
  }
});

const CORPUS_LOG = 'pg/generated/postgresql-phase1.log';
testIf(missingCorpus(CORPUS_LOG))('the corpus log (real PostgreSQL 15 lock waits) in pieces of 16 KiB prints what one thread prints', async (t) => {
  const corpus = join(corpusDir, CORPUS_LOG);
  const one = oneThread(corpus, PREFIX);
  const many = await inPieces(corpus, PREFIX, 16 * 1024);
  t.true(many.pieces > 20);
  t.true(many.ndjson.equals(one.ndjson));
  t.deepEqual(many.errors, one.errors);
});

test('`perfpipe parse pg` of a log above 8 MiB goes through the pieces and prints what one thread prints', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-pieces-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const one = readFileSync(writeLog(dir));
  const big = join(dir, 'big.log');
  writeFileSync(big, Buffer.concat(Array.from({ length: Math.ceil((9 << 20) / one.length) }, () => one)));
  const args = ['parse', 'pg', big, '--pg-prefix', PREFIX, '--host', 'h'];
  // Two threads whatever the machine's load (a busy machine would otherwise parse it on one).
  const [pieces, single] = await Promise.all([runCli(args, { PERFPIPE_PIECE_THREADS: '2' }), runCli(args, { PERFPIPE_PG_PIECE_BYTES: String(1 << 30) })]);
  t.is(pieces.code, 0, pieces.stderr);
  t.is(single.code, 0, single.stderr);
  t.true(pieces.stdout.length > 30 << 20);
  t.is(pieces.stdout, single.stdout);
  t.is(pieces.stderr, single.stderr);
});
