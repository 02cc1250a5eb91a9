// `report why` as data (issue #25 item 1): per key operation, where its server calls' wall time went — DB, managed-lock
// waits, CPU, waiting for a worker thread, the rest — with its APDEX, the statements that took the most time inside
// its calls, its slowest calls, the PostgreSQL waits of its backends while they ran and the host's busy % in its
// minutes. The splits were decided as the events arrived (docs/tj-format.md §4.3); this reads the stored sums.
// The CLI's text forms and the HTML section both read this one document.
import type { ReportParams } from './report-rows.js';

type Row = Record<string, unknown>;
type WindowRows = (name: string, extra?: ReportParams) => Promise<Row[]>;

/** A split in seconds: whole µs / 10^6, so the parts add up to `seconds` exactly in µs (docs/tj-format.md §4.3, report why). */
export interface WhySplit {
  seconds: number;
  db_seconds: number;
  lock_wait_seconds: number;
  cpu_seconds: number;
  thread_wait_seconds: number;
  other_seconds: number;
}

export interface WhyStatement { sql_hash: string; sql: string; count: number; seconds: number }
export interface WhyCall extends WhySplit { ts: string; connect_id: string; user: string; context: string; dbpids: number[]; flags: string[] }
export interface WhyPgWait { wait_event_type: string; wait_event: string; samples: number }

export interface WhyOperation extends WhySplit {
  operation: string;
  calls: number;
  /** Null when no T is known for it (no context rule, no export operation of that name). */
  apdex: number | null;
  target_s: number | null;
  top_sql: WhyStatement[];
  slowest_calls: WhyCall[];
  /** Empty when pg_activity was not sampled while its calls ran. */
  pg_wait_events: WhyPgWait[];
  /** atop's busy % over the minutes its calls ended in; null when atop did not run then. */
  host: { minutes: number; cpu_busy_pct: number | null; disk_busy_pct: number | null };
  /** Calls whose split is not simply what the events give, per reason (docs/tj-format.md §4.3). */
  flagged: Record<string, number>;
}

export interface WhyReport {
  operations: WhyOperation[];
  /** What the report could not do or had to qualify, one line each (nothing guesses in silence). */
  notes: string[];
}

export const WHY_OPERATIONS = 20;
export const WHY_TOP_SQL = 5;
export const WHY_SLOWEST = 5;
export const WHY_PG_WAITS = 5;

const n = (v: unknown): number => Number(v ?? 0);
const s = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const sec = (us: unknown): number => n(us) / 1e6;
const orNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A ClickHouse map as JSON (sumMap's tuple of keys and values). */
function pairs(v: unknown): Array<[string, number]> {
  const t = (Array.isArray(v) ? v : [Object.values(v ?? {})[0] ?? [], Object.values(v ?? {})[1] ?? []]) as [unknown[], unknown[]];
  return (t[0] ?? []).map((k, i) => [s(k), n((t[1] ?? [])[i])]);
}

/** APDEX from calls per 10 ms bucket, as apdex.sql counts it: T rounded to 10 ms, half-up to 3 decimals. */
export function apdexFromBuckets(buckets: ReadonlyArray<[string, number]>, targetS: number): number {
  const t = Math.round(targetS * 100);
  let all = 0;
  let satisfied = 0;
  let tolerating = 0;
  for (const [b, c] of buckets) {
    all += c;
    if (Number(b) <= t) satisfied += c;
    else if (Number(b) <= 4 * t) tolerating += c;
  }
  return all === 0 ? 0 : Math.floor(((2 * satisfied + tolerating) * 1000 + all) / (2 * all)) / 1000;
}

const FLAG_WORDS: Record<string, string> = {
  no_duration: 'had no duration (nothing placed in them)',
  clock_step: 'had an event after their CALL (the clock stepped back; counted by file order)',
  parts_exceed: 'had parts adding up to more than the call (capped)',
  no_cpu_time: 'had no CpuTime (an older platform: cpu 0)',
  partial: 'began before reading resumed after a restart (their earlier events are in other)',
};

export async function fetchWhyReport(rows: WindowRows, operation = '', limit = WHY_OPERATIONS): Promise<WhyReport> {
  const ops = (await rows('why-operations', { operation })).slice(0, limit);
  const notes: string[] = [];
  if (ops.length === 0) {
    notes.push(operation === '' ? 'no server calls (CALL) ended in the window' : `operation ${JSON.stringify(operation)}: no calls in the window`);
    return { operations: [], notes };
  }
  const names = ops.map((r) => s(r.operation));
  const per = Math.max(WHY_SLOWEST, WHY_PG_WAITS);
  // The listed operations' first context lines: the rollups and the call rows are read by them (their keys' context).
  const contexts = [...new Set(ops.flatMap((r) => ((r.contexts ?? []) as unknown[]).map(s)))];
  const [details, slowest, waits, host, targets] = await Promise.all([
    rows('why-details', { names, per: WHY_TOP_SQL, contexts }), rows('why-slowest', { names, per: WHY_SLOWEST, contexts }), rows('why-pg-waits', { names, per, contexts }),
    rows('why-host', { names, contexts }), rows('why-targets', { names }),
  ]);
  const detail = new Map(details.filter((r) => r.kind === 'buckets').map((r) => [s(r.operation), r]));
  const top = new Map<string, Array<{ sql_hash: string; count: number; seconds: number }>>();
  for (const r of details.filter((x) => x.kind === 'sql')) {
    const list = top.get(s(r.operation)) ?? [];
    list.push({ sql_hash: s(r.sql_hash), count: n(r.count), seconds: sec(r.us) });
    top.set(s(r.operation), list);
  }
  const hashes = [...new Set([...top.values()].flatMap((l) => l.map((x) => x.sql_hash)).filter((h) => h !== '0'))];
  const texts = new Map((hashes.length === 0 ? [] : await rows('why-sql-texts', { hashes })).map((r) => [s(r.sql_hash), s(r.sql)]));
  const exportT = new Map(targets.map((r) => [s(r.name), orNull(r.target_s)]));
  const result = ops.map((r): WhyOperation => {
    const name = s(r.operation);
    const target = orNull(r.rule_target_s) ?? exportT.get(name) ?? null;
    const flagged = Object.fromEntries(pairs(r.flags).filter(([, c]) => c > 0));
    for (const [flag, count] of Object.entries(flagged)) notes.push(`${JSON.stringify(name)}: ${count} call(s) ${FLAG_WORDS[flag] ?? flag}`);
    const h = host.find((x) => s(x.operation) === name);
    return {
      operation: name, calls: n(r.calls), apdex: target === null ? null : apdexFromBuckets(pairs(detail.get(name)?.buckets), target), target_s: target,
      ...split(r.us, r.db_us, r.lock_wait_us, r.cpu_us, r.thread_wait_us, r.other_us),
      top_sql: (top.get(name) ?? []).map((x) => ({ ...x, sql: x.sql_hash === '0' ? '(statements beyond those kept per call)' : texts.get(x.sql_hash) ?? '' })),
      slowest_calls: slowest.filter((x) => s(x.operation) === name).map((x) => ({
        ts: s(x.ts), connect_id: s(x.connect_id), user: s(x.user), context: s(x.context),
        ...split(x.us, x.db_us, x.lock_wait_us, x.cpu_us, x.thread_wait_us, x.other_us),
        dbpids: ((x.dbpids ?? []) as unknown[]).map(n), flags: ((x.flags ?? []) as unknown[]).map(s),
      })),
      pg_wait_events: waits.filter((x) => s(x.operation) === name).slice(0, WHY_PG_WAITS)
        .map((x) => ({ wait_event_type: s(x.wait_event_type), wait_event: s(x.wait_event), samples: n(x.samples) })),
      host: { minutes: n(h?.minutes), cpu_busy_pct: orNull(h?.cpu_busy_pct), disk_busy_pct: orNull(h?.disk_busy_pct) },
      flagged,
    };
  });
  if (result.every((o) => o.target_s === null)) notes.push('no APDEX: no configured context rule (--config) or export operation gives these operations a T');
  return { operations: result, notes };
}

function split(us: unknown, db: unknown, lock: unknown, cpu: unknown, wait: unknown, other: unknown): WhySplit {
  return { seconds: sec(us), db_seconds: sec(db), lock_wait_seconds: sec(lock), cpu_seconds: sec(cpu), thread_wait_seconds: sec(wait), other_seconds: sec(other) };
}
