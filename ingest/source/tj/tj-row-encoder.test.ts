// The byte-level TJ row encoder against the reference, the string path (createTjParser + tjEventToRow): the same
// bytes and the same ingest errors for any journal text cut into any chunks, including everything the encoder
// hands to the string path, and for the public journals of the corpus.
import test from 'ava';
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createTjParser, hourFromFileName, type TjFileContext } from '../../../parsers/tj/index.js';
import type { IngestError } from '../../../schemas/ingest-error.js';
import { createTjRowParser } from './tj-row-encoder.js';
import { createTjRowBuilder } from './tj-rows.js';
import { corpusDir, missingCorpus, testIf } from '../../../test/support/prerequisites.js';
import { cutAt, tjJournal } from '../../../test/support/tj-journals.js';

/** `splits`: the tj_call_splits rows the events' calls closed (call-split-rows.ts), the same both ways too. */
interface Result { body: Buffer; splits: Buffer; records: number; errors: IngestError[] }

function viaStrings(ctx: TjFileContext, chunks: Buffer[]): Result {
  const rows = createTjRowBuilder();
  const parser = createTjParser(ctx);
  const errors: IngestError[] = [];
  for (const out of [...chunks.map((c) => parser.push(c)), parser.finish()]) {
    rows.add(out.events);
    errors.push(...out.errors);
  }
  const { records, tables } = rows.take();
  return { body: tables.find((x) => x.table === 'tj_events')?.body ?? Buffer.alloc(0), splits: tables.find((x) => x.table === 'tj_call_splits')?.body ?? Buffer.alloc(0), records, errors };
}

/** `idle`: the parser is told reading stopped after every chunk, as a followed file's tail does between reads. */
function viaBytes(ctx: TjFileContext, chunks: Buffer[], idle = false): Result {
  const rows = createTjRowBuilder();
  const parser = createTjRowParser(ctx, rows);
  const errors: IngestError[] = [];
  const pushed = chunks.map((c) => {
    const out = parser.push(c);
    if (idle) parser.idle?.();
    return out;
  });
  for (const out of [...pushed, parser.finish()]) errors.push(...out.errors);
  const { records, tables } = rows.take();
  return { body: tables.find((x) => x.table === 'tj_events')?.body ?? Buffer.alloc(0), splits: tables.find((x) => x.table === 'tj_call_splits')?.body ?? Buffer.alloc(0), records, errors };
}

for (const [what, file] of [['in a process folder', '/j/rphost_1234/26113014.log'], ['in plain placement (no process folder)', '/j/26113014.log']] as const) {
  test(`the byte encoder writes the string path's rows and errors for any journal cut anywhere, ${what}`, (t) => {
    const ctx: TjFileContext = { host: 'h', source: 'tj', file, file_key: 'k', offset: 0, hour: '26113014', tz: 'Europe/Moscow' };
    fc.assert(fc.property(tjJournal, fc.array(fc.nat(), { maxLength: 4 }), (bytes, cuts) => {
      const chunks = cutAt(bytes, cuts);
      const want = viaStrings(ctx, [bytes]);
      const got = viaBytes(ctx, chunks);
      t.is(got.records, want.records);
      t.deepEqual(got.errors, want.errors);
      if (!got.body.equals(want.body)) t.fail(`bodies differ for ${JSON.stringify(bytes.toString('latin1'))}`);
      if (!got.splits.equals(want.splits)) t.fail(`call splits differ for ${JSON.stringify(bytes.toString('latin1'))}`);
    }), { numRuns: 2000 });
  });
}

test('a journal read in 1 MiB pieces with the parser idle between them (its window shrunk): the same bytes', (t) => {
  const ctx: TjFileContext = { host: 'h', source: 'tj', file: '/j/rphost_1/26113014.log', file_key: 'k', offset: 0, hour: '26113014', tz: 'Europe/Moscow' };
  const events = Array.from({ length: 20_000 }, (_, i) =>
    `${String(i % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.${String(i).padStart(6, '0')}-${i},DBPOSTGRS,3,Usr=u${i % 7},Sql='SELECT ${'x, '.repeat(i % 97)}1\nFROM t',Context='Форма.Записать : ${i}'`);
  const bytes = Buffer.from(`${events.join('\r\n')}\r\n`);
  t.true(bytes.length > 3 << 20);
  const size = 1 << 20;
  const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
  const want = viaBytes(ctx, [bytes]);
  const got = viaBytes(ctx, chunks, true);
  t.is(got.records, 20_000);
  t.deepEqual(got.errors, want.errors);
  t.true(got.body.equals(want.body));
});

test('a journal without an hour in its name: every event is the string path\'s bad_header error', (t) => {
  const ctx: TjFileContext = { host: 'h', source: 'tj', file: '/j/x.log', file_key: 'k', offset: 0, hour: null, tz: 'UTC' };
  const bytes = Buffer.from('00:01.000001-1,CALL,1,Usr=a\n00:02.000001-1,CALL,1,Usr=b\n');
  const got = viaBytes(ctx, [bytes]);
  t.deepEqual(got, viaStrings(ctx, [bytes]));
  t.deepEqual(got.errors.map((e) => e.kind), ['bad_header', 'bad_header']);
});

const corpus = join(corpusDir, 'tj');
const journals = existsSync(corpus) ? walk(corpus).filter((p) => p.endsWith('.log')) : [];
testIf(missingCorpus('tj'))('the corpus journals: the same bytes both ways, read in 1 MiB and in 4 KiB pieces', (t) => {
  for (const path of journals) {
    const ctx: TjFileContext = { host: 'h', source: 'tj', file: path, file_key: 'k', offset: 0, hour: hourFromFileName(path) ?? '26113014', tz: 'Europe/Moscow' };
    const bytes = readFileSync(path);
    const want = viaStrings(ctx, [bytes]);
    for (const size of [1 << 20, 4096]) {
      const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
      const got = viaBytes(ctx, chunks);
      t.true(got.body.equals(want.body), `${path} in ${size}-byte reads`);
      t.deepEqual(got.errors, want.errors, path);
    }
  }
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
