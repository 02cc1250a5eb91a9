// Rows of a named report (queries/reports/<name>.sql) for `perfpipe report`, through the analytics layer's one door
// to the store (queries/store-access.ts: the store directly, or a running daemon's /sql port).
import { openStoreAccess, type Params, type StoreAccess, type StoreTarget } from '../store-access.js';
import { reportParams, reportSql } from './reports.js';

export { inlineParams } from '../store-access.js';
export type { StoreTarget } from '../store-access.js';
/**
 * Numbers, numeric texts such as `0.000` (see window-params.ts for why times travel as text), and the arrays of
 * configured key operations (queries/reports/key-operation-params.ts).
 */
export type ReportParams = Params;

export interface ReportRows {
  rows(name: string, params: ReportParams): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/**
 * A named report's rows over `access`. `perReport` adds parameters to one report's every run (the config's key
 * operations to apdex.sql), under what the caller passes.
 */
export function reportRowsOver(access: StoreAccess, perReport: Record<string, ReportParams> = {}): ReportRows {
  return {
    rows: (name, params) => access.rows(reportSql(name), reportParams(name, { ...perReport[name], ...params }) as ReportParams),
    close: () => access.close(),
  };
}

/** Opened once per command: the embedded engine binds one data directory per process. */
export async function openReportRows(target: StoreTarget, perReport: Record<string, ReportParams> = {}): Promise<ReportRows> {
  return reportRowsOver(await openStoreAccess(target), perReport);
}
