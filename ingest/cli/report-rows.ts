// Rows of a named report (queries/reports/<name>.sql) for `perfpipe report`: from the store directly, or — while
// a `perfpipe run` holds the embedded data directory — through the daemon's /sql port, like `perfpipe sql`.
import { openStore } from '../store/clickhouse.js';
import { migrate } from '../store/migrations.js';
import { reportRows, reportSql } from '../store/reports.js';
import { type DaemonInfo, readDaemonFile } from '../http/daemon-file.js';
import { daemonSql } from '../http/daemon-sql.js';
import { ConfigError } from '../errors.js';

export interface StoreTarget { data: string; clickhouse?: string }
/** Numbers, or numeric texts such as `0.000` (see report-window.ts for why times travel as text). */
export type ReportParams = Record<string, number | string>;

export interface ReportRows {
  rows(name: string, params: ReportParams): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Opened once per command: the embedded engine binds one data directory per process. */
export async function openReportRows(target: StoreTarget): Promise<ReportRows> {
  const daemon = target.clickhouse ? null : readDaemonFile(target.data);
  if (daemon) return { rows: (name, params) => viaDaemon(daemon, inlineParams(reportSql(name), params)), close: async () => {} };
  const store = await openStore(target.clickhouse ? { clickhouse: target.clickhouse } : { data: target.data });
  try {
    // A fresh embedded directory has no tables yet: an empty report, not an error.
    if (!target.clickhouse) await migrate(store.client);
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    rows: (name, params) => reportRows<Record<string, unknown>>(store.client, name, params),
    close: () => store.close(),
  };
}

/** /sql takes no parameters: each `{name:Type}` becomes a typed literal (only numbers are passed here). */
export function inlineParams(sql: string, params: ReportParams): string {
  return sql.replace(/\{(\w+):([^}]+)\}/g, (_whole, key: string, type: string) => {
    const v = params[key];
    if (v === undefined || !Number.isFinite(Number(v))) throw new ConfigError(`report parameter ${key} is not a number: ${String(v)}`);
    return `CAST(${v} AS ${type})`;
  });
}

async function viaDaemon(daemon: DaemonInfo, query: string): Promise<Record<string, unknown>[]> {
  const text = await daemonSql(daemon, query, 'json');
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}
