// Issue #25: `report sql` and `report errors` within 2 s on a store of a long load test. Fills an embedded store with
// N generated TJ events over 11 hours (the shape of a 1C load test's journal: 60 % DB statements of 3,000 shapes with
// a long tail, each from one of three forms, TLOCK, SDBL, CALL, a few EXCP/QERR) and N/10 PostgreSQL log entries with some errors, through the
// ordinary tables so the materialized views fill as in production; then times each report over the whole run and
// over a window cut inside minutes (the raw edges of tj_sql_window), beside the scan the rollup replaces (the same
// statement list aggregated from tj_events), in the same run. Usage:
//   node dist/bench/report-scale.js [--events 10000000,30000000] [--keep]
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore, type Store } from '../ingest/store/clickhouse.js';
import { migrate } from '../ingest/store/migrations.js';
import { reportParams, reportSql } from '../queries/reports/reports.js';
import { fetchSqlReport } from '../queries/reports/sql-report.js';
import { fetchErrorsReport } from '../queries/reports/errors-report.js';
import { windowParams } from '../queries/reports/window-params.js';
import { benchWorkDir, isMain } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable } from './figures.js';

export const START_S = 1_796_000_400; // 2026-11-30 09:00 UTC-ish, a whole minute
export const SPAN_S = 11 * 3600;
export const CHUNK = 2_000_000;

/** One chunk of generated TJ events: numbers [from, from + count) spread evenly over the 11 hours. */
const tjChunk = (from: number, count: number, total: number): string => `
INSERT INTO tj_events (ts, ts_start, duration_us, event, depth, host, process, pid, infobase, connect_id, session_id, client_id, os_thread,
  user, app, computer, context, context_first, context_last, dbms, database, dbpid, trans, func, sql, sql_hash, prm, rows, rows_affected,
  memory, memory_peak, cpu_time, in_bytes, out_bytes, call_wait, regions, locks, wait_connections, deadlock_intersections, exception, descr,
  props, file, file_key, file_offset)
SELECT ts, ts - toIntervalMicrosecond(d) AS ts_start, d, ev, 4, 'app-1c-01', 'rphost', 1000 + number % 8, if(number % 3 = 0, 'zup_load', 'erp_load'),
  100 + number % 3000, number % 3000, number % 3000, 1000 + number % 400, concat('user', toString(number % 500)), '1CV8C', 'LT-01',
  ctx, ctx, ctx, if(ev = 'DBPOSTGRS', 'DBPOSTGRS', ''), '', toUInt32(2000 + number % 3000), NULL, '',
  if(ev = 'DBPOSTGRS', concat('SELECT T1._IDRRef FROM _Reference', toString(shape), ' T1 WHERE T1._IDRRef = $1'), ''),
  if(ev = 'DBPOSTGRS', cityHash64(shape), 0), '', if(ev = 'DBPOSTGRS', toInt64(number % 40), NULL), NULL,
  NULL, NULL, NULL, NULL, NULL, NULL, [], '', [], '', if(ev = 'EXCP', concat('E', toString(number % 5)), ''),
  if(ev IN ('EXCP', 'QERR'), concat('src\\\\Module', toString(number % 20), '.cpp(12):\\n', toString(number)), ''),
  map(), 'gen', 'gen', number
FROM
(
  SELECT number,
    toDateTime64(${START_S}, 6, 'UTC') + toIntervalMicrosecond(intDiv(number * ${SPAN_S * 1_000_000}, ${total})) AS ts,
    (cityHash64(number) % 100000) / 100000 AS r,
    multiIf(r < 0.60, 'DBPOSTGRS', r < 0.80, 'TLOCK', r < 0.88, 'SDBL', r < 0.93, 'CALL', r < 0.9994, 'SCALL', r < 0.9998, 'EXCP', 'QERR') AS ev,
    toUInt64(1 + floor(pow((cityHash64(number, 1) % 100000) / 100000, 3) * 3000)) AS shape,
    -- A statement runs from the few forms whose code holds it: three contexts per shape, 200 in all.
    concat('Форма.Команда', toString((shape * 7 + cityHash64(number, 2) % 3) % 200)) AS ctx,
    toUInt64(20 + (cityHash64(number, 3) % 2000) * if(cityHash64(number, 4) % 50 = 0, 500, 1)) AS d
  FROM numbers(${from}, ${count})
)`;

const pgChunk = (from: number, count: number, total: number): string => `
INSERT INTO pg_log (ts, kind, severity, sqlstate, pid, session_id, line_num, user, database, application, client, backend_type, command_tag, vxid,
  xid, query_id, message, detail, hint, context, statement, statement_phase, duration_ms, lock_phase, lock_mode, lock_object, lock_object_kind,
  lock_relation_oid, lock_relation_name, lock_wait_ms, lock_holder_pids, lock_queue_pids, temp_file_path, temp_file_bytes, lang, props, host,
  file, file_key, file_offset)
SELECT ts, if(err, 'error', 'duration'), if(err, 'ERROR', 'LOG'), if(err, '23505', ''), toUInt32(2000 + number % 3000), '', number, 'usr1cv8',
  'erp_load', '1CV8', '', '', '', '', NULL, '',
  if(err, concat('duplicate key value violates unique constraint "_reference', toString(number % 30), '_idx"'), concat('duration: ', toString(number % 900), '.5 ms')),
  '', '', '', '', '', NULL, '', '', '', '', NULL, '', NULL, [], [], '', NULL, 'en', map(), 'db-1', 'gen', 'gen', number
FROM
(
  SELECT number, toDateTime64(${START_S}, 3, 'UTC') + toIntervalMillisecond(intDiv(number * ${SPAN_S * 1000}, ${total})) AS ts,
    cityHash64(number, 9) % 1000 < 2 AS err
  FROM numbers(${from}, ${count})
)`;

/** The statement list aggregated straight from tj_events: what the rollup spares `report sql`. */
const RAW_SQL = `SELECT sql_hash, count() AS n, sum(duration_us) AS us, quantileTDigest(0.95)(duration_us) AS p95
  FROM tj_events WHERE event IN ('DBPOSTGRS', 'DBMSSQL', 'DBORACLE', 'DB2', 'DBV8DBEng') AND sql_hash != 0
    AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
  GROUP BY sql_hash ORDER BY us DESC LIMIT 50`;

export async function fill(store: Store, events: number): Promise<void> {
  for (let from = 0; from < events; from += CHUNK) await store.client.command({ query: tjChunk(from, Math.min(CHUNK, events - from), events) });
  const pg = Math.round(events / 10);
  for (let from = 0; from < pg; from += CHUNK) await store.client.command({ query: pgChunk(from, Math.min(CHUNK, pg - from), pg) });
  await store.client.command({ query: 'OPTIMIZE TABLE tj_sql_text FINAL' });
}

/** Median of three runs, s, after one run that warms the caches. */
export async function timed(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await run();
    times.push((performance.now() - t0) / 1000);
  }
  return times.sort((a, b) => a - b)[1] as number;
}

export async function run(options: { events?: number[]; keep?: boolean } = {}): Promise<BenchResult> {
  const sizes = options.events ?? [10_000_000, 30_000_000];
  const figures: BenchResult['figures'] = [];
  const notes: string[] = [];
  const input: BenchResult['input'] = {};
  let ok = true;
  for (const events of sizes) {
    const dir = join(benchWorkDir(), `report-scale-${events}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const store = await openStore({ data: dir });
    try {
      await migrate(store);
      const t0 = performance.now();
      await fill(store, events);
      const fillS = (performance.now() - t0) / 1000;
      const rows = async (name: string, params: Record<string, unknown>) =>
        (await store.client.query({ query: reportSql(name), query_params: reportParams(name, params), format: 'JSONEachRow' })).json<Record<string, unknown>>();
      const whole = windowParams({ from: START_S, to: START_S + SPAN_S });
      const cut = windowParams({ from: START_S + 1234.567, to: START_S + SPAN_S - 987.654 });
      const label = `${events / 1e6}M events`;
      const sqlWhole = await timed(() => fetchSqlReport((n, p = {}) => rows(n, { ...whole, ...p })));
      const sqlCut = await timed(() => fetchSqlReport((n, p = {}) => rows(n, { ...cut, ...p })));
      const rawWhole = await timed(async () => (await store.client.query({ query: RAW_SQL, query_params: whole, format: 'JSONEachRow' })).json());
      const errors = await timed(() => fetchErrorsReport((n, p = {}) => rows(n, { ...whole, ...p })));
      const report = await fetchSqlReport((n, p = {}) => rows(n, { ...whole, ...p }));
      const [count] = await (await store.client.query({
        query: `SELECT count() AS n FROM tj_events WHERE event = 'DBPOSTGRS' AND sql_hash != 0`, format: 'JSONEachRow' })).json<{ n: string }>();
      ok &&= report.total.count === Number(count?.n);
      const [sizes] = await (await store.client.query({
        query: `SELECT sumIf(rows, table = 'tj_sql_hour') AS hour_rows, sumIf(rows, table = 'tj_sql_minute') AS minute_rows,
          sumIf(rows, table = 'tj_sql_context_minute') AS context_rows,
          sumIf(bytes_on_disk, table LIKE 'tj_sql_%') AS rollup_bytes, sumIf(bytes_on_disk, table = 'tj_events') AS events_bytes
          FROM system.parts WHERE active AND database = currentDatabase()`, format: 'JSONEachRow' })).json<Record<string, string>>();
      input[`events_${label}`] = events;
      figures.push(
        { name: `${label}: report sql, whole run`, value: sqlWhole, unit: 's' },
        { name: `${label}: report sql, window cut inside minutes`, value: sqlCut, unit: 's' },
        { name: `${label}: report errors, whole run (raw tables)`, value: errors, unit: 's' },
        { name: `${label}: the same statement list from tj_events (reference)`, value: rawWhole, unit: 's' },
        { name: `${label}: reference / report sql`, value: rawWhole / sqlWhole, unit: '×' },
        { name: `${label}: tj_sql_hour rows`, value: Number(sizes?.hour_rows), unit: 'rows' },
        { name: `${label}: tj_sql_minute rows`, value: Number(sizes?.minute_rows), unit: 'rows' },
        { name: `${label}: tj_sql_context_minute rows`, value: Number(sizes?.context_rows), unit: 'rows' },
        { name: `${label}: the tj_sql_* rollups on disk / tj_events on disk`, value: Number(sizes?.rollup_bytes) / Number(sizes?.events_bytes), unit: '×' },
      );
      notes.push(`${label}: filled in ${fillS.toFixed(0)} s (${(events / fillS / 1000).toFixed(0)}k events/s through the views); report sql total ${report.total.count} executions = count() ${count?.n}`);
    } finally {
      await store.close();
      if (!options.keep) rmSync(dir, { recursive: true, force: true });
    }
  }
  return { bench: 'report-scale', input, figures, ok, notes };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { events: { type: 'string' }, keep: { type: 'boolean' } } });
  const r = await run({ ...(values.events ? { events: values.events.split(',').map(Number) } : {}), keep: values.keep ?? false });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  for (const note of r.notes ?? []) console.log(`note: ${note}`);
  if (!r.ok) process.exitCode = 1;
}
