// `perfpipe ingest --apdex DIR` and `perfpipe report apdex` as a user runs them: a generated SSL export in a
// directory → the store → the JSON report equals the APDEX worked out by hand (test/apdex-report.test.ts);
// a second ingest stores nothing; the same file name with new content is read as a new file.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { encodeExport, writeApdexExport } from '../simulate/apdex-export.js';
import { FIXTURE_LATE, FIXTURE_OPERATIONS, FIXTURE_START_MS } from '../simulate/apdex-fixture.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-apdexcli-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

const dir = join(work, 'export');
const data = join(work, 'data');
const FILE = join(dir, '2026-11-30 12-00-00-00001.xml');
const A = 'ПроведениеДокументаЗаказКлиента';
const B = 'ЗаписьСправочникаНоменклатура';
const C = 'ФормированиеОтчетаОстатки';
const COUNT = '(all operations with a T, count-weighted)';
const PRIORITY = '(Общая производительность системы, 1C priority-weighted)';

// Ingesting an export files its settings in key_operations too: T and priority then read from there.
const PRIORITY_OF: Record<string, number> = { [A]: 1, [B]: 2, [C]: 3 };
const op = (operation: string, target_s: number, n: number, satisfied: number, tolerating: number, frustrated: number, apdex: number) =>
  ({ operation, source: 'export', target_s, target_from: 'key_operations', priority: PRIORITY_OF[operation], min_level: null, n, satisfied, tolerating, frustrated, apdex });
const total = (label: string, n: number, satisfied: number, tolerating: number, frustrated: number, apdex: number, rating: string) =>
  ({ label, n, satisfied, tolerating, frustrated, apdex, rating });

// The window of test/apdex-report.test.ts, 10:00–10:10 UTC: the late 10 s run of A (11:00) is outside it.
// A 4.5/8 → 0.563, B 0.7, C 1; count-weighted 12/17 → 0.706 (Fair); priority-weighted 0.68125 → 0.681 (Poor).
const IN_WINDOW = JSON.stringify({
  operations: [op(A, 1, 8, 3, 3, 2, 0.563), op(B, 0.5, 5, 3, 1, 1, 0.7), op(C, 3, 4, 4, 0, 0, 1)],
  overall: { count_weighted: total(COUNT, 17, 10, 4, 3, 0.706, 'Fair'), priority_weighted: total(PRIORITY, 17, 10, 4, 3, 0.681, 'Poor') },
});
// Everything (no --from/--to): A gains the frustrated 10 s run, 4.5/9 = 0.5. Count-weighted (10 + 2)/18 = 0.667;
// priority-weighted (0.5 + 0.7·2/3 + 1/3)/2 = 0.65. All three Poor.
const ALL = JSON.stringify({
  operations: [op(A, 1, 9, 3, 3, 3, 0.5), op(B, 0.5, 5, 3, 1, 1, 0.7), op(C, 3, 4, 4, 0, 0, 1)],
  overall: { count_weighted: total(COUNT, 18, 10, 4, 4, 0.667, 'Poor'), priority_weighted: total(PRIORITY, 18, 10, 4, 4, 0.65, 'Poor') },
});

const report = (...extra: string[]) => runCli(['report', 'apdex', '--format', 'json', '--data', data, ...extra]);
const windowFlags = ['--from', '2026-11-30T10:00:00Z', '--to', String(Date.UTC(2026, 10, 30, 10, 10) / 1000)];

test.serial('ingest --apdex stores the export once and report apdex gives the hand-computed APDEX', async (t) => {
  mkdirSync(dir);
  writeFileSync(FILE, encodeExport(writeApdexExport([...FIXTURE_OPERATIONS, FIXTURE_LATE], { shape: 'attributes' })));
  writeFileSync(join(dir, 'readme.txt'), 'not an export\n');
  const first = await runCli(['ingest', '--apdex', dir, '--data', data]);
  t.is(first.code, 0, first.stderr);
  // 4 KeyOperation settings records and 18 measurements, from the one .xml file.
  t.regex(first.stdout, /^ingested 22 events and 0 ingest errors from 1 files/);
  const inWindow = await report(...windowFlags);
  t.is(inWindow.code, 0, inWindow.stderr);
  t.is(inWindow.stdout, `${IN_WINDOW}\n`);
  const all = await report();
  t.is(all.stdout, `${ALL}\n`);
  // A named run over the same window gives the same report; an open run ends now.
  t.is((await runCli(['runs', 'start', 'baseline', '--at', '2026-11-30T10:00:00Z', '--data', data])).code, 0);
  // The first line says which run stopped; the next ones what of its context was recorded (docs/runs.md).
  t.regex((await runCli(['runs', 'stop', '--at', '2026-11-30T10:10:00Z', '--data', data])).stdout, /^run baseline stopped at 2026-11-30T10:10:00\.000Z\n/);
  t.is((await report('--run', 'baseline')).stdout, `${IN_WINDOW}\n`);
  t.is((await runCli(['runs', 'start', 'everything', '--at', '2000-01-01T00:00:00Z', '--data', data])).code, 0);
  t.is((await report('--run', 'everything')).stdout, `${ALL}\n`);
  const listed = JSON.parse((await runCli(['runs', 'list', '--format', 'json', '--data', data])).stdout) as Array<{ name: string; stopped_at: string | null }>;
  t.deepEqual(listed.map((r) => [r.name, r.stopped_at]), [['everything', null], ['baseline', '2026-11-30 10:10:00.000']]);
  const compared = await runCli(['report', 'run-compare', 'baseline', 'everything', '--format', 'json', '--data', data]);
  t.is(compared.code, 0, compared.stderr);
  const doc = JSON.parse(compared.stdout) as { runs: string[]; operations: Array<Record<string, { apdex: number | null; n: number } | string>>; overall: { delta: { apdex: number } } };
  t.deepEqual(doc.runs, ['baseline', 'everything']);
  t.deepEqual(doc.operations.map((o) => o.operation), [B, A, C], 'by name');
  // A's late frustrated run falls only in "everything": 0.563 over 8 → 0.5 over 9; B and C are the same in both.
  t.like(doc.operations.find((o) => o.operation === A), { baseline: { apdex: 0.563, n: 8 }, everything: { apdex: 0.5, n: 9 }, delta: { apdex: -0.063, n: 1 } });
  t.like(doc.operations.find((o) => o.operation === B), { baseline: { apdex: 0.7, n: 5 }, everything: { apdex: 0.7, n: 5 }, delta: { apdex: 0, n: 0 } });
  // The whole-time window adds A's late frustrated run: 0.563 → 0.5; overall 0.706 → 0.667.
  t.is(doc.overall.delta.apdex, -0.039);
  const missing = await report('--run', 'nope');
  t.is(missing.code, 2);
  t.is(missing.stderr, 'perfpipe: --run: there is no run named "nope"; see perfpipe runs list\n');

  const again = await runCli(['ingest', '--apdex', dir, '--data', data]);
  t.regex(again.stdout, /^ingested 0 events and 0 ingest errors/);
  t.is((await report()).stdout, `${ALL}\n`);
  const rows = await runCli(['sql', 'SELECT (SELECT count() FROM apdex_measurements) AS m, count() AS k, groupArray(version) AS v FROM (SELECT * FROM key_operations FINAL ORDER BY name)', '--data', data, '--format', 'csv']);
  // Export versions are Unix seconds of the newest start per element (by name: B, A, C). Measurements start every
  // 20 s: B's last is the 13th (240 s), C's the 17th (320 s); A's newest is the late run in its own element (3600 s).
  const at = (sec: number) => String(FIXTURE_START_MS / 1000 + sec);
  t.is(rows.stdout, `"m","k","v"\n18,3,"[${at(240)},${at(3600)},${at(320)}]"\n`);
});

test.serial('a file rewritten under the same name with new content is read as a new export', async (t) => {
  const extra = [{ ...(FIXTURE_OPERATIONS[1] as (typeof FIXTURE_OPERATIONS)[number]), measurements: [{ value: 0.2, startMs: FIXTURE_START_MS + 540_000, userName: 'Сидоров' }] }];
  writeFileSync(FILE, encodeExport(writeApdexExport(extra, { shape: 'elements' })));
  const r = await runCli(['ingest', '--apdex', dir, '--data', data]);
  t.regex(r.stdout, /^ingested 2 events and 0 ingest errors from 1 files/);
  // B gains a satisfied run at 10:09: S 4, A 1, F 1 of 6 → 4.5/6 = 0.75.
  const json = JSON.parse((await report(...windowFlags)).stdout) as { operations: Array<{ operation: string; apdex: number; n: number }> };
  t.like(json.operations.find((o) => o.operation === B), { n: 6, apdex: 0.75 });
});

test.serial('the table and csv formats carry the same numbers for people', async (t) => {
  const csv = await runCli(['report', 'apdex', '--format', 'csv', '--data', data, ...windowFlags]);
  t.is(csv.stdout.split('\n')[0], 'scope,operation,target_s,n,satisfied,tolerating,frustrated,apdex,rating,source');
  t.true(csv.stdout.includes(`operation,${A},1,8,3,3,2,0.563,Poor,export`));
  const table = await runCli(['report', 'apdex', '--data', data, ...windowFlags]);
  // After the rewrite: count-weighted (11 + 4/2)/18 = 0.722.
  t.regex(table.stdout, /overall_count_weighted\s+\(all operations with a T, count-weighted\)\s+18\s+11\s+4\s+3\s+0\.722\s+Fair/);
});

test('unusable report arguments exit 2 and say what is expected', async (t) => {
  const name = await runCli(['report', 'apdx', '--data', join(work, 'never')]);
  t.is(name.code, 2);
  t.is(name.stderr, 'perfpipe: report: "apdx" is not a report; expected one of apdex, pg-locks, pg-waits, locks, sql, errors, why, all, run-compare, runs\n');
  const time = await runCli(['report', 'apdex', '--from', 'yesterday', '--data', join(work, 'never')]);
  t.is(time.code, 2);
  t.is(time.stderr, 'perfpipe: --from: "yesterday" is not a time; expected ISO-8601 (e.g. "2026-11-30T10:00:00Z") or Unix seconds\n');
});
