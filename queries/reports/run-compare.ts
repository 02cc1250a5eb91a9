// Run comparison (`perfpipe report run-compare A B`): per key operation the APDEX, mean time and N of two runs side by
// side with the change from A to B, their lock trouble (1C waits, timeouts, deadlocks; PostgreSQL waits), and what
// changed in their context (settings, host, 1C: run-context.ts). The
// document `--format json` prints and the HTML page draws; cli/output/run-compare.ts formats it for people.
import { ConfigError } from '../../ingest/errors/errors.js';
import { apdexReport } from './apdex-report.js';
import type { ReportRows } from './report-rows.js';
import { windowParams } from './window-params.js';
import { compareContexts } from './run-context.js';

export interface RunSide { apdex: number | null; avg_s: number | null; n: number }

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const delta = (a: number | null, b: number | null, digits = 3): number | null =>
  a === null || b === null ? null : Number((b - a).toFixed(digits));

export async function compareRuns(source: ReportRows, runs: Array<{ name: string; window: { from: number; to: number } }>) {
  if (runs.length !== 2) throw new ConfigError('report run-compare: give two run names, e.g. `report run-compare baseline candidate`');
  const [a, b] = runs as [typeof runs[0], typeof runs[0]];
  const fetch = async (w: { from: number; to: number }) => {
    const params = windowParams(w);
    const rows = await source.rows('apdex', params);
    const locks = (await source.rows('lock-counts', params))[0] ?? {};
    const avg = new Map(rows.filter((r) => r.scope === 'operation').map((r) => [String(r.operation), num(r.avg_s)]));
    return { report: apdexReport(rows), avg, locks: Object.fromEntries(Object.entries(locks).map(([k, v]) => [k, Number(v)])) };
  };
  const [ra, rb] = [await fetch(a.window), await fetch(b.window)];
  const names = [...new Set([...ra.report.operations, ...rb.report.operations].map((o) => o.operation))].sort();
  const side = (r: typeof ra, name: string): RunSide => {
    const o = r.report.operations.find((x) => x.operation === name);
    return { apdex: o?.apdex ?? null, avg_s: r.avg.get(name) ?? null, n: o?.n ?? 0 };
  };
  const operations = names.map((operation) => {
    const x = side(ra, operation);
    const y = side(rb, operation);
    return { operation, [a.name]: x, [b.name]: y, delta: { apdex: delta(x.apdex, y.apdex), avg_s: delta(x.avg_s, y.avg_s), n: y.n - x.n } };
  });
  const overall = (r: typeof ra) => r.report.overall.count_weighted;
  const lockKeys = [...new Set([...Object.keys(ra.locks), ...Object.keys(rb.locks)])];
  const locks = Object.fromEntries(lockKeys.map((k) => [k, { [a.name]: ra.locks[k] ?? 0, [b.name]: rb.locks[k] ?? 0, delta: Number(((rb.locks[k] ?? 0) - (ra.locks[k] ?? 0)).toFixed(3)) }]));
  return {
    runs: [a.name, b.name] as [string, string],
    operations,
    overall: { [a.name]: overall(ra), [b.name]: overall(rb), delta: { apdex: delta(overall(ra)?.apdex ?? null, overall(rb)?.apdex ?? null) } },
    locks,
    // What changed between the runs' starts (a: run A, b: run B) and inside each, next to the APDEX change above.
    ...await compareContexts((name, params) => source.rows(name, params), a, b),
  };
}

export type RunComparison = Awaited<ReturnType<typeof compareRuns>>;
