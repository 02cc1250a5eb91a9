// The run history (`perfpipe report runs`): every named run, oldest first, with its window, overall APDEX, worst key
// operation and lock trouble. Each line is apdex.sql and lock-counts.sql run over that run's window, so it equals
// `report apdex --run NAME` and the lock counts of `report run-compare` by construction.
import { z } from 'zod';
import { windowParams } from './window-params.js';
import { compareContexts } from './run-context.js';

/**
 * The APDEX a load test must reach to pass: 0.85, the lower edge of "Good" (docs/apdex.md §1) and the mark the
 * 30,000-user 1C:ERP test series is judged by. Drawn on the HTML chart; the numbers do not depend on it.
 */
export const PASS_MARK = 0.85;

/** One run of the history: what `report runs --format json` writes per run. */
export const RunHistoryRowSchema = z.strictObject({
  name: z.string(),
  /** ISO-8601 UTC. */
  started_at: z.string(),
  /** ISO-8601 UTC; null while the run is open (its window then ends when the report runs). */
  stopped_at: z.string().nullable(),
  duration_s: z.number(),
  /** Measurements of key operations with a T in the window. */
  n: z.number(),
  /** Count-weighted overall APDEX (apdex.sql `overall_count_weighted`); null without measurements. */
  apdex: z.number().nullable(),
  /** 1C's «Общая производительность системы», priority-weighted (apdex.sql `overall_priority_weighted`). */
  apdex_priority_weighted: z.number().nullable(),
  /** Band of the count-weighted APDEX: Excellent, Good, Fair, Poor, Unacceptable; '' without one. */
  rating: z.string(),
  /** The key operation with the lowest APDEX (ties: first by name, as apdex.sql orders them). */
  worst_operation: z.string().nullable(),
  worst_apdex: z.number().nullable(),
  /** lock-counts.sql: TLOCKs that waited, their total wait, TTIMEOUTs, TDEADLOCKs, PostgreSQL wait episodes. */
  tj_lock_waits: z.number(),
  tj_lock_wait_s: z.number(),
  tj_timeouts: z.number(),
  tj_deadlocks: z.number(),
  pg_lock_waits: z.number(),
  /** This run's overall APDEX minus the previous run's; null for the first run or without measurements. */
  apdex_delta: z.number().nullable(),
  /** What changed since the previous run's start (run-context.ts: a = previous run, b = this one). */
  changes: z.array(z.strictObject({
    scope: z.string(), name: z.string(), a: z.string().nullable(), b: z.string().nullable(), from: z.enum(['snapshot', 'pg log', 'tj']), at: z.string().optional(),
  })),
  /** Settings reloaded inside this run, with their time. */
  changes_during: z.array(z.strictObject({
    run: z.string(), scope: z.string(), name: z.string(), a: z.string().nullable(), b: z.string(), at: z.string(), from: z.enum(['pg log', 'snapshot']),
  })),
});
export type RunHistoryRow = z.infer<typeof RunHistoryRowSchema>;

/** A row of queries/reports/runs.sql; ClickHouse writes 64-bit integers as JSON texts. */
const RunWindowSchema = z.object({ name: z.string(), from_ms: z.coerce.number(), to_ms: z.coerce.number(), running: z.coerce.number() });

type Row = Record<string, unknown>;
/** Rows of queries/reports/<name>.sql with the given parameters (the CLI's report row source). */
export type ReportRowsOf = (name: string, params: Record<string, string>) => Promise<Row[]>;

/** ClickHouse's order of texts (bytes of UTF-8), which is code-point order, not the locale's. */
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export async function runHistory(rows: ReportRowsOf): Promise<RunHistoryRow[]> {
  const runs = (await rows('runs', {})).map((r) => RunWindowSchema.parse(r));
  const history: RunHistoryRow[] = [];
  const window = (r: (typeof runs)[number]) => ({ name: r.name, window: { from: r.from_ms / 1000, to: r.to_ms / 1000 } });
  for (const [i, run] of runs.entries()) {
    const params = windowParams({ from: run.from_ms / 1000, to: run.to_ms / 1000 });
    const apdex = await rows('apdex', params);
    const locks = (await rows('lock-counts', params))[0] ?? {};
    const previous = i === 0 ? null : runs[i - 1]!;
    // The first run has nothing before it to differ from; its own reloads still show.
    const context = await compareContexts(rows, window(previous ?? run), window(run));
    const row = historyRow(run, apdex, locks, history.at(-1)?.apdex ?? null);
    history.push({ ...row, changes: previous === null ? [] : context.changes, changes_during: context.changes_during.filter((c) => c.run === run.name) });
  }
  return history;
}

/** One run's line from its apdex.sql and lock-counts.sql rows. */
export function historyRow(run: z.infer<typeof RunWindowSchema>, apdex: Row[], locks: Row, previousApdex: number | null = null): RunHistoryRow {
  const overall = apdex.find((r) => r.scope === 'overall_count_weighted');
  const weighted = apdex.find((r) => r.scope === 'overall_priority_weighted');
  const worst = apdex
    .filter((r) => r.scope === 'operation' && r.apdex !== null && r.apdex !== undefined)
    .sort((a, b) => Number(a.apdex) - Number(b.apdex) || byCodePoint(String(a.operation), String(b.operation)))[0];
  return RunHistoryRowSchema.parse({
    name: run.name,
    started_at: new Date(run.from_ms).toISOString(),
    stopped_at: run.running ? null : new Date(run.to_ms).toISOString(),
    duration_s: Math.round((run.to_ms - run.from_ms) / 100) / 10,
    n: Number(overall?.n ?? 0),
    apdex: num(overall?.apdex),
    apdex_priority_weighted: num(weighted?.apdex),
    rating: overall === undefined ? '' : String(overall.rating),
    worst_operation: worst === undefined ? null : String(worst.operation),
    worst_apdex: num(worst?.apdex),
    tj_lock_waits: Number(locks.tj_lock_waits ?? 0),
    tj_lock_wait_s: Number(locks.tj_lock_wait_s ?? 0),
    tj_timeouts: Number(locks.tj_timeouts ?? 0),
    tj_deadlocks: Number(locks.tj_deadlocks ?? 0),
    pg_lock_waits: Number(locks.pg_lock_waits ?? 0),
    apdex_delta: previousApdex === null || overall?.apdex === null || overall?.apdex === undefined ? null : Number((Number(overall.apdex) - previousApdex).toFixed(3)),
    changes: [],
    changes_during: [],
  });
}
