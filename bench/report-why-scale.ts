// Issue #25: `report why` within 2 s on a store of 100M TJ events. The store of bench/report-scale.ts (N generated TJ
// events over 11 hours, through the ordinary tables so the views fill as in production), plus what the pipeline
// writes beside it: one tj_call_splits row per CALL (5 % of the events, as report-scale's CALL share; 200 forms,
// two or three statement shapes per call from the same 3,000, a split that adds up), and pg_activity samples
// (N/100: 3,000 backends, the calls' dbpids). Times `report why` over the whole run, over a window cut inside minutes
// and for one operation, beside the scan the per-minute rollup replaces (the same sums from tj_call_splits), in the
// same run. Usage:
//   node dist/bench/report-why-scale.js [--events 10000000,100000000] [--keep] [--reuse]
// --reuse times a store kept by an earlier --keep run of the same size (after applying any newer migration to it).
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore, type Store } from '../ingest/store/clickhouse.js';
import { migrate } from '../ingest/store/migrations.js';
import { reportParams, reportSql } from '../queries/reports/reports.js';
import { fetchWhyReport } from '../queries/reports/why-report.js';
import { windowParams } from '../queries/reports/window-params.js';
import { benchWorkDir, isMain } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable } from './figures.js';
import { CHUNK, fill, SPAN_S, START_S, timed } from './report-scale.js';

/** CALL share of report-scale's generated journal. */
const CALL_SHARE = 0.05;

const callsChunk = (from: number, count: number, total: number): string => `
INSERT INTO tj_call_splits (ts, ts_start, host, process, pid, infobase, connect_id, session_id, os_thread, user, context_first, duration_us,
  db_us, lock_wait_us, cpu_us, thread_wait_us, other_us, db_count, lock_wait_count, dbpids, sql_hashes, sql_counts, sql_us, flags, file_key, file_offset)
SELECT ts, ts - toIntervalMicrosecond(d), 'app-1c-01', 'rphost', 1000 + number % 8, if(number % 3 = 0, 'zup_load', 'erp_load'),
  100 + number % 3000, number % 3000, 1000 + number % 400, concat('user', toString(number % 500)), ctx, d,
  db, lock, cpu, wait, d - db - lock - cpu - wait, toUInt32(length(shapes) * 2), toUInt32(lock > 0), [toUInt32(2000 + number % 3000)],
  arrayMap(x -> cityHash64(x), shapes), arrayMap(x -> toUInt32(2), shapes),
  arrayMap((x, i) -> if(i = 1, db - intDiv(db, length(shapes)) * (length(shapes) - 1), intDiv(db, length(shapes))), shapes, arrayEnumerate(shapes)),
  [], 'gen', number
FROM
(
  SELECT number,
    toDateTime64(${START_S}, 6, 'UTC') + toIntervalMicrosecond(intDiv(number * ${SPAN_S * 1_000_000}, ${total})) AS ts,
    concat('Форма.Команда', toString(cityHash64(number, 2) % 200)) AS ctx,
    toUInt64(20000 + (cityHash64(number, 3) % 200000) * if(cityHash64(number, 4) % 50 = 0, 50, 1)) AS d,
    arrayMap(k -> toUInt64(1 + floor(pow((cityHash64(number, k) % 100000) / 100000, 3) * 3000)), range(5, 7 + cityHash64(number, 5) % 2)) AS shapes,
    intDiv(d * 6, 10) AS db, if(cityHash64(number, 6) % 20 = 0, intDiv(d, 5), 0) AS lock, intDiv(d, 10) AS cpu, intDiv(d, 50) AS wait
  FROM numbers(${from}, ${count})
)`;

const activityChunk = (from: number, count: number, total: number): string => `
INSERT INTO pg_activity (ts, host, server, interval_ms, pid, database, user, application, client_addr, backend_type, state, wait_event_type,
  wait_event, xact_start, query_start, state_change, backend_xid, query_id, query, blocking_pids)
SELECT toDateTime64(${START_S}, 3, 'UTC') + toIntervalMillisecond(intDiv(number * ${SPAN_S * 1000}, ${total})), 'db-1', 'db-1', 1000,
  toUInt32(2000 + cityHash64(number) % 3000), 'erp_load', 'usr1cv8', '1CV8', '', 'client backend', 'active',
  arrayElement(['', 'IO', 'Lock', 'LWLock'], 1 + cityHash64(number, 1) % 4), arrayElement(['', 'DataFileRead', 'extend', 'WALWrite'], 1 + cityHash64(number, 1) % 4),
  NULL, NULL, NULL, NULL, '', 'SELECT 1', []
FROM numbers(${from}, ${count})`;

/** The per-operation sums straight from tj_call_splits: what the rollup spares `report why`. */
const RAW_SUMS = `SELECT context_first, count() AS n, sum(duration_us), sum(db_us), sum(lock_wait_us), sum(cpu_us), sum(thread_wait_us), sum(other_us),
    sumMap(sql_hashes, sql_us) AS statements
  FROM tj_call_splits WHERE ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
  GROUP BY context_first ORDER BY sum(duration_us) DESC`;

async function fillCalls(store: Store, events: number): Promise<number> {
  const calls = Math.round(events * CALL_SHARE);
  for (let from = 0; from < calls; from += CHUNK) await store.client.command({ query: callsChunk(from, Math.min(CHUNK, calls - from), calls) });
  const samples = Math.round(events / 100);
  for (let from = 0; from < samples; from += CHUNK) await store.client.command({ query: activityChunk(from, Math.min(CHUNK, samples - from), samples) });
  return calls;
}

export async function run(options: { events?: number[]; keep?: boolean; reuse?: boolean } = {}): Promise<BenchResult> {
  const sizes = options.events ?? [10_000_000];
  const figures: BenchResult['figures'] = [];
  const notes: string[] = [];
  const input: BenchResult['input'] = {};
  let ok = true;
  for (const events of sizes) {
    const dir = join(benchWorkDir(), `report-why-scale-${events}`);
    const reuse = (options.reuse ?? false) && existsSync(dir);
    if (!reuse) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    }
    const store = await openStore({ data: dir });
    try {
      const t0 = performance.now();
      await migrate(store);
      if (!reuse) await fill(store, events);
      const calls = reuse ? Math.round(events * CALL_SHARE) : await fillCalls(store, events);
      const fillS = (performance.now() - t0) / 1000;
      const rows = async (name: string, params: Record<string, unknown>) =>
        (await store.client.query({ query: reportSql(name), query_params: reportParams(name, params), format: 'JSONEachRow' })).json<Record<string, unknown>>();
      const whole = windowParams({ from: START_S, to: START_S + SPAN_S });
      const cut = windowParams({ from: START_S + 1234.567, to: START_S + SPAN_S - 987.654 });
      const label = `${events / 1e6}M events`;
      const whyWhole = await timed(() => fetchWhyReport((n, p = {}) => rows(n, { ...whole, ...p })));
      const whyCut = await timed(() => fetchWhyReport((n, p = {}) => rows(n, { ...cut, ...p })));
      const whyOne = await timed(() => fetchWhyReport((n, p = {}) => rows(n, { ...whole, ...p }), 'Форма.Команда7'));
      // Each query of the whole-run report alone, with the parameters fetchWhyReport gives it.
      const asked: Array<[string, Record<string, unknown>]> = [];
      await fetchWhyReport((n, p = {}) => { asked.push([n, { ...whole, ...p }]); return rows(n, { ...whole, ...p }); });
      const perQuery: Record<string, number> = {};
      for (const [n, params] of asked) perQuery[n] = await timed(() => rows(n, params));
      const raw = await timed(async () => (await store.client.query({ query: RAW_SUMS, query_params: whole, format: 'JSONEachRow' })).json());
      const report = await fetchWhyReport((n, p = {}) => rows(n, { ...whole, ...p }));
      // Every call counted once over all operations (the report lists the 20 with the most time).
      const sum = (await rows('why-operations', { ...whole, operation: '' })).reduce((a, o) => a + Number(o.calls), 0);
      ok &&= sum === calls && report.operations.length > 0 && report.operations.every((o) => o.pg_wait_events.length > 0 && o.top_sql.length > 0);
      const [sizesRow] = await (await store.client.query({
        query: `SELECT sumIf(rows, table = 'tj_call_split_minute') AS minute_rows, sumIf(bytes_on_disk, table = 'tj_call_split_minute') AS rollup_bytes,
          sumIf(bytes_on_disk, table = 'tj_call_splits') AS splits_bytes FROM system.parts WHERE active AND database = currentDatabase()`, format: 'JSONEachRow' })).json<Record<string, string>>();
      input[`events_${label}`] = events;
      figures.push(
        { name: `${label}: report why, whole run`, value: whyWhole, unit: 's' },
        { name: `${label}: report why, window cut inside minutes`, value: whyCut, unit: 's' },
        { name: `${label}: report why --operation (one of 200)`, value: whyOne, unit: 's' },
        { name: `${label}: the same sums from tj_call_splits (reference)`, value: raw, unit: 's' },
        { name: `${label}: reference / report why`, value: raw / whyWhole, unit: '×' },
        ...Object.entries(perQuery).map(([n, v]) => ({ name: `${label}: ${n} alone, whole run`, value: v, unit: 's' })),
        { name: `${label}: tj_call_split_minute rows`, value: Number(sizesRow?.minute_rows), unit: 'rows' },
        { name: `${label}: rollup on disk / tj_call_splits on disk`, value: Number(sizesRow?.rollup_bytes) / Number(sizesRow?.splits_bytes), unit: '×' },
      );
      notes.push(`${label}: ${reuse ? 'reused, migrated' : 'filled'} in ${fillS.toFixed(0)} s; ${calls} calls, report why counts ${sum}`);
    } finally {
      await store.close();
      if (!options.keep) rmSync(dir, { recursive: true, force: true });
    }
  }
  return { bench: 'report-why-scale', input, figures, ok, notes };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { events: { type: 'string' }, keep: { type: 'boolean' }, reuse: { type: 'boolean' } } });
  const r = await run({ ...(values.events ? { events: values.events.split(',').map(Number) } : {}), keep: (values.keep ?? false) || (values.reuse ?? false),
    reuse: values.reuse ?? false });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  for (const note of r.notes ?? []) console.log(`note: ${note}`);
  if (!r.ok) process.exitCode = 1;
}
