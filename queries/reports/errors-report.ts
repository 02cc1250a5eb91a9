// `report errors` as data (issue #25 item 3): 1C exceptions (EXCP, QERR) grouped by exception and the first line of
// their description, and PostgreSQL ERROR/FATAL/PANIC grouped by SQLSTATE and message pattern, each with count, first
// and last time and who was affected. The CLI's text forms and the HTML section both read this one document.
import type { ReportParams } from './report-rows.js';

type Row = Record<string, unknown>;
type WindowRows = (name: string, extra?: ReportParams) => Promise<Row[]>;

export interface OneCError {
  event: string; exception: string; descr_first: string; count: number; first_ts: string; last_ts: string;
  /** One whole description of the group. */
  descr: string;
  contexts: Array<{ context: string; count: number }>;
  users: string[];
  users_count: number;
}

export interface PgError {
  severity: string; sqlstate: string; pattern: string; count: number; first_ts: string; last_ts: string;
  example: string; databases: string[]; users: string[];
}

export interface ErrorsReport { one_c: OneCError[]; postgresql: PgError[] }

/** Groups listed per side, most frequent first, and contexts per 1C group. */
export const ERRORS_LIMIT = 200;
export const ERROR_CONTEXTS = 5;

const n = (v: unknown): number => Number(v ?? 0);
const s = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(s) : []);

export async function fetchErrorsReport(rows: WindowRows, limit = ERRORS_LIMIT, per = ERROR_CONTEXTS): Promise<ErrorsReport> {
  const oneC = (await rows('tj-errors', { limit, per })).map((r): OneCError => ({
    event: s(r.event), exception: s(r.exception), descr_first: s(r.descr_first), count: n(r.count), first_ts: s(r.first_ts), last_ts: s(r.last_ts),
    descr: s(r.descr),
    contexts: (Array.isArray(r.contexts) ? r.contexts : []).map((c: unknown) => {
      const [context, count] = Array.isArray(c) ? c : [(c as Row)['1'], (c as Row)['2']];
      return { context: s(context), count: n(count) };
    }),
    users: strings(r.users), users_count: n(r.users_count),
  }));
  const postgresql = (await rows('pg-errors', { limit })).map((r): PgError => ({
    severity: s(r.severity), sqlstate: s(r.sqlstate), pattern: s(r.pattern), count: n(r.count), first_ts: s(r.first_ts), last_ts: s(r.last_ts),
    example: s(r.example), databases: strings(r.databases), users: strings(r.users),
  }));
  return { one_c: oneC, postgresql };
}
