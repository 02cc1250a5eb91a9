// pgLines against the previous `parse pg` (the episode stream's events, JSON.stringify'd): the corpus log repeated,
// with its lock waits, gives the same bytes and errors in any chunking, and so does a log with an entry over the
// size bound (an ingest error).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPgEpisodeStream } from '../../parsers/pg/episode-stream.js';
import { createPgParser, type PgParserOptions } from '../../parsers/pg/index.js';
import { createLockEpisodeBuilder } from '../../parsers/pg/lock-episodes.js';
import { corpusDir, missingCorpus, testIf } from '../../test/support/prerequisites.js';
import { type NdjsonEncoder, type NdjsonPiece, recordLines } from './ndjson-encoder.js';
import { pgLines } from './pg-lines.js';

const seed = join(corpusDir, 'pg', 'generated', 'postgresql-phase1.log');
const options: PgParserOptions = {
  host: 'h', source: 'pg', file: 'postgresql.log', file_key: 'k', offset: 0, format: 'stderr',
  prefix: '%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ', tz: 'Europe/Moscow', maxRecordBytes: 1024 * 1024,
};

function run(encoder: NdjsonEncoder, bytes: Buffer, step: number): { ndjson: Buffer; errors: unknown[] } {
  const pieces: NdjsonPiece[] = [];
  for (let at = 0; at < bytes.length; at += step) pieces.push(...encoder.push(Buffer.from(bytes.subarray(at, at + step))));
  pieces.push(...encoder.finish());
  return { ndjson: Buffer.concat(pieces.map((p) => p.ndjson)), errors: pieces.flatMap((p) => p.errors) };
}

testIf(missingCorpus('pg/generated/postgresql-phase1.log'))('entries with their lock-wait episodes, byte for byte as the episode stream printed them', (t) => {
  const log = readFileSync(seed);
  const huge = Buffer.from(`2026-11-30 14:09:45.343 UTC [4242]: [1-1] user=a,db=b,app=c,client=d LOG:  statement: SELECT '${'x'.repeat(3 * 1024 * 1024)}\n`);
  const bytes = Buffer.concat([log, log, huge, log]);
  for (const step of [1 << 20, 65_536, 7_777]) {
    const before = run(recordLines(createPgEpisodeStream(createPgParser(options))), bytes, step);
    const now = run(pgLines(createPgParser(options), createLockEpisodeBuilder()), bytes, step);
    t.true(before.ndjson.toString().includes('"outcome":"acquired"'), 'the log has lock-wait episodes');
    t.true(before.errors.length > 0, 'the entry over the bound is an ingest error');
    t.true(now.ndjson.equals(before.ndjson), `steps of ${step} bytes`);
    t.deepEqual(now.errors, before.errors);
  }
});
