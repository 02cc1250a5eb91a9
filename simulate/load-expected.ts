// What a simulated load test must make perfpipe report, written beside the files as expected.json: the APDEX of
// every key operation (counted here from the exported run times, docs/apdex.md §1), every managed-lock wait,
// timeout and deadlock with its victim and culprit connections, and every PostgreSQL lock-wait episode with the
// waiter's and holder's pids and 1C connections; where each operation's call time went (load-why.ts); the named
// runs and the settings changed around them (load-runs.ts). Shapes follow `perfpipe report … --format json`.
import type { ExpectedWhy } from './load-why.js';
import type { ExpectedRuns } from './load-runs.js';

export interface ExpectedApdexOperation {
  operation: string;
  target_s: number;
  n: number;
  satisfied: number;
  tolerating: number;
  frustrated: number;
  apdex: number;
}

export interface ExpectedWait { ts: string; infobase: string; connect_id: number; culprit_connect_ids: number[]; wait_ms: number; culprits: ExpectedCulprit[] }
export interface ExpectedTimeout {
  ts: string; infobase: string; victim_connect_id: number; victim_user: string; victim_context: string;
  culprit_connect_ids: number[]; culprits: ExpectedCulprit[];
}
/**
 * The culprit connection (docs/tj-format.md §5.4): user and context of its last event before the victim's, and the
 * transaction that held the lock (SDBL Begin…Commit end times) with the TLOCK that took it.
 */
export interface ExpectedCulprit {
  connect_id: number; user: string; context: string;
  tx_start: string; tx_end: string; tx_outcome: 'commit' | 'rollback';
  lock: { ts: string; region: string; mode: string; lock: string };
}
export interface ExpectedDeadlock { ts: string; infobase: string; victim_connect_id: number; edges: { waiter: number; holder: number }[] }
export interface ExpectedPgEpisode {
  pid: number; mode: string; object: string; outcome: 'acquired' | 'deadlock'; wait_ms: number | null;
  holder_pids: number[]; queue_pids: number[]; waiter_connect_id: number; holder_connect_id: number;
}

export interface ExpectedLocks {
  waits: ExpectedWait[];
  timeouts: ExpectedTimeout[];
  deadlocks: ExpectedDeadlock[];
  pg_episodes: ExpectedPgEpisode[];
}

export interface Expected extends ExpectedLocks, ExpectedRuns {
  /** Per operation where its calls' time went, and the planted dominant statement (load-why.ts). */
  why: ExpectedWhy;
  /** The planted relation-extension wait among `pg_episodes` (its `object`), or null when the run had no room for it. */
  relation_extension: string | null;
  /** What the TJ shows of 1C: the platform version in the rphost start lines, and the infobases. */
  one_c: { platform: string; infobases: string[] };
  apdex: { operations: ExpectedApdexOperation[]; overall_count_weighted: Omit<ExpectedApdexOperation, 'operation' | 'target_s'> | null };
  tj: { events: number; bytes: number; files: number; counts: Record<string, number> };
  /** `file` paths are relative to the output directory. */
  pg: { entries: number; lines: number; file: string };
  /** Samples written; the first is since boot, which perfpipe does not store. */
  atop: { samples: number; stored_samples: number; file: string };
}

/** The first non-empty line of a TJ `Context`, trimmed: what tj_events.context_first holds. */
export function contextFirst(context: string): string {
  return context.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
}

/** APDEX rounded half-up to 3 decimals in integers, as queries/reports/apdex.sql does. */
export function apdexOf(n: number, satisfied: number, tolerating: number): number {
  return Math.floor(((2 * satisfied + tolerating) * 1000 + n) / (2 * n)) / 1000;
}

/** Run times in whole ms (what the export's `value` holds) against T in whole 10 ms. */
export function countApdex(operation: string, targetS: number, runMs: readonly number[]): ExpectedApdexOperation {
  const t = Math.round(targetS * 1000);
  let satisfied = 0;
  let tolerating = 0;
  for (const d of runMs) {
    if (d <= t) satisfied++;
    else if (d <= 4 * t) tolerating++;
  }
  const n = runMs.length;
  return { operation, target_s: targetS, n, satisfied, tolerating, frustrated: n - satisfied - tolerating, apdex: apdexOf(n, satisfied, tolerating) };
}
