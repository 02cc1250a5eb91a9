// `report why` over any window equals the stored call rows of that window: whole hours from the hour rollups
// (064_tj_call_hours.sql), whole minutes of partial hours from the minute rollups (062), partial minutes from
// tj_call_splits; and its slowest calls, read above the floor the hourly maxima give, are the window's slowest rows.
// Random windows over three hours of calls, inserted through tj_call_splits so the views fill as in production; two
// infobases with the same context lines, and one configured operation taking two of them.
import test from 'ava';
import fc from 'fast-check';
import { openTempStore, type TempStore } from '../../test/support/temp-store.js';
import { reportParams, reportSql } from './reports.js';
import { fetchWhyReport, WHY_SLOWEST, WHY_TOP_SQL } from './why-report.js';
import { windowParams } from './window-params.js';

const START = 1_796_000_400; // 09:00:00 UTC, a whole hour
const SPAN = 3 * 3600 + 600;
let store: TempStore;

test.before(async () => {
  store = await openTempStore('perfpipe-why-window-');
  // 18,000 calls of 6 forms in 2 infobases at random µs over 3 h 10 min, each with 1–3 of 30 statement shapes, in 6
  // inserts (6 blocks per view). One call in 40 is 20 times longer: the slowest calls are not in every hour alike.
  for (let part = 0; part < 6; part++) {
    await store.client.command({ query: `INSERT INTO tj_call_splits (ts, ts_start, host, process, pid, infobase, connect_id, session_id, os_thread,
        user, context_first, duration_us, db_us, lock_wait_us, cpu_us, thread_wait_us, other_us, db_count, lock_wait_count, dbpids,
        sql_hashes, sql_counts, sql_us, flags, file_key, file_offset)
      SELECT ts, ts - toIntervalMicrosecond(d), 'h', 'rphost', 1, if(number % 2 = 0, 'ib1', 'ib2'), number % 50, number % 50, 7, 'u', ctx, d,
        db, 0, intDiv(d, 10), 0, d - db - intDiv(d, 10), length(shapes), 0, [], shapes, arrayMap(x -> toUInt32(1), shapes),
        arrayMap((x, i) -> if(i = 1, db - intDiv(db, length(shapes)) * (length(shapes) - 1), intDiv(db, length(shapes))), shapes, arrayEnumerate(shapes)),
        [], 'k', number
      FROM (SELECT number, toDateTime64(${START}, 6, 'UTC') + toIntervalMicrosecond(cityHash64(number, 1) % ${SPAN * 1_000_000}) AS ts,
              concat('Форма', toString(cityHash64(number, 3) % 6)) AS ctx,
              toUInt64((1000 + cityHash64(number, 4) % 100000) * if(cityHash64(number, 5) % 40 = 0, 20, 1)) AS d, intDiv(d * 6, 10) AS db,
              arrayMap(k -> cityHash64(k) % 30 + 1, range(1, 2 + cityHash64(number, 6) % 3)) AS shapes
            FROM numbers(${part * 3000}, 3000))` });
  }
});
test.after.always(async () => {
  await store?.dispose();
});

/** Форма1 and Форма2 are one configured operation; the others are their own context line. */
const RULE = { op_names: ['Both'], op_prefixes: [''], op_regexes: ['^Форма[12]$'], op_infobases: [''], op_targets: [0.05], op_priorities: [null], op_min_levels: [null] };
const OPERATION = `if(match(context_first, '^Форма[12]$'), 'Both', toString(context_first))`;

const rows = async (name: string, params: Record<string, unknown>) =>
  (await store.client.query({ query: reportSql(name), query_params: reportParams(name, { ...params, ...RULE }), format: 'JSONEachRow' })).json<Record<string, unknown>>();

async function raw<T>(query: string, w: { from: number; to: number }): Promise<T[]> {
  const rs = await store.client.query({ query, query_params: windowParams(w), format: 'JSONEachRow' });
  return rs.json<T>();
}

const WINDOW = 'ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}';

test('report why equals the call rows for windows cut anywhere: whole hours, minutes, edges; the slowest calls above the hourly floor', async (t) => {
  const fixed = [[0, SPAN], [0, 3600], [1800, 9000], [3600, 7200], [59.5, 10_799.25], [125.125, 130.5], [7199.999, 7200.001], [-50, 3 * 3600]];
  const windows = [...fixed, ...fc.sample(fc.tuple(fc.double({ min: -100, max: SPAN, noNaN: true }), fc.double({ min: 0, max: 9000, noNaN: true })), { numRuns: 20, seed: 64 })
    .map(([a, len]) => [a, a + len])];
  let hourWindows = 0;
  for (const [a, b] of windows) {
    const w = { from: START + Math.round(a! * 1000) / 1000, to: START + Math.round(b! * 1000) / 1000 };
    if (Math.ceil((w.from - START) / 3600) * 3600 + 3600 <= w.to - START) hourWindows++;
    const label = `${a} → ${b}`;
    const report = await fetchWhyReport((name, extra = {}) => rows(name, { ...windowParams(w), ...extra }));
    const sums = await raw<{ operation: string; calls: string; us: string; db_us: string; cpu_us: string; other_us: string }>(`
      SELECT ${OPERATION} AS operation, count() AS calls, sum(duration_us) AS us, sum(db_us) AS db_us, sum(cpu_us) AS cpu_us, sum(other_us) AS other_us
      FROM tj_call_splits WHERE ${WINDOW} GROUP BY operation ORDER BY us DESC, operation`, w);
    t.deepEqual(report.operations.map((o) => [o.operation, o.calls, o.seconds, o.db_seconds, o.cpu_seconds, o.other_seconds]),
      sums.map((r) => [r.operation, Number(r.calls), Number(r.us) / 1e6, Number(r.db_us) / 1e6, Number(r.cpu_us) / 1e6, Number(r.other_us) / 1e6]), label);
    const slowest = await raw<{ operation: string; ts: string; us: string }>(`
      SELECT ${OPERATION} AS operation, ts, duration_us AS us FROM tj_call_splits WHERE ${WINDOW}
      ORDER BY operation, duration_us DESC, ts LIMIT ${WHY_SLOWEST} BY operation`, w);
    const top = await raw<{ operation: string; h: string; n: string; us: string }>(`
      SELECT ${OPERATION} AS operation, toString(h) AS h, sum(c) AS n, sum(u) AS us FROM tj_call_splits
      ARRAY JOIN sql_hashes AS h, sql_counts AS c, sql_us AS u WHERE ${WINDOW}
      GROUP BY operation, h ORDER BY operation, us DESC, toUInt64(h) LIMIT ${WHY_TOP_SQL} BY operation`, w);
    for (const o of report.operations) {
      t.deepEqual(o.slowest_calls.map((c) => [c.ts, c.seconds]), slowest.filter((r) => r.operation === o.operation).map((r) => [r.ts, Number(r.us) / 1e6]),
        `${label}: slowest of ${o.operation}`);
      t.deepEqual(o.top_sql.map((s) => [s.sql_hash, s.count, s.seconds]),
        top.filter((r) => r.operation === o.operation).map((r) => [r.h, Number(r.n), Number(r.us) / 1e6]), `${label}: statements of ${o.operation}`);
    }
  }
  t.true(hourWindows >= 5, `${hourWindows} windows hold a whole hour`);
});
