// Where each key operation's time went in a simulated load test, tallied from the CALLs the simulator wrote and the
// split it decided for each (call-split.ts): what `perfpipe report why` must give for the run (issue #25), in µs so
// that a comparison is exact. An operation is named by the first line of its CALL's context, as APDEX from CALLs is.
import type { SimCall } from './tj-scenarios.js';
import type { CallSplit } from './call-split.js';

export interface ExpectedWhyOperation extends CallSplit {
  operation: string;
  calls: number;
  /** Wall time of the operation's calls; the five parts add up to it. */
  us: number;
  /** The statement with the most time inside the operation's calls (by exact text), its count and µs. */
  top_sql: { sql: string; count: number; us: number };
}

export interface ExpectedWhy {
  /** Ordered by `us`, descending (names break ties in code-point order). */
  operations: ExpectedWhyOperation[];
  /**
   * The planted statement (tj-sql.ts DOMINANT) in its operation: its µs and share of the operation's DB µs; `written`
   * counts every execution in the TJ, those of calls the run's end cut off (no CALL line) included.
   */
  dominant: { operation: string; sql: string; count: number; us: number; share_of_db: number; written: { count: number; us: number } } | null;
}

export interface WhyTally {
  add(operation: string, wallUs: number, call: SimCall): void;
  /** Counts a DB statement as written, inside a finished call or not. */
  written(sql: string, us: number): void;
  result(dominant: { operation: string; sql: string }): ExpectedWhy;
}

export function createWhyTally(): WhyTally {
  const ops = new Map<string, { calls: number; us: number; split: CallSplit; sql: Map<string, { count: number; us: number }> }>();
  const written = new Map<string, { count: number; us: number }>();
  return {
    written(sql, us) {
      const w = written.get(sql) ?? { count: 0, us: 0 };
      w.count++;
      w.us += us;
      written.set(sql, w);
    },
    add(operation, wallUs, call) {
      let op = ops.get(operation);
      if (op === undefined) ops.set(operation, (op = { calls: 0, us: 0, split: { db_us: 0, lock_wait_us: 0, cpu_us: 0, thread_wait_us: 0, other_us: 0 }, sql: new Map() }));
      op.calls++;
      op.us += wallUs;
      for (const k of Object.keys(op.split) as (keyof CallSplit)[]) op.split[k] += call.split[k];
      for (const [sql, us] of call.statements) {
        const s = op.sql.get(sql) ?? { count: 0, us: 0 };
        s.count++;
        s.us += us;
        op.sql.set(sql, s);
      }
    },
    result(dominant) {
      const operations = [...ops.entries()].map(([operation, op]): ExpectedWhyOperation => {
        const [sql, top] = [...op.sql.entries()].sort((a, b) => b[1].us - a[1].us)[0] ?? ['', { count: 0, us: 0 }];
        return { operation, calls: op.calls, us: op.us, ...op.split, top_sql: { sql, count: top.count, us: top.us } };
      }).sort((a, b) => b.us - a.us || (a.operation < b.operation ? -1 : 1));
      const op = ops.get(dominant.operation);
      const planted = op?.sql.get(dominant.sql);
      return {
        operations,
        dominant: op === undefined || planted === undefined ? null
          : { ...dominant, count: planted.count, us: planted.us, share_of_db: Math.round((planted.us / op.split.db_us) * 1000) / 1000,
            written: written.get(dominant.sql) ?? { count: 0, us: 0 } },
      };
    },
  };
}
