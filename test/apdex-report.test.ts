// End to end for APDEX: a generated export → parser → apdex_measurements in a fresh embedded store → the
// report SQL, against APDEX values worked out by hand; then T changed in key_operations, with no re-ingest.
import test from 'ava';
import { openTempStore, type TempStore } from './support/temp-store.js';
import { reportRows } from '../queries/reports/reports.js';
import { createApdexParser } from '../parsers/apdex/index.js';
import type { ApdexKeyOperation } from '../schemas/apdex-measurement.js';
import { ApdexRowSchema, KeyOperationRowSchema, type KeyOperationRow } from '../schemas/apdex-row.js';
import { apdexMeasurementToRow, keyOperationToRow } from '../ingest/source/apdex/apdex-rows.js';
import { encodeExport, writeApdexExport } from '../simulate/apdex-export.js';
import { FIXTURE_LATE, FIXTURE_OPERATIONS } from '../simulate/apdex-fixture.js';

let store: TempStore;
let exportSettings: ApdexKeyOperation[] = [];
/** Unix seconds, as the CLI passes them: a date text would be read in the server's time zone. */
const WINDOW = { from: Date.UTC(2026, 10, 30, 10, 0, 0) / 1000, to: Date.UTC(2026, 10, 30, 10, 10, 0) / 1000 };
const A = 'ПроведениеДокументаЗаказКлиента';
const B = 'ЗаписьСправочникаНоменклатура';
const C = 'ФормированиеОтчетаОстатки';

test.before(async () => {
  store = await openTempStore('perfpipe-apdex-');
  const bytes = encodeExport(writeApdexExport([...FIXTURE_OPERATIONS, FIXTURE_LATE], { shape: 'attributes' }));
  const parser = createApdexParser({ host: 'h1', source: 'apdex', file: '/exports/2026-11-30 12-00-00-00001.xml', file_key: 'fk1', offset: 0 });
  const out = [parser.push(bytes), parser.finish()];
  const measurements = out.flatMap((o) => o.events).flatMap((e) => (e.kind === 'measurement' ? [e] : []));
  exportSettings = out.flatMap((o) => o.events).flatMap((e) => (e.kind === 'key_operation' ? [e] : []));
  if (out.some((o) => o.errors.length > 0) || measurements.length !== 18) throw new Error('the fixture export did not parse cleanly');
  await store.client.insert({ table: 'apdex_measurements', values: measurements.map((m) => ApdexRowSchema.parse(apdexMeasurementToRow(m))), format: 'JSONEachRow' });
});
test.after.always(async () => {
  await store?.dispose();
});

interface Line { scope: string; operation: string; target_s: number | null; target_from: string; priority: number | null; n: number; satisfied: number | null; tolerating: number | null; frustrated: number | null; apdex: number | null; rating: string }

async function report(): Promise<Line[]> {
  const rows = await reportRows<Record<string, unknown>>(store.client, 'apdex', WINDOW);
  const num = (v: unknown): number | null => (v === null ? null : Number(v));
  return rows.map((r) => ({
    scope: String(r.scope), operation: String(r.operation), target_s: num(r.target_s), target_from: String(r.target_from), priority: num(r.priority),
    n: Number(r.n), satisfied: num(r.satisfied), tolerating: num(r.tolerating), frustrated: num(r.frustrated), apdex: num(r.apdex), rating: String(r.rating),
  }));
}

const line = (operation: string, target_s: number, target_from: string, priority: number, n: number, s: number, a: number, f: number, apdex: number, rating: string): Line =>
  ({ scope: 'operation', operation, target_s, target_from, priority, n, satisfied: s, tolerating: a, frustrated: f, apdex, rating });
const overall = (scope: string, operation: string, n: number, s: number, a: number, f: number, apdex: number, rating: string): Line =>
  ({ scope, operation, target_s: null, target_from: '', priority: null, n, satisfied: s, tolerating: a, frustrated: f, apdex, rating });
const COUNT = ['overall_count_weighted', '(all operations with a T, count-weighted)'] as const;
const PRIORITY = ['overall_priority_weighted', '(Общая производительность системы, 1C priority-weighted)'] as const;

async function setKeyOperation(row: KeyOperationRow): Promise<void> {
  await store.client.insert({ table: 'key_operations', values: [KeyOperationRowSchema.parse(row)], format: 'JSONEachRow' });
}

test.serial('a mapped measurement row is stored and reads back with its typed values', async (t) => {
  const rs = await store.client.query({
    query: "SELECT toString(ts_start) AS ts, duration_us, operation_name, comment, target_s, priority, long, weight, user, session_number, toString(saved_at) AS saved, failed FROM apdex_measurements WHERE file_key = 'fk1' ORDER BY file_offset LIMIT 1 OFFSET 1",
    format: 'JSONEachRow',
  });
  t.deepEqual(await rs.json(), [{
    ts: '2026-11-30 10:00:20.000', duration_us: '500000', operation_name: 'Проведение документа «Заказ клиента»', comment: 'строк: 10',
    target_s: 1, priority: 1, long: false, weight: 2, user: 'Петров & Co', session_number: '101', saved: '2026-11-30 10:00:20.000', failed: false,
  }]);
});

test.serial('APDEX per operation and overall equals the hand-computed values with the export T', async (t) => {
  // A (T 1 s): S 3, A 3, F 2 of 8 → 4.5/8 = 0.5625 → 0.563 (half-up). B (T 0.5): 3, 1, 1 of 5 → 0.7.
  // C (T 3): 4 of 4 → 1. Count-weighted: (10 + 4/2)/17 = 0.70588 → 0.706. Priority-weighted, Pmax 3,
  // w = 1, 2/3, 1/3: (0.5625 + 0.7·2/3 + 1/3)/2 = 0.68125 → 0.681. The late A run (10 s) is outside the window.
  t.deepEqual(await report(), [
    line(A, 1, 'export', 1, 8, 3, 3, 2, 0.563, 'Poor'),
    line(B, 0.5, 'export', 2, 5, 3, 1, 1, 0.7, 'Fair'),
    line(C, 3, 'export', 3, 4, 4, 0, 0, 1, 'Excellent'),
    overall(...COUNT, 17, 10, 4, 3, 0.706, 'Fair'),
    overall(...PRIORITY, 17, 10, 4, 3, 0.681, 'Poor'),
  ]);
});

test.serial('a T set in key_operations changes the result without re-ingesting, and a later unset restores the export T', async (t) => {
  // The raw rows go away: what follows can only come from apdex_minute, proving it keeps enough for any T.
  await store.client.command({ query: 'TRUNCATE TABLE apdex_measurements' });
  await setKeyOperation({ name: B, description: '', target_s: 0.3, priority: null, min_level: null, source: 'manual', version: 2 });
  // B (T 0.3, 4T 1.2): S 0.1, 0.3; A 0.5, 0.6; F 2.1 → 3/5 = 0.6. Count-weighted: (9 + 5/2)/17 = 0.67647 → 0.676.
  // Priority-weighted: (0.5625 + 0.6·2/3 + 1/3)/2 = 0.647917 → 0.648.
  t.deepEqual(await report(), [
    line(A, 1, 'export', 1, 8, 3, 3, 2, 0.563, 'Poor'),
    line(B, 0.3, 'key_operations', 2, 5, 2, 2, 1, 0.6, 'Poor'),
    line(C, 3, 'export', 3, 4, 4, 0, 0, 1, 'Excellent'),
    overall(...COUNT, 17, 9, 5, 3, 0.676, 'Poor'),
    overall(...PRIORITY, 17, 9, 5, 3, 0.648, 'Poor'),
  ]);
  await setKeyOperation({ name: B, description: '', target_s: null, priority: null, min_level: null, source: 'manual', version: 3 });
  const rows = await report();
  t.like(rows[1], { operation: B, target_s: 0.5, target_from: 'export', apdex: 0.7 });
});

test.serial('a priority set in key_operations reweights only the 1C overall', async (t) => {
  // C raised to priority 1, B stays 2, A 1: Pmax 2, w = 1, 1/2, 1 → (0.5625 + 0.7/2 + 1)/2.5 = 0.765 → 0.765.
  await setKeyOperation({ name: C, description: '', target_s: null, priority: 1, min_level: null, source: 'manual', version: 4 });
  const rows = await report();
  t.like(rows[3], { scope: COUNT[0], apdex: 0.706 });
  t.like(rows[4], { scope: PRIORITY[0], apdex: 0.765, rating: 'Fair' });
});

test.serial("the export's own settings loaded into key_operations give the same APDEX, now labelled from key_operations", async (t) => {
  const a = exportSettings.find((k) => k.operation === A);
  if (a === undefined) return t.fail('the export has no settings for A');
  await setKeyOperation(keyOperationToRow(a, 5));
  const rows = await report();
  t.like(rows[0], { operation: A, target_s: 1, target_from: 'key_operations', priority: 1, n: 8, satisfied: 3, tolerating: 3, frustrated: 2, apdex: 0.563 });
});
