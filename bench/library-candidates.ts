// Hand-written parts against the library the ecosystem would reach for, on the same input in the same process
// (issue #15 item 8): the APDEX export's XML (parsers/apdex/ against saxes + iconv-lite) and the /metrics text
// (ingest/observe/metrics.ts against prom-client). The libraries are not dependencies; install them beside the repo
// to run this: `npm install --no-save saxes iconv-lite prom-client` (or PERFPIPE_CANDIDATES=DIR with them in
// DIR/node_modules). Usage: npx tsx bench/library-candidates.ts [--files 300]
//
// Export: one file of 1000 measurements (the SSL's MeasurementsCountInExportPackage default, so what a real export
// directory holds), attribute shape, written by simulate/apdex-export.ts, in UTF-8 and UTF-16LE. The library side
// only decodes and tokenizes (attributes collected per element, no records, no byte offsets), so its figure is
// what the library costs before any of perfpipe's work; ours is the whole parser, records included.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApdexParser } from '../parsers/apdex/index.js';
import { createXmlTokenizer, type XmlToken } from '../parsers/apdex/xml-tokens.js';
import { encodeExport, writeApdexExport, type SimKeyOperation } from '../simulate/apdex-export.js';
import { Metrics } from '../ingest/observe/metrics.js';
import { repoRoot } from './bench-paths.js';
import { formatTable } from './figures.js';

const CHUNK = 64 * 1024;
const candidates = createRequire(join(process.env.PERFPIPE_CANDIDATES ?? repoRoot(), 'package.json'));
/** Untyped on purpose: the libraries are optional here, and not dependencies to type against. */
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

function library(file: Buffer, encoding: string): number {
  const { SaxesParser } = load('saxes');
  const iconv = load('iconv-lite');
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

/** Our tokenizer alone, the part saxes + iconv-lite would replace: tokens counted like the library's elements. */
function ourTokens(file: Buffer): number {
  const t = createXmlTokenizer(0);
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
  xml.push(timeIt(`ours, ${name}`, file.length, files, () => ours(file)));
  xml.push(timeIt(`ours, tokenizer only, ${name}`, file.length, files, () => ourTokens(file)));
  xml.push(timeIt(`saxes + iconv-lite, ${name}`, file.length, files, () => library(file, name)));
}
console.log(`APDEX export, ${files} files of 1000 measurements\n${formatTable(['parser', 'MB/s', 'files/s', 'records or elements per file'], xml)}\n`);
console.log(`/metrics: ${NAMES.length} counters × ${LABELS.length} label sets\n${formatTable(['what', 'per s', 'bytes'], await metrics(2_000_000, 2000))}`);
