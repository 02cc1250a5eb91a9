import test from 'ava';
import { createApdexParser } from '../../../parsers/apdex/index.js';
import { encodeExport, writeApdexExport } from '../../../simulate/apdex-export.js';
import { FIXTURE_LATE, FIXTURE_OPERATIONS, FIXTURE_START_MS } from '../../../simulate/apdex-fixture.js';
import type { ApdexRecord } from '../../../schemas/apdex-measurement.js';
import { apdexRows, MAX_EXPORT_VERSION } from './apdex-rows.js';
import { rowsOfRecords } from '../../families/registry.js';
import { rowsOf } from '../../../test/support/segments.js';

function recordsOf(xml: string): ApdexRecord[] {
  const parser = createApdexParser({ host: 'h', source: 'apdex', file: '/e/x.xml', file_key: 'k', offset: 0 });
  const bytes = encodeExport(xml);
  const out = [parser.push(bytes), parser.finish()];
  for (const o of out) if (o.errors.length > 0) throw new Error(JSON.stringify(o.errors));
  return out.flatMap((o) => o.events);
}

test('measurements go to apdex_measurements and each KeyOperation to key_operations, dated by its newest start', (t) => {
  const records = recordsOf(writeApdexExport([...FIXTURE_OPERATIONS, FIXTURE_LATE], { shape: 'attributes' }));
  const tables = rowsOfRecords('apdex', records);
  t.is(rowsOf(tables, 'apdex_measurements').length, 18);
  const start = FIXTURE_START_MS / 1000;
  // Starts every 20 s: A's 8th at 140 s, B's 13th at 240 s, C's 17th at 320 s; the late A element at 3600 s.
  t.deepEqual(rowsOf(tables, 'key_operations').map((r) => [r.name, r.version, r.source]), [
    ['ПроведениеДокументаЗаказКлиента', start + 140, 'export'],
    ['ЗаписьСправочникаНоменклатура', start + 240, 'export'],
    ['ФормированиеОтчетаОстатки', start + 320, 'export'],
    ['ПроведениеДокументаЗаказКлиента', start + 3600, 'export'],
  ]);
});

test('an export version stays below a manual override written in Unix milliseconds, even for the latest start', (t) => {
  t.true(MAX_EXPORT_VERSION < Date.UTC(1970, 1, 20));
  const far = [{ ...FIXTURE_LATE, measurements: [{ value: 1, startMs: Date.UTC(9999, 0, 1) }] }];
  const rows = apdexRows(recordsOf(writeApdexExport(far, { shape: 'attributes' }))).settings;
  t.is(rows[0]?.version, MAX_EXPORT_VERSION);
});

test('a KeyOperation without measurements still carries its settings, at version 0', (t) => {
  const empty = [{ ...FIXTURE_LATE, measurements: [] }];
  const rows = apdexRows(recordsOf(writeApdexExport(empty, { shape: 'elements' })));
  t.deepEqual(rows.measurements, []);
  t.like(rows.settings[0], { name: 'ПроведениеДокументаЗаказКлиента', target_s: 1, priority: 1, version: 0 });
});
