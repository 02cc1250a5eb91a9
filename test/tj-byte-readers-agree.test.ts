// The two byte-level readers of TJ share one scanner (parsers/tj/event-scanner.ts): the row encoder of `ingest`
// (ingest/source/tj/tj-row-encoder.ts) and the JSON writer of `parse tj` (cli/ndjson/tj-ndjson.ts). For the same journal,
// the rows the encoder writes are the rows the reference mapping (tjEventToRow) makes of the events `parse tj` prints:
// the same events, the same typed columns, the same props (compared as sets of keys, since `parse tj` prints a
// repeated name's values as one array and a JSON object puts names of digits first). An event with a name holding
// `#` is left out of the comparison: beside a repeated name (`Usr=a,Usr#2=x,Usr=b`) its JSON does not say which value
// came first, which decides the props keys.
import test from 'ava';
import fc from 'fast-check';
import { createTjNdjsonEncoder } from '../cli/ndjson/tj-ndjson.js';
import type { NdjsonPiece } from '../cli/ndjson/ndjson-encoder.js';
import { createTjRowParser } from '../ingest/source/tj/tj-row-encoder.js';
import { createTjRowBuilder } from '../ingest/source/tj/tj-rows.js';
import { processFromPath, tjEventToRow } from '../ingest/source/tj/tj-event-to-row.js';
import type { TjFileContext } from '../parsers/tj/index.js';
import { RowBinaryReader, RowBinaryWriter } from '../schemas/row-binary.js';
import type { TjEvent, TjEventJson } from '../schemas/tj-event.js';
import { TJ_EVENTS, type TjRow } from '../schemas/tj-row.js';
import { cutAt, tjJournal } from './support/tj-journals.js';

const ctx: TjFileContext = { host: 'h', source: 'tj', file: '/j/rphost_1234/26113014.log', file_key: 'k', offset: 0, hour: '26113014', tz: 'Europe/Moscow' };

/** Rows as the encoder wrote them, read back. */
function encodedRows(chunks: Buffer[]): TjRow[] {
  const builder = createTjRowBuilder();
  const parser = createTjRowParser(ctx, builder);
  for (const c of chunks) parser.push(c);
  parser.finish();
  const body = builder.take().tables[0]?.body ?? Buffer.alloc(0);
  return readRows(body);
}

function readRows(body: Buffer): TjRow[] {
  const r = new RowBinaryReader(body);
  const rows: TjRow[] = [];
  while (!r.done) rows.push(TJ_EVENTS.readRow(r));
  return rows;
}

/** The events `parse tj` printed, back as parsed events: a repeated name's values in their order. */
function printedEvents(chunks: Buffer[]): TjEvent[] {
  const encoder = createTjNdjsonEncoder(ctx);
  const pieces = [...chunks.flatMap((c) => encoder.push(c) as NdjsonPiece[]), ...(encoder.finish() as NdjsonPiece[])];
  const lines = Buffer.concat(pieces.map((p) => p.ndjson)).toString('utf8').split('\n').filter((l) => l !== '');
  return lines.map((line) => {
    const { props, ...rest } = JSON.parse(line) as TjEventJson;
    const properties = Object.entries(props).flatMap(([name, v]) => (Array.isArray(v) ? v.flatMap((x) => [name, x]) : [name, v]));
    return { ...rest, properties };
  });
}

/** A row with its props as sorted pairs. */
function comparable(row: TjRow): unknown {
  return { ...row, props: Object.entries(row.props).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) };
}

test('for any journal cut anywhere, the encoder\'s rows are the rows of the events parse tj prints', (t) => {
  const proc = processFromPath(ctx.file);
  let events = 0;
  fc.assert(fc.property(tjJournal, fc.array(fc.nat(), { maxLength: 4 }), (bytes, cuts) => {
    const chunks = cutAt(bytes, cuts);
    const rows = encodedRows(chunks);
    const printed = printedEvents(chunks);
    // Through the RowBinary form, so both sides are read by the same reader.
    const w = new RowBinaryWriter();
    for (const e of printed) TJ_EVENTS.writeRow(w, tjEventToRow(e, proc));
    const want = readRows(w.finish());
    t.is(rows.length, want.length);
    const ambiguous = printed.map((e) => e.properties.some((p, i) => i % 2 === 0 && p.includes('#')));
    const keep = <T>(list: T[]): T[] => list.filter((_, i) => !ambiguous[i]);
    events += keep(rows).length;
    t.deepEqual(keep(rows).map(comparable), keep(want).map(comparable));
  }), { numRuns: 1500 });
  t.true(events > 3000, `${events} events compared`);
});
