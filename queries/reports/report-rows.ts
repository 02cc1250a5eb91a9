// Rows of a named report (queries/reports/<name>.sql) for `perfpipe report`: from the store directly, or — while
// a `perfpipe run` holds the embedded data directory — through the daemon's /sql port, like `perfpipe sql`.
import { openStore } from '../../ingest/store/clickhouse.js';
import { migrate } from '../../ingest/store/migrations.js';
import { reportParams, reportRows, reportSql } from './reports.js';
import { type DaemonInfo, readDaemonFile } from '../../ingest/http/daemon-file.js';
import { daemonSql } from '../../ingest/http/daemon-sql.js';
import { ConfigError } from '../../ingest/errors/errors.js';

export interface StoreTarget { data: string; clickhouse?: string }
/**
 * Numbers, numeric texts such as `0.000` (see window-params.ts for why times travel as text), and the arrays of
 * configured key operations (queries/reports/key-operation-params.ts).
 */
export type ReportParams = Record<string, number | string | ReadonlyArray<string | number | null>>;

export interface ReportRows {
  rows(name: string, params: ReportParams): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/**
 * Opened once per command: the embedded engine binds one data directory per process. `perReport` adds parameters
 * to one report's every run (the config's key operations to apdex.sql), under what the caller passes.
 */
export async function openReportRows(target: StoreTarget, perReport: Record<string, ReportParams> = {}): Promise<ReportRows> {
  const withConfig = (name: string, params: ReportParams): ReportParams => ({ ...perReport[name], ...params });
  const daemon = target.clickhouse ? null : readDaemonFile(target.data);
  if (daemon) {
    return {
      rows: (name, params) => viaDaemon(daemon, inlineParams(reportSql(name), reportParams(name, withConfig(name, params)) as ReportParams)),
      close: async () => {},
    };
  }
  const store = await openStore(target.clickhouse ? { clickhouse: target.clickhouse } : { data: target.data });
  try {
    // A fresh embedded directory has no tables yet: an empty report, not an error.
    if (!target.clickhouse) await migrate(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    rows: (name, params) => reportRows<Record<string, unknown>>(store.client, name, withConfig(name, params)),
    close: () => store.close(),
  };
}

/** A ClickHouse literal of a config text: quotes and backslashes escaped, so the text stays data inside the quotes. */
const quoted = (s: string): string => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/**
 * The daemon's /sql binds only texts, and an array parameter does not survive being sent as one (its quotes would be
 * escaped again), so each `{name:Type}` becomes a typed literal here: numbers as they are, config texts quoted and
 * escaped, arrays of those. Scalars must be numbers: the window and limits are the only scalars reports take.
 */
export function inlineParams(sql: string, params: ReportParams): string {
  return sql.replace(/\{(\w+):([^}]+)\}/g, (_whole, key: string, type: string) => {
    const v = params[key];
    if (Array.isArray(v)) {
      const items = v.map((x: string | number | null) => (x === null ? 'NULL' : typeof x === 'number' ? String(x) : quoted(x)));
      return `CAST([${items.join(', ')}] AS ${type})`;
    }
    if (v === undefined || !Number.isFinite(Number(v))) throw new ConfigError(`report parameter ${key} is not a number: ${String(v)}`);
    return `CAST(${v} AS ${type})`;
  });
}

async function viaDaemon(daemon: DaemonInfo, query: string): Promise<Record<string, unknown>[]> {
  const text = await daemonSql(daemon, query, 'json');
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}
