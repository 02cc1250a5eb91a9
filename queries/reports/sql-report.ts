// `report sql` as data (issue #25 item 2): pg_profile's top-statements list with the 1C side attached — per statement
// shape its count, total, mean and p95 time, rows, share of all DB time, and the contexts and key operations that ran
// it. The CLI's text forms and the HTML section both read this one document.
import type { ReportParams } from './report-rows.js';

type Row = Record<string, unknown>;
type WindowRows = (name: string, extra?: ReportParams) => Promise<Row[]>;

export interface SqlContext { context: string; operation: string; count: number; seconds: number }

export interface SqlStatement {
  sql_hash: string;
  sql: string;
  dbms: string;
  count: number;
  seconds: number;
  mean_ms: number;
  /** A t-digest estimate (sql-details.sql); counts and sums are exact. */
  p95_ms: number;
  rows: number;
  rows_affected: number;
  /** Of all DB time in the window, 0–1. */
  share: number;
  contexts: SqlContext[];
  /** Key operations of the config whose calls ran it (`apdex.operations`), in order of time. */
  operations: string[];
}

export interface SqlReport {
  /** Over every statement of the window, listed or not. */
  total: { count: number; seconds: number; statements: number };
  statements: SqlStatement[];
}

/** Statements listed, most time first, and contexts per statement. */
export const SQL_LIMIT = 50;
export const SQL_CONTEXTS = 5;

const n = (v: unknown): number => Number(v ?? 0);
const s = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

export async function fetchSqlReport(rows: WindowRows, limit = SQL_LIMIT, per = SQL_CONTEXTS): Promise<SqlReport> {
  const top = await rows('sql-statements', { limit });
  const first = top[0];
  const hashes = top.map((r) => s(r.sql_hash));
  const details = new Map((top.length === 0 ? [] : await rows('sql-details', { hashes })).map((r) => [s(r.sql_hash), r]));
  const contexts = top.length === 0 ? [] : await rows('sql-contexts', { hashes, per });
  const byHash = new Map<string, SqlContext[]>();
  for (const r of contexts) {
    const list = byHash.get(s(r.sql_hash)) ?? [];
    list.push({ context: s(r.context), operation: s(r.operation), count: n(r.count), seconds: n(r.seconds) });
    byHash.set(s(r.sql_hash), list);
  }
  return {
    total: { count: n(first?.total_count), seconds: n(first?.total_seconds), statements: n(first?.total_statements) },
    statements: top.map((r): SqlStatement => {
      const ctx = byHash.get(s(r.sql_hash)) ?? [];
      return {
        sql_hash: s(r.sql_hash), sql: s(details.get(s(r.sql_hash))?.sql), dbms: s(details.get(s(r.sql_hash))?.dbms), count: n(r.count),
        seconds: n(r.seconds), mean_ms: n(r.mean_ms), p95_ms: n(details.get(s(r.sql_hash))?.p95_ms), rows: n(r.rows), rows_affected: n(r.rows_affected), share: n(r.share), contexts: ctx,
        operations: [...new Set(ctx.map((c) => c.operation).filter((o) => o !== ''))],
      };
    }),
  };
}
