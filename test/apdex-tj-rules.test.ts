// `perfpipe report apdex --config` with key operations measured from TJ CALL events by context rules beside the
// performance-evaluation export's operations (issue #5 items 1b, 2): a TJ written with the platform's format and a
// generated export are ingested by the CLI, and the report must equal what the plan below says — each call's band is
// chosen when it is planned (exact T and 4T included), and APDEX is worked out here in integer arithmetic.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { openStore } from '../ingest/store/clickhouse.js';
import { reportParams, reportRows, reportSql } from '../queries/reports/reports.js';
import { inlineParams, type ReportParams } from '../queries/reports/report-rows.js';
import { keyOperationParams } from '../queries/reports/key-operation-params.js';
import { parseConfig } from '../ingest/config/config.js';
import { encodeExport, writeApdexExport } from '../simulate/apdex-export.js';
import { FIXTURE_LATE, FIXTURE_OPERATIONS, FIXTURE_START_MS } from '../simulate/apdex-fixture.js';
import { createLocalClock, tjProcessFolder } from '../simulate/tj-layout.js';
import { formatTjFile, type TjRecord } from '../simulate/tj-writer.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-apdextj-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));
const data = join(work, 'data');

const R1 = 'Запись номенклатуры';
const R2 = 'Проведение документов ERP';
const R3 = "Всё о номенклатуре 'прочее'";
const CONFIG = `
apdex:
  operations:
    - { name: ${R1}, context: "Форма.Записать : Справочник.Номенклатура", target_s: 0.5, priority: 2, min_apdex: 0.85 }
    - name: ${R2}
      context_regex: '^Форма\\.(Записать|Провести) : Документ\\.'
      infobase: erp_load
      target_s: 1.5
      priority: 1
      min_apdex: 0.7
    - { name: "${R3}", context_regex: Номенклатур, target_s: 0.25 }
    - { name: ЗаписьСправочникаНоменклатура, target_s: 0.3 }
    - { name: ПроведениеДокументаЗаказКлиента, min_apdex: 0.5 }
`;

type Band = 'S' | 'A' | 'F';
interface Call { context: string; infobase: string; startS: number; us: number; rule: string | null; band: Band | null }
const NOM = 'Форма.Записать : Справочник.Номенклатура.ФормаОбъекта';
const SALE = 'Форма.Провести : Документ.РеализацияТоваровУслуг.ФормаОбъекта';
const ORDER = 'Форма.Записать : Документ.ЗаказКлиента.ФормаОбъекта';
const LOAD = 'Обработка.ЗагрузкаНоменклатуры.Форма.Загрузить';
const OTHER = 'Система.ПолучитьИзВременногоХранилища';
// Seconds after 10:00 UTC at which each call starts; the window is 10:00–10:10.
const CALLS: Call[] = [
  // R1, T 0.5 s, any infobase: the prefix wins over R3's regex, which matches too.
  ...([[1000, 'S'], [499_999, 'S'], [500_000, 'S'], [500_001, 'A'], [1_999_999, 'A'], [2_000_000, 'A'], [2_000_001, 'F'], [9_000_000, 'F']] as const)
    .map(([us, band], i): Call => ({ context: NOM, infobase: i % 2 ? 'zup_load' : 'erp_load', startS: 70 + i * 31, us, rule: R1, band })),
  // R2, T 1.5 s, erp_load only; the same contexts in zup_load match no rule.
  ...([[SALE, 1_500_000, 'S'], [ORDER, 20_000, 'S'], [SALE, 1_500_001, 'A'], [ORDER, 6_000_000, 'A'], [SALE, 6_000_001, 'F']] as const)
    .map(([context, us, band], i): Call => ({ context, infobase: 'erp_load', startS: 95 + i * 47, us, rule: R2, band })),
  { context: SALE, infobase: 'zup_load', startS: 130, us: 100, rule: null, band: null },
  { context: ORDER, infobase: 'zup_load', startS: 131, us: 9_000_000, rule: null, band: null },
  // R3, T 0.25 s.
  ...([[250_000, 'S'], [250_001, 'A'], [1_000_000, 'A'], [1_000_001, 'F']] as const)
    .map(([us, band], i): Call => ({ context: LOAD, infobase: 'zup_load', startS: 200 + i * 13, us, rule: R3, band })),
  { context: OTHER, infobase: 'erp_load', startS: 300, us: 5_000_000, rule: null, band: null },
  // Outside the window: starts at 9:59:59.9 (ends inside it), and at 10:15.
  { context: NOM, infobase: 'erp_load', startS: -0.1, us: 600_000, rule: null, band: null },
  { context: NOM, infobase: 'erp_load', startS: 900, us: 100, rule: null, band: null },
];

function writeCalls(dir: string): void {
  const clock = createLocalClock('Europe/Moscow');
  const files = new Map<string, TjRecord[]>();
  CALLS.forEach((c, i) => {
    const endUs = (FIXTURE_START_MS + c.startS * 1000) * 1000 + c.us;
    const { hour, ...at } = clock(endUs);
    const list = files.get(hour) ?? [];
    list.push({ ...at, duration_us: c.us, name: 'CALL', depth: 2, props: [
      ['process', 'rphost'], ['p:processName', c.infobase], ['t:clientID', String(40 + i)], ['t:applicationName', '1CV8C'],
      ['t:connectID', String(700 + i)], ['SessionID', String(10 + i)], ['Usr', 'Иванов'], ['Context', c.context],
      ['Interface', 'bc15bd01-10bf-413c-a856-ddc907fcd123'], ['IName', 'IVResourceRemoteConnection'], ['Method', '0'], ['CallID', String(i)],
      ['MName', 'send'], ['Memory', '100'], ['MemoryPeak', '2000'], ['InBytes', '0'], ['OutBytes', '0'], ['CpuTime', '10'],
    ] });
    files.set(hour, list);
  });
  const folder = join(dir, tjProcessFolder('rphost', 3131));
  mkdirSync(folder, { recursive: true });
  for (const [hour, records] of files) writeFileSync(join(folder, `${hour}.log`), formatTjFile(records));
}

test.before(async () => {
  writeCalls(join(work, 'tj'));
  mkdirSync(join(work, 'export'));
  writeFileSync(join(work, 'export', '2026-11-30 12-00-00-00001.xml'), encodeExport(writeApdexExport([...FIXTURE_OPERATIONS, FIXTURE_LATE], { shape: 'attributes' })));
  writeFileSync(join(work, 'perfpipe.yaml'), CONFIG);
  for (const args of [['--tj', join(work, 'tj'), '--tz', 'Europe/Moscow'], ['--apdex', join(work, 'export')]]) {
    const r = await runCli(['ingest', ...args, '--data', data]);
    if (r.code !== 0) throw new Error(r.stderr);
  }
});

const WINDOW = ['--from', '2026-11-30T10:00:00Z', '--to', '2026-11-30T10:10:00Z'];
/** (2S + A)/(2N) rounded half-up to 3 decimals, in integers as apdex.sql does. */
const apdex = (s: number, a: number, n: number) => Math.floor(((2 * s + a) * 1000 + n) / (2 * n)) / 1000;
const rating = (x: number) => (x >= 0.94 ? 'Excellent' : x >= 0.85 ? 'Good' : x >= 0.7 ? 'Fair' : x >= 0.5 ? 'Poor' : 'Unacceptable');

interface Op { operation: string; source: string; target_s: number; target_from: string; priority: number | null; min_level: number | null; n: number; satisfied: number; tolerating: number; frustrated: number; apdex: number }

function planned(): { operations: Op[]; overall: unknown } {
  const tj = (operation: string, target_s: number, priority: number | null, min_level: number | null): Op => {
    const mine = CALLS.filter((c) => c.rule === operation);
    const count = (b: Band) => mine.filter((c) => c.band === b).length;
    return { operation, source: 'tj', target_s, target_from: 'config', priority, min_level, n: mine.length, satisfied: count('S'), tolerating: count('A'), frustrated: count('F'), apdex: apdex(count('S'), count('A'), mine.length) };
  };
  // The fixture's operations (test/apdex-report.test.ts): A T 1 → 3/3/2; B with the config's T 0.3 → 2/2/1; C → 4/0/0.
  // Ingesting an export also files its settings in key_operations, so that is where their T comes from.
  const exp = (operation: string, target_s: number, target_from: string, priority: number, min_level: number | null, s: number, a: number, f: number): Op =>
    ({ operation, source: 'export', target_s, target_from, priority, min_level, n: s + a + f, satisfied: s, tolerating: a, frustrated: f, apdex: apdex(s, a, s + a + f) });
  const operations = [
    tj(R1, 0.5, 2, 0.85), tj(R2, 1.5, 1, 0.7), tj(R3, 0.25, null, null),
    exp('ПроведениеДокументаЗаказКлиента', 1, 'key_operations', 1, 0.5, 3, 3, 2),
    exp('ЗаписьСправочникаНоменклатура', 0.3, 'config', 2, null, 2, 2, 1),
    exp('ФормированиеОтчетаОстатки', 3, 'key_operations', 3, null, 4, 0, 0),
  ].sort((x, y) => x.apdex - y.apdex || (x.operation < y.operation ? -1 : x.operation > y.operation ? 1 : 0));
  const sum = (ops: Op[], k: 'n' | 'satisfied' | 'tolerating' | 'frustrated') => ops.reduce((t, o) => t + o[k], 0);
  const total = (label: string, ops: Op[], value: number) => ({
    label, n: sum(ops, 'n'), satisfied: sum(ops, 'satisfied'), tolerating: sum(ops, 'tolerating'), frustrated: sum(ops, 'frustrated'), apdex: value, rating: rating(value),
  });
  const weighted = operations.filter((o) => o.priority !== null);
  const pmax = Math.max(...weighted.map((o) => o.priority as number));
  const w = (o: Op) => 1 - ((o.priority as number) - 1) / pmax;
  const share = weighted.reduce((t, o) => t + w(o) * (2 * o.satisfied + o.tolerating) / (2 * o.n), 0) / weighted.reduce((t, o) => t + w(o), 0);
  return {
    operations,
    overall: {
      count_weighted: total('(all operations with a T, count-weighted)', operations, apdex(sum(operations, 'satisfied'), sum(operations, 'tolerating'), sum(operations, 'n'))),
      priority_weighted: total('(Общая производительность системы, 1C priority-weighted)', weighted, Math.floor(share * 1000 + 0.5) / 1000),
    },
  };
}

test.serial('TJ operations by context rule stand beside the export operations, with the config overriding T and levels', async (t) => {
  const r = await runCli(['report', 'apdex', '--format', 'json', '--config', join(work, 'perfpipe.yaml'), '--data', data, ...WINDOW]);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(JSON.parse(r.stdout), planned());
});

test.serial('without a config the report is the export alone, as before', async (t) => {
  const r = await runCli(['report', 'apdex', '--format', 'json', '--data', data, ...WINDOW]);
  const doc = JSON.parse(r.stdout) as { operations: Op[] };
  t.deepEqual(doc.operations.map((o) => [o.operation, o.source, o.target_s, o.target_from, o.apdex]), [
    ['ПроведениеДокументаЗаказКлиента', 'export', 1, 'key_operations', 0.563],
    ['ЗаписьСправочникаНоменклатура', 'export', 0.5, 'key_operations', 0.7],
    ['ФормированиеОтчетаОстатки', 'export', 3, 'key_operations', 1],
  ]);
});

test.serial('the daemon path inlines the same rules as literals and gets the same rows as bound parameters', async (t) => {
  const config = parseConfig({ apdex: { operations: [
    { name: R3, context_regex: "Номенклатур|O'Brien\\\\", target_s: 0.25 },
    { name: R1, context: NOM.slice(0, 20), target_s: 0.5, priority: 2 },
  ] } });
  const params = { from: String(FIXTURE_START_MS / 1000), to: String(FIXTURE_START_MS / 1000 + 600), ...keyOperationParams(config.apdex.operations) };
  const store = await openStore({ data });
  try {
    const bound = await reportRows<Record<string, unknown>>(store.client, 'apdex', params);
    const rs = await store.client.query({ query: inlineParams(reportSql('apdex'), reportParams('apdex', params) as ReportParams), format: 'JSONEachRow' });
    t.deepEqual(await rs.json(), bound);
    // The first rule wins: R3's regex takes R1's calls (8) besides its own (4), and R1 has none.
    t.deepEqual(bound.filter((x) => x.source === 'tj').map((x) => [x.operation, Number(x.n)]), [[R3, 12]]);
  } finally {
    await store.close();
  }
});

test.serial('run-compare takes the same config: TJ operations are compared run against run', async (t) => {
  for (const args of [['start', 'whole', '--at', '2026-11-30T10:00:00Z'], ['stop', '--at', '2026-11-30T10:10:00Z'], ['start', 'first', '--at', '2026-11-30T10:00:00Z'], ['stop', '--at', '2026-11-30T10:03:00Z']]) {
    const r = await runCli(['runs', ...args, '--data', data]);
    t.is(r.code, 0, r.stderr);
  }
  const r = await runCli(['report', 'run-compare', 'first', 'whole', '--format', 'json', '--config', join(work, 'perfpipe.yaml'), '--data', data]);
  t.is(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { operations: Array<{ operation: string; first: { n: number }; whole: { n: number } }> };
  // 10:00–10:03 holds the calls planned to start before 180 s; the whole run holds them all.
  const inFirst = (rule: string) => CALLS.filter((c) => c.rule === rule && c.startS < 180).length;
  for (const rule of [R1, R2, R3]) {
    t.like(doc.operations.find((o) => o.operation === rule), { first: { n: inFirst(rule) }, whole: { n: CALLS.filter((c) => c.rule === rule).length } });
  }
});
