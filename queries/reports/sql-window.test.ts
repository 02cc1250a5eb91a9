// The statement rollups (queries/ddl/060_tj_sql.sql) over any window equal a count() over tj_events on it: whole
// hours from tj_sql_hour, the whole minutes of partial hours from tj_sql_minute, the partial minutes from the raw
// events. Random windows over three hours of DB events, inserted through tj_events so the views fill as in production.
import test from 'ava';
import fc from 'fast-check';
import { openTempStore, type TempStore } from '../../test/support/temp-store.js';
import { reportParams, reportSql } from './reports.js';
import { fetchSqlReport } from './sql-report.js';
import { windowParams } from './window-params.js';

const START = 1_796_000_400; // 09:00:00 UTC, a whole hour
const SPAN = 3 * 3600 + 600;
let store: TempStore;

test.before(async () => {
  store = await openTempStore('perfpipe-sql-window-');
  // 30,000 DB events of 40 shapes from 5 contexts at random µs over 3 h 10 min, in 6 inserts (6 blocks per view).
  for (let part = 0; part < 6; part++) {
    await store.client.command({ query: `INSERT INTO tj_events (ts, ts_start, duration_us, event, infobase, context, context_first, sql, sql_hash, rows, file, file_key, file_offset)
      SELECT ts, ts, d, 'DBPOSTGRS', 'ib', ctx, ctx, concat('SELECT ', toString(shape)), cityHash64(shape), toInt64(number % 7), 'f', 'k', number
      FROM (SELECT number, toDateTime64(${START}, 6, 'UTC') + toIntervalMicrosecond(cityHash64(number, 1) % ${SPAN * 1_000_000}) AS ts,
              cityHash64(number, 2) % 40 AS shape, concat('Форма', toString(cityHash64(number, 3) % 5)) AS ctx, 10 + cityHash64(number, 4) % 100000 AS d
            FROM numbers(${part * 5000}, 5000))` });
  }
});
test.after.always(async () => {
  await store?.dispose();
});

const rows = async (name: string, params: Record<string, unknown>) =>
  (await store.client.query({ query: reportSql(name), query_params: reportParams(name, params), format: 'JSONEachRow' })).json<Record<string, unknown>>();

async function raw(w: { from: number; to: number }): Promise<Map<string, { n: number; us: number }>> {
  const rs = await store.client.query({
    query: `SELECT toString(sql_hash) AS h, count() AS n, sum(duration_us) AS us FROM tj_events
      WHERE event = 'DBPOSTGRS' AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)} GROUP BY h`,
    query_params: windowParams(w), format: 'JSONEachRow',
  });
  return new Map((await rs.json<{ h: string; n: string; us: string }>()).map((r) => [r.h, { n: Number(r.n), us: Number(r.us) }]));
}

test('report sql equals count() and sum() over tj_events for windows cut anywhere: whole hours, minutes, edges', async (t) => {
  const fixed = [[0, SPAN], [0, 3600], [1800, 9000], [3600, 7200], [59.5, 10_799.25], [125.125, 130.5], [7199.999, 7200.001]];
  const windows = [...fixed, ...fc.sample(fc.tuple(fc.double({ min: -100, max: SPAN, noNaN: true }), fc.double({ min: 0, max: 8000, noNaN: true })), { numRuns: 25, seed: 25 })
    .map(([a, len]) => [a, a + len])];
  for (const [a, b] of windows) {
    const w = { from: START + Math.round(a! * 1000) / 1000, to: START + Math.round(b! * 1000) / 1000 };
    const want = await raw(w);
    const r = await fetchSqlReport((name, extra = {}) => rows(name, { ...windowParams(w), ...extra }), 100);
    const label = `${a} → ${b}`;
    t.is(r.total.count, [...want.values()].reduce((x, y) => x + y.n, 0), label);
    t.is(r.total.statements, want.size, label);
    const sorted = <V>(m: Iterable<[string, V]>) => Object.fromEntries([...m].sort(([x], [y]) => (x < y ? -1 : 1)));
    t.deepEqual(sorted(r.statements.map((s) => [s.sql_hash, { n: s.count, us: Math.round(s.seconds * 1e6) }])), sorted(want), label);
    for (const s of r.statements) t.is(s.contexts.reduce((x, c) => x + c.count, 0), s.count, `${label} contexts of ${s.sql_hash}`);
  }
});

test('a window with no statement gives an empty list and zero totals', async (t) => {
  const w = { from: START - 7200, to: START - 3600 };
  const r = await fetchSqlReport((name, extra = {}) => rows(name, { ...windowParams(w), ...extra }));
  t.deepEqual(r, { total: { count: 0, seconds: 0, statements: 0 }, statements: [] });
});
