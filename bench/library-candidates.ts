// Hand-written parts against the library the ecosystem would reach for, on the same input in the same process
// (issue #15 item 8): the APDEX export's XML and the /metrics text (ingest/observe/metrics.ts against prom-client).
// prom-client is not a dependency; install it beside the repo to run this: `npm install --no-save prom-client`
// (or PERFPIPE_CANDIDATES=DIR with it in DIR/node_modules). Usage: npx tsx bench/library-candidates.ts [--files 300]
//
// Export: one file of 1000 measurements (the SSL's MeasurementsCountInExportPackage default, so what a real export
// directory holds), attribute shape, written by simulate/apdex-export.ts, in UTF-8 and UTF-16LE. The APDEX parser
// reads XML with saxes + iconv-lite since #15 item 8 (parsers/apdex/xml-tokens.ts); the rows time the whole shipped
// parser (records, byte offsets, ids) against the same reader on the hand-written tokenizer it replaced
// (bench/hand-written-xml-tokens.ts), then both tokenizers alone, then bare saxes + iconv-lite (no offsets).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import iconv from 'iconv-lite';
import { SaxesParser } from 'saxes';
import { createApdexParser } from '../parsers/apdex/index.js';
import { createExportReader } from '../parsers/apdex/export-reader.js';
import { createXmlTokenizer, type XmlToken, type XmlTokenizer } from '../parsers/apdex/xml-tokens.js';
import { createHandWrittenXmlTokenizer } from './hand-written-xml-tokens.js';
import { encodeExport, writeApdexExport, type SimKeyOperation } from '../simulate/apdex-export.js';
import { Metrics } from '../ingest/observe/metrics.js';
import { repoRoot } from './bench-paths.js';
import { formatTable } from './figures.js';

const CHUNK = 64 * 1024;
const candidates = createRequire(join(process.env.PERFPIPE_CANDIDATES ?? repoRoot(), 'package.json'));
/** Untyped on purpose: prom-client is optional here, and not a dependency to type against. */
const load = (name: string): any => candidates(name);

function exportFile(encoding: 'utf8' | 'utf16le'): Buffer {
  const ops: SimKeyOperation[] = Array.from({ length: 10 }, (_, k) => ({
    uid: `6f1a2b3c-0000-4000-8000-00000000000${k}`, name: `Операция «${k}» <тест>`, nameFull: `ОперацияНомер${k}`, priority: 1 + (k % 3), targetValue: 1.5,
    measurements: Array.from({ length: 100 }, (_, i) => ({ value: (i % 37) / 10, startMs: Date.UTC(2026, 10, 30, 10) + i * 1000, userName: 'Иванов И.И.', sessionNumber: 1000 + i, weight: 1 })),
  }));
  return encodeExport(writeApdexExport(ops, { shape: 'attributes' }), encoding);
}

function timeIt(label: string, bytes: number, files: number, run: () => number): string[] {
  run(); // warm-up
  const t0 = performance.now();
  let count = 0;
  for (let i = 0; i < files; i++) count += run();
  const s = (performance.now() - t0) / 1000;
  return [label, (bytes * files / 1e6 / s).toFixed(1), (files / s).toFixed(0), String(count / files)];
}

function ours(file: Buffer): number {
  const p = createApdexParser({ host: 'h', source: 'apdex', file: 'f.xml', file_key: 'k', offset: 0 });
  let n = 0;
  for (let i = 0; i < file.length; i += CHUNK) n += p.push(file.subarray(i, i + CHUNK)).events.length;
  return n + p.finish().events.length;
}

/** The APDEX parser as shipped before #15 item 8: the same export reader on the hand-written tokenizer. */
function handWritten(file: Buffer): number {
  const t = createHandWrittenXmlTokenizer(0);
  const r = createExportReader({ host: 'h', source: 'apdex', file: 'f.xml', file_key: 'k', offset: 0 });
  let n = 0;
  for (let i = 0; i < file.length; i += CHUNK) n += r.read(t.push(file.subarray(i, i + CHUNK))).events.length;
  return n + r.read(t.finish()).events.length + r.finish(file.length).events.length;
}

function library(file: Buffer, encoding: string): number {
  const decoder = iconv.getDecoder(encoding, { stripBOM: true });
  const parser = new SaxesParser();
  let n = 0;
  parser.on('opentag', (tag: { name: string; attributes: Record<string, string> }) => { if (tag.name.endsWith('measurement') || tag.name.endsWith('KeyOperation')) n++; });
  parser.on('text', () => {});
  for (let i = 0; i < file.length; i += CHUNK) parser.write(decoder.write(file.subarray(i, i + CHUNK)));
  parser.write(decoder.end() ?? '');
  parser.close();
  return n;
}

/** A tokenizer alone: tokens counted like the library's elements. */
function tokensOnly(t: XmlTokenizer, file: Buffer): number {
  const count = (tokens: XmlToken[]): number => tokens.filter((k) => k.kind === 'start' && (k.name === 'measurement' || k.name === 'KeyOperation')).length;
  let n = 0;
  for (let i = 0; i < file.length; i += CHUNK) n += count(t.push(file.subarray(i, i + CHUNK)));
  return n + count(t.finish());
}

const NAMES = ['perfpipe_events_total', 'perfpipe_source_bytes_total', 'perfpipe_segments_total', 'perfpipe_ingest_errors_total', 'perfpipe_rows_inserted_total', 'perfpipe_inserts_total'];
const LABELS = ['tj', 'pg', 'atop', 'apdex'].flatMap((source) => ['app-1', 'db-1'].map((host) => ({ source, host })));

async function metrics(incs: number, renders: number): Promise<string[][]> {
  const rows: string[][] = [];
  const m = new Metrics();
  let t0 = performance.now();
  for (let i = 0; i < incs; i++) m.inc(NAMES[i % NAMES.length] as string, 'help', LABELS[i % LABELS.length], 3);
  rows.push(['inc, ours', String(Math.round(incs / ((performance.now() - t0) / 1000)))]);
  t0 = performance.now();
  let bytes = 0;
  for (let i = 0; i < renders; i++) bytes += m.render().length;
  rows.push(['render, ours', String(Math.round(renders / ((performance.now() - t0) / 1000))), String(bytes / renders)]);

  const client = load('prom-client');
  const registry = new client.Registry();
  const counters = new Map(NAMES.map((name) => [name, new client.Counter({ name, help: 'help', labelNames: ['source', 'host'], registers: [registry] })]));
  t0 = performance.now();
  for (let i = 0; i < incs; i++) counters.get(NAMES[i % NAMES.length] as string)?.inc(LABELS[i % LABELS.length], 3);
  rows.push(['inc, prom-client', String(Math.round(incs / ((performance.now() - t0) / 1000)))]);
  t0 = performance.now();
  bytes = 0;
  for (let i = 0; i < renders; i++) bytes += (await registry.metrics()).length;
  rows.push(['render, prom-client', String(Math.round(renders / ((performance.now() - t0) / 1000))), String(bytes / renders)]);
  return rows;
}

const { values } = parseArgs({ options: { files: { type: 'string', default: '300' } } });
const files = Number(values.files);
const xml: string[][] = [];
for (const [encoding, name] of [['utf8', 'utf-8'], ['utf16le', 'utf-16le']] as const) {
  const file = exportFile(encoding);
  xml.push(timeIt(`shipped parser (saxes + iconv-lite), ${name}`, file.length, files, () => ours(file)));
  xml.push(timeIt(`parser on the hand-written tokenizer, ${name}`, file.length, files, () => handWritten(file)));
  xml.push(timeIt(`shipped tokenizer only, ${name}`, file.length, files, () => tokensOnly(createXmlTokenizer(0), file)));
  xml.push(timeIt(`hand-written tokenizer only, ${name}`, file.length, files, () => tokensOnly(createHandWrittenXmlTokenizer(0), file)));
  xml.push(timeIt(`bare saxes + iconv-lite (no offsets), ${name}`, file.length, files, () => library(file, name)));
}
console.log(`APDEX export, ${files} files of 1000 measurements\n${formatTable(['parser', 'MB/s', 'files/s', 'records or elements per file'], xml)}\n`);
console.log(`/metrics: ${NAMES.length} counters × ${LABELS.length} label sets\n${formatTable(['what', 'per s', 'bytes'], await metrics(2_000_000, 2000))}`);
