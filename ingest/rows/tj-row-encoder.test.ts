// The byte-level TJ row encoder against the reference, the string path (createTjParser + tjEventToRow): the same
// bytes and the same ingest errors for any journal text cut into any chunks, including everything the encoder
// hands to the string path, and for the public journals of the corpus.
import test from 'ava';
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createTjParser, hourFromFileName, type TjFileContext } from '../../parsers/tj/index.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { createTjRowParser } from './tj-row-encoder.js';
import { createTjRowBuilder } from '../source/tj/tj-rows.js';
import { corpusDir, missingCorpus, testIf } from '../../test/support/prerequisites.js';

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

function viaBytes(ctx: TjFileContext, chunks: Buffer[]): Result {
  const rows = createTjRowBuilder();
  const parser = createTjRowParser(ctx, rows);
  const errors: IngestError[] = [];
  for (const out of [...chunks.map((c) => parser.push(c)), parser.finish()]) errors.push(...out.errors);
  const { records, tables } = rows.take();
  return { body: tables.find((x) => x.table === 'tj_events')?.body ?? Buffer.alloc(0), splits: tables.find((x) => x.table === 'tj_call_splits')?.body ?? Buffer.alloc(0), records, errors };
}

function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) { out.push(bytes.subarray(from, c)); from = c; }
  return out;
}

const NAMES = [
  'p:processName', 'Usr', 't:applicationName', 'AppID', 't:computerName', 'Context', 'DBMS', 'DataBase', 'Func', 'Sql', 'Prm',
  'Locks', 'DeadlockConnectionIntersections', 'Exception', 'Descr', 't:connectID', 'SessionID', 't:clientID', 'OSThread', 'Rows',
  'RowsAffected', 'Memory', 'MemoryPeak', 'CpuTime', 'InBytes', 'OutBytes', 'callWait', 'dbpid', 'Trans', 'Regions',
  'WaitConnections', 'process', 'OSThread', 'Custom', 'Имя', '__proto__', 'a#2', '12', 'x y', 'Usr#2',
];
const TEXT = ['', 'a', 'Иванов', ' x ', '\u00a0pad\u2003', '\ufeffbom', 'line\nnext', 'crlf\r\nnext', '\n\n  \n', "it's", 'say "hi"',
  'a,b', '0', '-5', '-', '007', '12345678901234567', '123456789012345678901', '18446744073709551616', '4294967296', ' 1, 2 ,3',
  'R1.X, R2.Y', 'Ссылка.Заказ,Регистр', '1,,2', '\u2028sep\u2029', 'tab\there', 'Модуль.А : 1 : X();\n\tМодуль.Б : 2'];

const value = fc.oneof(
  fc.constantFrom(...TEXT),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -1e6, max: 1e12 }).map(String),
  fc.constantFrom(...TEXT).chain((a) => fc.constantFrom(...TEXT).map((b) => `${a}${b}`)),
);

/** One property as a 1C server writes it: unquoted when it can be, else quoted with the quote doubled inside. */
// Text after a closing quote and names with `#` or of digits only send an event to the string path: kept rare, so
// most events exercise the byte encoder itself.
const property = fc.tuple(fc.constantFrom(...NAMES, ...NAMES.slice(0, 32)), value, fc.constantFrom("'", '"', ''), fc.nat(9).map((n) => n === 0)).map(([name, v, quote, tail]) => {
  const needsQuote = /[,\n\r'"]/.test(v) || v === '';
  const q = quote || (needsQuote ? "'" : '');
  const body = q ? `${q}${v.replaceAll(q, q + q)}${q}` : v;
  return `${name}=${body}${tail && q ? 'tail' : ''}`;
});

const event = fc.tuple(
  fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.boolean(), fc.integer({ min: 0, max: 999_999 }),
  fc.oneof(fc.nat(10_000_000), fc.constant(12345678901234567)), fc.constantFrom('CALL', 'TLOCK', 'DBPOSTGRS', 'EXCP', 'Context', 'SDBL'),
  fc.nat(9), fc.array(property, { maxLength: 12 }),
).map(([mm, ss, eight, frac, dur, name, depth, props]) => {
  const f = eight ? String(frac % 10000).padStart(4, '0') : String(frac).padStart(6, '0');
  return `${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}.${f}-${dur},${name},${depth}${props.map((p) => `,${p}`).join('')}`;
});

const line = fc.oneof(
  { weight: 12, arbitrary: event },
  { weight: 1, arbitrary: fc.constantFrom('garbage line', '', '   ', "00:01.000001-1,CALL,1,Context='never closed") },
);

const journal = fc.tuple(fc.array(line, { minLength: 1, maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.boolean())
  .map(([lines, eol, bom, invalid]) => {
    const text = Buffer.from(`${bom ? '\ufeff' : ''}${lines.join(eol)}${eol}`);
    if (!invalid) return text;
    const bad = Buffer.from(text);
    bad[Math.floor(bad.length / 2)] = 0xff;
    return bad;
  });

for (const [what, file] of [['in a process folder', '/j/rphost_1234/26113014.log'], ['in plain placement (no process folder)', '/j/26113014.log']] as const) {
  test(`the byte encoder writes the string path's rows and errors for any journal cut anywhere, ${what}`, (t) => {
    const ctx: TjFileContext = { host: 'h', source: 'tj', file, file_key: 'k', offset: 0, hour: '26113014', tz: 'Europe/Moscow' };
    fc.assert(fc.property(journal, fc.array(fc.nat(), { maxLength: 4 }), (bytes, cuts) => {
      const chunks = split(bytes, cuts);
      const want = viaStrings(ctx, [bytes]);
      const got = viaBytes(ctx, chunks);
      t.is(got.records, want.records);
      t.deepEqual(got.errors, want.errors);
      if (!got.body.equals(want.body)) t.fail(`bodies differ for ${JSON.stringify(bytes.toString('latin1'))}`);
      if (!got.splits.equals(want.splits)) t.fail(`call splits differ for ${JSON.stringify(bytes.toString('latin1'))}`);
    }), { numRuns: 2000 });
  });
}

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
