// The APDEX export parser: both shapes, old and new versions, UTF-16, any split, bad input as IngestErrors.
// Expected values are the writer's inputs (simulate/apdex-fixture.ts) or located in the hand-written XML.
import test from 'ava';
import type { ApdexMeasurement, ApdexRecord } from '../../schemas/apdex-measurement.js';
import { ApdexRecordSchema } from '../../schemas/apdex-measurement.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { encodeExport, writeApdexExport } from '../../simulate/apdex-export.js';
import { FIXTURE_OPERATIONS } from '../../simulate/apdex-fixture.js';
import { createApdexParser } from './index.js';

const ctx = { host: 'h1', source: 'apdex', file: '/x/2026-11-30 12-00-00-00001.xml', file_key: 'fk', offset: 0 };

function parse(bytes: Buffer, splits: number[] = [], offset = 0): { events: ApdexRecord[]; errors: IngestError[]; settled: number[] } {
  const p = createApdexParser({ ...ctx, offset });
  const events: ApdexRecord[] = [];
  const errors: IngestError[] = [];
  const settled: number[] = [];
  let from = 0;
  for (const at of [...splits, bytes.length]) {
    const o = p.push(bytes.subarray(from, at));
    events.push(...o.events);
    errors.push(...o.errors);
    settled.push(p.settled);
    from = at;
  }
  const o = p.finish();
  return { events: [...events, ...o.events], errors: [...errors, ...o.errors], settled };
}

const measurements = (events: ApdexRecord[]): ApdexMeasurement[] => events.flatMap((e) => (e.kind === 'measurement' ? [e] : []));
/** What does not depend on where in the file a record sits. */
const content = (events: ApdexRecord[]): unknown[] => events.map((e) => {
  const { origin: _o, ...rest } = e as ApdexRecord & { event_id?: string };
  delete (rest as { event_id?: string }).event_id;
  return rest;
});

test('the attribute shape yields each measurement with its key operation settings, in file order', (t) => {
  const { events, errors } = parse(encodeExport(writeApdexExport(FIXTURE_OPERATIONS, { shape: 'attributes' })));
  t.deepEqual(errors, []);
  for (const e of events) ApdexRecordSchema.parse(e);
  const ms = measurements(events);
  t.deepEqual(ms.map((m) => m.duration_us), [200000, 500000, 1000000, 1005000, 2500000, 4000000, 4001000, 7000000, 100000, 300000, 500000, 600000, 2100000, 1000000, 2000000, 2990000, 3000000]);
  t.deepEqual(ms.map((m) => m.target_s), [...Array(8).fill(1), ...Array(5).fill(0.5), ...Array(4).fill(3)]);
  t.like(ms[1], {
    operation: 'ПроведениеДокументаЗаказКлиента', operation_name: 'Проведение документа «Заказ клиента»', comment: 'строк: 10',
    priority: 1, long: false, ts_start: '2026-11-30T10:00:20.000Z', user: 'Петров & Co', session_number: 101, weight: 2, failed: false,
  });
  t.like(ms[8], { operation_name: 'Запись справочника <Номенклатура>', priority: 2, long: false, ts_start: '2026-11-30T10:02:40.000Z', comment: '' });
  const settings = events.filter((e) => e.kind === 'key_operation');
  t.deepEqual(settings.map((k) => [k.operation, k.target_s, k.priority, k.measurements]), [
    ['ПроведениеДокументаЗаказКлиента', 1, 1, 8], ['ЗаписьСправочникаНоменклатура', 0.5, 2, 5], ['ФормированиеОтчетаОстатки', 3, 3, 4],
  ]);
});

test('the child-element shape and UTF-16 give the same records as the attribute shape', (t) => {
  const attrs = parse(encodeExport(writeApdexExport(FIXTURE_OPERATIONS, { shape: 'attributes' })));
  const elems = parse(encodeExport(writeApdexExport(FIXTURE_OPERATIONS, { shape: 'elements' })));
  const utf16 = parse(encodeExport(writeApdexExport(FIXTURE_OPERATIONS, { shape: 'elements' }), 'utf16le'));
  t.deepEqual(elems.errors, []);
  t.deepEqual(utf16.errors, []);
  t.deepEqual(content(elems.events), content(attrs.events));
  t.deepEqual(content(utf16.events), content(attrs.events));
  // UTF-16 offsets are byte offsets: BOM (2) + twice the UTF-8-less character count before the tag.
  const xml = writeApdexExport(FIXTURE_OPERATIONS, { shape: 'elements' });
  t.is(utf16.events[1]?.origin.offset, 2 + 2 * xml.indexOf('<measurement>'));
});

test('any split of the input, down to single bytes, gives the same output as the whole', (t) => {
  const bytes = encodeExport(writeApdexExport([{ ...FIXTURE_OPERATIONS[0]!, measurements: FIXTURE_OPERATIONS[0]!.measurements.slice(0, 2) }], { shape: 'elements' }));
  const whole = parse(bytes);
  for (let at = 1; at < bytes.length; at++) {
    const part = parse(bytes, [at]);
    if (JSON.stringify(part.events) !== JSON.stringify(whole.events) || part.errors.length > 0) return t.fail(`split at byte ${at} differs`);
  }
  t.deepEqual(parse(bytes, [...Array(bytes.length - 1).keys()].map((i) => i + 1)).events, whole.events);
  t.is(measurements(whole.events).length, 2);
});

test('format 1.0.0.0: dateTime start, comment on the measurement, minimal level, name as the operation', (t) => {
  const xml = writeApdexExport([{
    uid: 'u1', name: 'Проведение', nameFull: '', priority: 2, targetValue: 1.5, minimalApdexValue: 0.85,
    measurements: [{ value: 1.25, startMs: Date.UTC(2020, 0, 2, 3, 4, 5), userName: 'Админ', sessionNumber: 7, comment: 'c1' }],
  }], { shape: 'attributes', version: '1.0.0.0' });
  const { events, errors } = parse(encodeExport(xml));
  t.deepEqual(errors, []);
  t.like(measurements(events)[0], { operation: 'Проведение', ts_start: '2020-01-02T03:04:05.000Z', duration_us: 1250000, comment: 'c1', min_level: 0.85, target_s: 1.5, failed: null });
});

test('CDATA, character references and namespace prefixes in hand-written XML', (t) => {
  const xml = '<?xml version="1.0"?>\n<!-- a comment with <KeyOperation> inside -->\n<prf:Performance xmlns:prf="ns"><prf:KeyOperation><prf:nameFull><![CDATA[Op<1>]]></prf:nameFull><targetValue>2</targetValue>'
    + '<measurement value="0.5" tUtc="63931629600000" userName="&#1048;&#x432;&#x430;&#x43d;"/></prf:KeyOperation></prf:Performance>';
  const { events, errors } = parse(Buffer.from(xml));
  t.deepEqual(errors, []);
  t.like(measurements(events)[0], { operation: 'Op<1>', target_s: 2, user: 'Иван', ts_start: '2026-11-30T10:00:00.000Z', duration_us: 500000 });
});

test('bad input becomes IngestErrors at its offset and the rest is still read', (t) => {
  const bad1 = '<measurement value="abc" tUtc="63931629600000"/>';
  const bad2 = '<measurement value="1" tUtc=63931629600000/>';
  const xml = `<Performance><KeyOperation nameFull="Op" targetValue="1">${bad1}${bad2}<measurement value="0.25" tUtc="63931629600000"/></KeyOperation></Performance>`;
  const { events, errors } = parse(Buffer.from(xml), [], 1000);
  t.deepEqual(errors.map((e) => [e.kind, e.offset, e.length, e.can_continue]), [
    ['malformed_xml', 1000 + xml.indexOf(bad2), bad2.length, true],
    ['apdex_bad_measurement', 1000 + xml.indexOf(bad1), bad1.length, true],
  ]);
  t.is(errors[1]?.reason, 'a measurement of Op: run time `value` "abc" is not a non-negative number of seconds; it is skipped');
  t.deepEqual(measurements(events).map((m) => m.duration_us), [250000]);
});

test('a file cut inside a KeyOperation keeps its complete measurements and reports the cut', (t) => {
  const head = '<Performance><KeyOperation nameFull="Op" targetValue="1"><measurement value="0.25" tUtc="63931629600000"/>';
  const { events, errors } = parse(Buffer.from(`${head}<measurement value="0.`));
  t.deepEqual(measurements(events).map((m) => m.duration_us), [250000]);
  t.deepEqual(errors.map((e) => [e.kind, e.offset, e.can_continue]), [['malformed_xml', head.length, true], ['apdex_truncated', head.length, false]]);
});

test('a parser started at a settled offset reads the same records as going on', (t) => {
  const bytes = encodeExport(writeApdexExport(FIXTURE_OPERATIONS, { shape: 'attributes' }));
  const cut = bytes.indexOf('<KeyOperation', bytes.indexOf('</KeyOperation>'));
  const first = parse(bytes.subarray(0, cut + 5));
  const settled = first.settled[0] as number;
  t.true(settled > 0 && settled <= cut);
  const whole = parse(bytes);
  const rest = parse(bytes.subarray(settled), [], settled);
  t.deepEqual(rest.errors, []);
  t.deepEqual(rest.events, whole.events.filter((e) => e.origin.offset >= settled));
});
