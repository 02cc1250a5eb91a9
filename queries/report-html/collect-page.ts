// Gathers a ReportPage from the report SQL (queries/reports/), through the same row source the text reports use,
// so the page and `perfpipe report … --format json` read the same numbers. The only I/O of the HTML report.
import { apdexReport } from '../reports/apdex-report.js';
import { fetchLocksReport, LOCK_EVENTS_LIMIT } from '../reports/locks-report.js';
import type { ReportParams, ReportRows } from '../reports/report-rows.js';
import { compareRuns } from '../reports/run-compare.js';
import { apdexKey, type ApdexMinute, type AtopCpuMinute, type AtopDiskMinute, type CompareSection, type LockCounts, type PgEpisode, type PgMinute, type ReportPage } from './report-page.js';
import { parseUtc } from './time-format.js';
import { chartBucket, MINUTE_S, sampledBucket } from './chart-bucket.js';
import { fetchPgWaitsReport } from '../reports/pg-waits-report.js';
import { fetchSqlReport } from '../reports/sql-report.js';
import { fetchErrorsReport } from '../reports/errors-report.js';
import { fetchWhyReport } from '../reports/why-report.js';
import { collectChanges } from './collect-changes.js';

export const SECTIONS = ['apdex', 'locks', 'pg', 'pg_waits', 'atop', 'why', 'sql', 'errors', 'changes'] as const;
export type SectionName = (typeof SECTIONS)[number];

type Row = Record<string, unknown>;
/** Rows of queries/reports/<name>.sql with the window's parameters already bound. */
export type WindowRows = (name: string, extra?: ReportParams) => Promise<Row[]>;

export interface PageRequest {
  title: string;
  run: string | null;
  /** Unix s; a side is null when the reader gave none (then the data decides where the time axis starts or ends). */
  window: { from: number | null; to: number | null };
  timeZone: string;
  generatedAt: number;
}

/** The same cap the text reports use. */
const ALL = { limit: LOCK_EVENTS_LIMIT };
/** Points of APDEX timeline, one apdex.sql run each: a day of minutes; a longer window draws its first day. */
export const MAX_APDEX_MINUTES = 1440;
/** The PostgreSQL table lists this many waits, longest first. */
const LONGEST = 25;

const n = (v: unknown): number => Number(v ?? 0);
const s = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
/** The per-minute reports that take {bucket_s} (queries/reports/reports.ts gives the others' callers minutes). */
const BUCKETED = new Set(['apdex-active-minutes', 'tj-lock-minutes', 'pg-lock-wait-minutes', 'atop-cpu-minutes', 'atop-disk-minutes']);

/** The width of a chart point (s): from the window when both sides are known, else a minute as for any long window. */
export function pageBucket(window: PageRequest['window']): number {
  return window.from !== null && window.to !== null ? chartBucket(window.to - window.from) : MINUTE_S;
}

export async function collectReportPage(windowRows: WindowRows, sections: readonly SectionName[], req: PageRequest): Promise<ReportPage> {
  const want = new Set(sections);
  const bucket = pageBucket(req.window);
  const rows: WindowRows = (name, extra = {}) => windowRows(name, BUCKETED.has(name) ? { bucket_s: bucket, ...extra } : extra);
  const page: Omit<ReportPage, 'domain' | 'window'> = { title: req.title, run: req.run, timeZone: req.timeZone, generatedAt: req.generatedAt, bucket };
  const seen: number[] = [];
  const counts = want.has('locks') || want.has('pg') ? lockCounts((await rows('lock-counts'))[0] ?? {}) : null;
  if (want.has('apdex')) {
    const active = (await rows('apdex-active-minutes', { limit: MAX_APDEX_MINUTES + 1 })).map((r) => n(r.t));
    const drawn = new Set(active.slice(0, MAX_APDEX_MINUTES));
    const minutes: ApdexMinute[] = [];
    // apdex.sql itself per bucket (its timeline form, one query): the timeline cannot drift from `report apdex` (T
    // rules, config, rounding). One apdex.sql per bucket took minutes for an 11-hour run.
    for (const r of await rows('apdex', { bucket_s: bucket, timeline_s: bucket })) {
      const t = n(r.t);
      if (!drawn.has(t) || r.apdex === null || r.apdex === undefined || r.scope === 'overall_priority_weighted') continue;
      minutes.push({
        t, scope: r.scope === 'operation' ? 'operation' : 'overall_count_weighted', operation: s(r.operation), source: r.scope === 'operation' ? s(r.source) : '',
        n: n(r.n), satisfied: n(r.satisfied), tolerating: n(r.tolerating), frustrated: n(r.frustrated), apdex: n(r.apdex),
      });
    }
    seen.push(...minutes.map((m) => m.t));
    const totals = await rows('apdex');
    const ratings = Object.fromEntries(totals.filter((r) => r.scope === 'operation').map((r) => [apdexKey(s(r.operation), s(r.source)), s(r.rating)]));
    page.apdex = { report: apdexReport(totals), minutes, ratings, minutesCut: active.length > MAX_APDEX_MINUTES };
  }
  if (want.has('locks') && counts !== null) {
    const report = await fetchLocksReport(rows, { top: { regions: 15, contexts: 10 }, waits: false });
    seen.push(...report.per_minute.map((m) => Math.floor(parseUtc(m.minute) / 1000)));
    page.locks = { counts, report };
  }
  if (want.has('pg') && counts !== null) {
    const minutes: PgMinute[] = (await rows('pg-lock-wait-minutes')).map((r) => ({
      t: n(r.t), waits: n(r.waits), acquired: n(r.acquired), lock_timeouts: n(r.lock_timeouts), deadlocks: n(r.deadlocks), other: n(r.other), wait_s: n(r.wait_s),
    }));
    seen.push(...minutes.map((m) => m.t));
    const episodes = (await rows('pg-lock-waits', ALL)).map(pgEpisode);
    page.pg = { counts, minutes, episodes: episodes.length, longest: episodes.sort((a, b) => b.wait_ms - a.wait_ms).slice(0, LONGEST) };
  }
  if (want.has('pg_waits')) {
    const minutes = (await rows('pg-wait-minutes')).map((r) => ({ t: n(r.t), wait_event_type: s(r.wait_event_type), seconds: n(r.seconds) }));
    const report = await fetchPgWaitsReport(rows);
    seen.push(...minutes.map((m) => m.t));
    // Sampling PostgreSQL is optional in a load test: no samples, no section (unless it is the page's only one).
    if (minutes.length > 0 || report.blocked.length > 0 || sections.length === 1) {
      page.pgWaits = { report: { ...report, blocked: report.blocked.slice(0, LONGEST) }, minutes, episodes: report.blocked.length };
    }
  }
  if (want.has('atop')) {
    // A bucket no finer than the samples: a 20 s run sampled every 10 s has two points, not ten invented ones.
    const interval = n((await rows('atop-sample-interval'))[0]?.interval_s);
    const atopBucket = sampledBucket(bucket, interval);
    const atopRows = (name: string): Promise<Row[]> => rows(name, { bucket_s: atopBucket });
    const cpu: AtopCpuMinute[] = (await atopRows('atop-cpu-minutes')).map((r) => ({ t: n(r.t), host: s(r.host), cpu_busy_pct: n(r.cpu_busy_pct), cpu_busy_pct_max: n(r.cpu_busy_pct_max) }));
    const disks: AtopDiskMinute[] = (await atopRows('atop-disk-minutes')).map((r) => ({ t: n(r.t), host: s(r.host), disk: s(r.disk), busy_pct: n(r.busy_pct), busy_pct_max: n(r.busy_pct_max) }));
    seen.push(...cpu.map((m) => m.t), ...disks.map((m) => m.t));
    // atop is optional in a load test: no samples, no section.
    if (cpu.length > 0 || disks.length > 0) page.atop = { cpu, disks, bucket: atopBucket, sampleInterval: interval };
  }
  // The why sections (issue #25): like the optional sources above, no rows, no section, unless it is the page's only one.
  const alone = sections.length === 1;
  if (want.has('why')) {
    const report = await fetchWhyReport(rows);
    if (report.operations.length > 0 || alone) page.why = report;
  }
  if (want.has('sql')) {
    const report = await fetchSqlReport(rows);
    if (report.statements.length > 0 || alone) page.sql = report;
    const [extent] = report.statements.length === 0 ? [] : await rows('sql-extent');
    if (extent !== undefined) seen.push(n(extent.first_minute), n(extent.last_minute));
  }
  if (want.has('errors')) {
    const report = await fetchErrorsReport(rows);
    if (report.one_c.length + report.postgresql.length > 0 || alone) page.errors = report;
    const times = [...report.one_c, ...report.postgresql].flatMap((e) => [e.first_ts, e.last_ts]).map((ts) => Math.floor(parseUtc(ts) / 60_000) * 60);
    seen.push(...times);
  }
  if (want.has('changes')) {
    const changes = await collectChanges(rows, req.run, req.window);
    if (changes !== null && (changes.comparison.changes.length + changes.comparison.changes_during.length > 0 || alone)) page.changes = changes;
  }
  return { ...page, ...frame(req.window, seen, req.generatedAt / 1000, bucket) };
}

/** A two-run comparison page from `report run-compare`'s own JSON, so both agree by construction. */
export async function collectComparePage(source: ReportRows, runs: Array<{ name: string; window: { from: number; to: number } }>, req: Omit<PageRequest, 'window' | 'run'>): Promise<ReportPage> {
  // Through JSON, as `report run-compare --format json` prints it: the page gets the very values of that output.
  const doc = JSON.parse(JSON.stringify(await compareRuns(source, runs))) as Omit<CompareSection, 'windows'>;
  const from = Math.min(...runs.map((r) => r.window.from));
  const to = Math.max(...runs.map((r) => r.window.to));
  const [a, b] = doc.runs;
  const changes = doc.changes.length + doc.changes_during.length + doc.notes.length > 0
    ? { changes: { run: b, against: a, comparison: { changes: doc.changes, changes_during: doc.changes_during, notes: doc.notes } } } : {};
  return { ...req, run: runs.map((r) => r.name).join(' vs '), bucket: MINUTE_S, ...frame({ from, to }, [], req.generatedAt / 1000), compare: { ...doc, windows: runs.map((r) => r.window) }, ...changes };
}

/**
 * The window shown in the header and the charts' time axis: a side the reader gave is kept (rounded out to whole
 * buckets, as the per-bucket SQL counts every bucket the window overlaps, and widened to the points drawn: the
 * SQL counts whole minutes, so a short window's minute may hold points just outside it); a side left open ends
 * where the data does, or, with no data at all, at `now` (Unix s). `points` are bucket starts.
 */
export function frame(window: { from: number | null; to: number | null }, points: readonly number[], now = 0, bucket = MINUTE_S): Pick<ReportPage, 'window' | 'domain'> {
  const lo = points.reduce((a, t) => Math.min(a, t), Infinity);
  const hi = points.reduce((a, t) => Math.max(a, t + bucket), -Infinity);
  const from = window.from ?? (Number.isFinite(lo) ? lo : null);
  const to = window.to ?? (Number.isFinite(hi) ? hi : null);
  const start = Math.floor(Math.min(from ?? (to === null ? now : to - bucket), lo) / bucket) * bucket;
  const end = Math.max(Math.ceil(Math.max(to ?? start + bucket, hi) / bucket) * bucket, start + bucket);
  return { window: { from: from ?? start, to: to ?? end }, domain: { from: start, to: end } };
}

function lockCounts(r: Row): LockCounts {
  return {
    tj_lock_waits: n(r.tj_lock_waits), tj_lock_wait_s: n(r.tj_lock_wait_s), tj_timeouts: n(r.tj_timeouts), tj_deadlocks: n(r.tj_deadlocks),
    pg_lock_waits: n(r.pg_lock_waits), pg_lock_timeouts: n(r.pg_lock_timeouts), pg_deadlocks: n(r.pg_deadlocks),
  };
}

function pgEpisode(r: Row): PgEpisode {
  // The server logs the total only for `acquired`; for the others the episode's span stands in (pg-lock-wait-minutes.sql).
  const wait = r.wait_ms === null || r.wait_ms === undefined ? parseUtc(s(r.ts_end)) - parseUtc(s(r.ts_start)) : n(r.wait_ms);
  return {
    ts_start: s(r.ts_start), ts_end: s(r.ts_end), pid: n(r.pid), mode: s(r.mode), object: s(r.object), outcome: s(r.outcome),
    wait_ms: Number.isFinite(wait) ? wait : 0, holder_pids: Array.isArray(r.holder_pids) ? r.holder_pids.map(Number) : [],
    statement: s(r.statement), waiter_1c_user: s(r.waiter_1c_user), waiter_context: s(r.waiter_context), waiter_connect_id: s(r.waiter_connect_id),
    holder_1c_user: s(r.holder_1c_user), holder_context: s(r.holder_context), holder_connect_id: s(r.holder_connect_id),
  };
}
