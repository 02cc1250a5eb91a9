// What the HTML report shows, as plain data: collect-page.ts fills it from the report SQL, render-page.ts turns it
// into one HTML file. A section is absent when its report was not asked for (or, for atop, has no samples).
import type { ApdexReport } from '../reports/apdex-report.js';
import type { LocksReport } from '../reports/locks-report.js';
import type { PgWaitsReport } from '../reports/pg-waits-report.js';
import type { RunHistoryRow } from '../reports/run-history.js';
import type { SqlReport } from '../reports/sql-report.js';
import type { ErrorsReport } from '../reports/errors-report.js';
import type { WhyReport } from '../reports/why-report.js';
import type { ContextComparison } from '../reports/run-context.js';

/** A row of apdex.sql run over one bucket (ReportPage.bucket); `t` is the bucket's start, Unix s. */
export interface ApdexMinute {
  t: number;
  scope: 'operation' | 'overall_count_weighted';
  operation: string;
  /** `export` or `tj` (apdex.sql's `source`); '' for the overall. */
  source: string;
  n: number;
  satisfied: number;
  tolerating: number;
  frustrated: number;
  apdex: number;
}

/**
 * `ratings`: the band apdex.sql gives each operation (Excellent … Unacceptable), by operation and source.
 * `minutesCut`: the window had more minutes with data than the timeline draws (MAX_APDEX_MINUTES).
 */
/** How the page names an operation: apdex.sql may give one name from both sources, so a TJ-defined one is marked. */
export const apdexKey = (operation: string, source: string): string => (source === 'tj' ? `${operation} (TJ)` : operation);

export interface ApdexSection { report: ApdexReport; minutes: ApdexMinute[]; ratings: Record<string, string>; minutesCut: boolean }

/** lock-counts.sql: the window's totals. */
export interface LockCounts {
  tj_lock_waits: number; tj_lock_wait_s: number; tj_timeouts: number; tj_deadlocks: number;
  pg_lock_waits: number; pg_lock_timeouts: number; pg_deadlocks: number;
}

/** `report` is `report locks`' own document, its `waits` left empty: the page shows waits per minute, lock space and context. */
export interface LocksSection { counts: LockCounts; report: LocksReport }

/** A minute of pg-lock-wait-minutes.sql. */
export interface PgMinute { t: number; waits: number; acquired: number; lock_timeouts: number; deadlocks: number; other: number; wait_s: number }
/** A row of pg-lock-waits.sql, with its wait in ms worked out when the server gave none. */
export interface PgEpisode {
  ts_start: string; ts_end: string; pid: number; mode: string; object: string; outcome: string; wait_ms: number;
  holder_pids: number[]; statement: string; waiter_1c_user: string; waiter_context: string; waiter_connect_id: string;
  holder_1c_user: string; holder_context: string; holder_connect_id: string;
}
export interface PgSection { counts: LockCounts; minutes: PgMinute[]; longest: PgEpisode[]; episodes: number }

/** `report pg-waits`' own document (its blocked list cut to the longest `episodes`), and seconds per minute by wait type. */
export interface PgWaitsSection { report: PgWaitsReport; minutes: Array<{ t: number; wait_event_type: string; seconds: number }>; episodes: number }

export interface AtopCpuMinute { t: number; host: string; cpu_busy_pct: number; cpu_busy_pct_max: number }
export interface AtopDiskMinute { t: number; host: string; disk: string; busy_pct: number; busy_pct_max: number }
/**
 * `bucket`: the width of its points (s), never finer than `sampleInterval`, atop's interval (s, 0 if unknown),
 * so it may be wider than the page's.
 */
export interface AtopSection { cpu: AtopCpuMinute[]; disks: AtopDiskMinute[]; bucket: number; sampleInterval: number }

/** `perfpipe report run-compare --format json`, as cli/output/run-compare.ts writes it. */
export interface CompareSide { apdex: number | null; avg_s: number | null; n: number }
export interface CompareSection {
  runs: [string, string];
  operations: Array<{ operation: string; delta: { apdex: number | null; avg_s: number | null; n: number } } & Record<string, unknown>>;
  overall: Record<string, unknown>;
  locks: Record<string, Record<string, number>>;
  /** What changed between the runs and inside each (queries/reports/run-context.ts). */
  changes: ContextComparison['changes'];
  changes_during: ContextComparison['changes_during'];
  notes: string[];
  /** Each run's window, Unix s. */
  windows: Array<{ from: number; to: number }>;
}

/**
 * What changed (run-context.ts): for a run's page, since the run before it (`against`, null for the first or a
 * window without a run) and inside it; for a comparison, between its two runs.
 */
export interface ChangesSection { run: string; against: string | null; comparison: ContextComparison }

/** `perfpipe report runs --format json`'s runs, oldest first, and the APDEX pass mark the chart draws. */
export interface RunsSection { runs: RunHistoryRow[]; passMark: number }

export interface ReportPage {
  title: string;
  /** The run the window belongs to, or null for a window given by --from/--to. */
  run: string | null;
  /** The window asked for, Unix s. */
  window: { from: number; to: number };
  /** The time axis of every chart, whole buckets, Unix s. */
  domain: { from: number; to: number };
  /** The width of a chart point, s (queries/report-html/chart-bucket.ts); absent: a minute. */
  bucket?: number;
  /** IANA zone every time on the page is shown in. */
  timeZone: string;
  /** When the page was made, Unix ms (passed in: the renderer reads no clock). */
  generatedAt: number;
  apdex?: ApdexSection;
  locks?: LocksSection;
  pg?: PgSection;
  pgWaits?: PgWaitsSection;
  atop?: AtopSection;
  compare?: CompareSection;
  runs?: RunsSection;
  /** `report sql`'s document: the top statements. */
  sql?: SqlReport;
  /** `report errors`' document. */
  errors?: ErrorsReport;
  /** `report why`'s document: where each operation's call time went. */
  why?: WhyReport;
  changes?: ChangesSection;
}
