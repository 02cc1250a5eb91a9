import test from 'ava';
import { createApdexParser } from '../../parsers/apdex/index.js';
import { encodeExport, writeApdexExport } from '../../simulate/apdex-export.js';
import { FIXTURE_LATE, FIXTURE_OPERATIONS, FIXTURE_START_MS } from '../../simulate/apdex-fixture.js';
import type { Segment } from '../bus/bus.js';
import { validateSegment } from './segment-validation.js';
import { rowsForSegment } from './segment-rows.js';
import { MAX_EXPORT_VERSION } from './apdex-segment-rows.js';

function segmentOf(xml: string): Segment {
  const parser = createApdexParser({ host: 'h', source: 'apdex', file: '/e/x.xml', file_key: 'k', offset: 0 });
  const bytes = encodeExport(xml);
  const out = [parser.push(bytes), parser.finish()];
  return {
    id: `h|k|0-${bytes.length}`, family: 'apdex', host: 'h', source: 'apdex', file: '/e/x.xml', file_key: 'k', start: 0, end: bytes.length,
    events: out.flatMap((o) => o.events), errors: out.flatMap((o) => o.errors),
  };
}

test('measurements go to apdex_measurements and each KeyOperation to key_operations, dated by its newest start', (t) => {
  const { segment, invalid } = validateSegment(segmentOf(writeApdexExport([...FIXTURE_OPERATIONS, FIXTURE_LATE], { shape: 'attributes' })));
  t.deepEqual(invalid, []);
  const tables = rowsForSegment(segment);
  t.is(tables.get('apdex_measurements')?.length, 18);
  const start = FIXTURE_START_MS / 1000;
  // Starts every 20 s: A's 8th at 140 s, B's 13th at 240 s, C's 17th at 320 s; the late A element at 3600 s.
  t.deepEqual(tables.get('key_operations')?.map((r) => [(r as { name: string }).name, (r as { version: number }).version, (r as { source: string }).source]), [
    ['ПроведениеДокументаЗаказКлиента', start + 140, 'export'],
    ['ЗаписьСправочникаНоменклатура', start + 240, 'export'],
    ['ФормированиеОтчетаОстатки', start + 320, 'export'],
    ['ПроведениеДокументаЗаказКлиента', start + 3600, 'export'],
  ]);
  t.deepEqual(tables.get('ingest_errors'), []);
});

test('an export version stays below a manual override written in Unix milliseconds, even for the latest start', (t) => {
  t.true(MAX_EXPORT_VERSION < Date.UTC(1970, 1, 20));
  const far = [{ ...FIXTURE_LATE, measurements: [{ value: 1, startMs: Date.UTC(9999, 0, 1) }] }];
  const rows = rowsForSegment(validateSegment(segmentOf(writeApdexExport(far, { shape: 'attributes' }))).segment).get('key_operations');
  t.is((rows?.[0] as { version: number }).version, MAX_EXPORT_VERSION);
});

test('a KeyOperation without measurements still carries its settings, at version 0', (t) => {
  const empty = [{ ...FIXTURE_LATE, measurements: [] }];
  const tables = rowsForSegment(validateSegment(segmentOf(writeApdexExport(empty, { shape: 'elements' }))).segment);
  t.deepEqual(tables.get('apdex_measurements'), []);
  t.like(tables.get('key_operations')?.[0], { name: 'ПроведениеДокументаЗаказКлиента', target_s: 1, priority: 1, version: 0 });
});
