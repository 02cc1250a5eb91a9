import test from 'ava';
import { createTjParser } from '../../parsers/tj/index.js';
import { segmentId, type Segment } from '../bus/bus.js';
import { FAMILIES, rowsOfRecords } from '../families/registry.js';
import { validateSegment } from './segment-validation.js';
import { createClickHouseSink } from './clickhouse-sink.js';
import { openTempStore } from '../../test/support/temp-store.js';
import { rowsOf } from '../../test/support/segments.js';

const head = {
  id: segmentId('db1', 'k1', 0, 100), host: 'db1', source: 'tj', file: '/tj/rphost_1/26113014.log', file_key: 'k1', start: 0, end: 100,
};
const parsed = createTjParser({ host: 'db1', source: 'tj', file: head.file, file_key: 'k1', offset: 0, hour: '26113014', tz: 'UTC' })
  .push(Buffer.from('00:01.000001-10,CALL,1,Usr=a\n00:02.000002-20,CALL,1,Usr=b\n')).events;

const encoded = (): Segment => ({ ...head, family: 'tj', ...rowsOfRecords('tj', parsed), errors: [] });
const legacy = (events: unknown[], family: Segment['family'] = 'tj'): Segment => ({ ...head, family, records: events.length, tables: [], errors: [], legacy: events });

test('a segment of well-formed rows passes unchanged', (t) => {
  const segment = encoded();
  const out = validateSegment(segment, FAMILIES);
  t.is(out.segment, segment);
  t.deepEqual(out.invalid, []);
});

test('rows cut short become one invalid_rows error; the segment goes on without them', (t) => {
  const segment = encoded();
  const table = segment.tables[0]!;
  segment.tables = [{ ...table, body: table.body.subarray(0, table.body.length - 3) }];
  const out = validateSegment(segment, FAMILIES);
  t.deepEqual(out.segment.tables, []);
  t.is(out.segment.errors.length, 1);
  t.like(out.segment.errors[0], { kind: 'invalid_rows', offset: 0 });
  t.regex(out.segment.errors[0]!.reason, /^segment db1\|k1\|0-100: tj_events rows end early: needs \d+ bytes at byte \d+, only \d+ left of \d+ \(header says 2 rows\)$/);
});

test('bytes left over after the announced rows, and a layout this version does not know, are refused with the reason', (t) => {
  const segment = encoded();
  const table = segment.tables[0]!;
  segment.tables = [{ ...table, rows: 1 }, { ...table, layout: 'tj_events/00000000' }];
  const out = validateSegment(segment, FAMILIES);
  t.deepEqual(out.invalid.map((i) => i.reason), [
    `segment db1|k1|0-100: tj_events rows: ${table.body.length - rowsOfRecords('tj', parsed.slice(0, 1)).tables[0]!.body.length} bytes left after the 1 rows the header announces`,
    'segment db1|k1|0-100: tj_events rows come in layout tj_events/00000000, which this perfpipe does not know (an agent of another version?)',
  ]);
});

test("an old agent's events are checked against their schema and mapped to rows here; a bad one becomes an invalid_event error", (t) => {
  const bad = { ...(parsed[1] as object), duration_us: -5 };
  const out = validateSegment(legacy([parsed[0], bad]), FAMILIES);
  t.is(out.segment.legacy, undefined);
  t.deepEqual(rowsOf(out.segment, 'tj_events').map((r) => r.user), ['a']);
  t.is(out.segment.records, 1);
  t.is(out.invalid.length, 1);
  const error = out.segment.errors[0]!;
  t.is(error.kind, 'invalid_event');
  t.is(error.offset, 29); // the second line starts after the first line's 29 bytes
  t.is(error.reason, 'event 1 of segment db1|k1|0-100 does not match the tj event schema: duration_us: Too small: expected number to be >=0');
  t.true(error.excerpt.startsWith('{"event":"CALL"'));
});

test('a replayed segment validates to the same rows and errors, which ClickHouse then keeps once (same dedup tokens)', async (t) => {
  // Each delivery of an old agent's message decodes to objects of its own, as a Kafka redelivery or a crash replay does.
  const delivered = () => validateSegment(legacy(JSON.parse(JSON.stringify([parsed[0], { nope: true }, parsed[1]])) as unknown[]), FAMILIES).segment;
  const first = delivered();
  const replay = delivered();
  // Two CALLs: their events, and each call's split (tj_call_splits, docs/write-path.md §12).
  t.deepEqual(first.tables.map((table) => table.table), ['tj_events', 'tj_call_splits']);
  t.is(first.errors.length, 1, 'the event that is no TJ event');
  t.deepEqual(replay.tables, first.tables, 'the same tables in the same order, byte for byte');
  t.deepEqual(replay.errors, first.errors);
  t.is(replay.id, first.id);
  const store = await openTempStore('perfpipe-validation-');
  t.teardown(() => store.dispose());
  const sink = createClickHouseSink({ store, layouts: FAMILIES, events: { inserted() {}, insertFailed() {} } });
  await sink.write(first);
  await sink.write(replay);
  const rs = await store.client.query({
    query: 'SELECT (SELECT count() FROM tj_events) AS events, (SELECT count() FROM tj_call_splits) AS splits, (SELECT count() FROM ingest_errors) AS errors',
    format: 'JSONEachRow',
  });
  t.deepEqual(await rs.json(), [{ events: '2', splits: '2', errors: '1' }], 'the replay was dropped as a duplicate');
});

test("an old agent's atop event is checked against the atop record schema", (t) => {
  const out = validateSegment(legacy([{ label: 'CPU' }], 'atop'), FAMILIES);
  t.deepEqual(out.segment.tables, []);
  t.regex(out.segment.errors[0]?.reason ?? '', /^event 0 of segment db1\|k1\|0-100 does not match the atop event schema: host: /);
});
