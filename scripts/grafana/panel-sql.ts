// The SQL of the Grafana panels: the reports' own SQL files (queries/reports/*.sql, and queries/grafana/*.sql for
// what only a dashboard shows) with their {name:Type} parameters bound to the ClickHouse data source's macros and the
// dashboard's variables, so a panel shows what `perfpipe report` shows for the same window (docs/deploy.md §5).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../ingest/store/package-root.js';

/**
 * The window's ends: the dashboard's time range, narrowed to the run chosen in `$run` (none: the range alone).
 * `$__fromTime_ms`/`$__toTime_ms` are the plugin's millisecond bounds (fromUnixTimestamp64Milli); a run still open
 * ends now.
 */
const RUN = '${run:sqlstring}';
const range = (bound: string): string => `toDateTime64(${bound}, 3, 'UTC')`;
export const WINDOW_FROM = `greatest(${range('$__fromTime_ms')}, ifNull((SELECT maxOrNull(started_at) FROM runs FINAL WHERE name = ${RUN}), ${range('$__fromTime_ms')}))`;
export const WINDOW_TO = `least(${range('$__toTime_ms')}, ifNull((SELECT maxOrNull(ifNull(stopped_at, now64(3))) FROM runs FINAL WHERE name = ${RUN}), ${range('$__toTime_ms')}))`;

/** What each report parameter becomes on a panel. */
const BINDINGS: Record<string, string> = {
  'from:DateTime64(3)': WINDOW_FROM,
  'to:DateTime64(3)': WINDOW_TO,
  'from:DateTime64(6)': `toDateTime64(${WINDOW_FROM}, 6, 'UTC')`,
  'to:DateTime64(6)': `toDateTime64(${WINDOW_TO}, 6, 'UTC')`,
  // The panels read the per-minute rollups, as the reports do by default (queries/reports/reports.ts).
  'bucket_s:UInt32': 'toUInt32(60)',
  'limit:UInt32': 'toUInt32(1000)',
  // A table panel shows the range as a whole; the per-minute points have their own query (grafana/apdex-per-minute).
  'timeline_s:UInt32': 'toUInt32(0)',
  // TJ operations defined by context rules live in perfpipe's config, which Grafana does not read: none here.
  'op_names:Array(String)': "CAST([], 'Array(String)')",
  'op_prefixes:Array(String)': "CAST([], 'Array(String)')",
  'op_regexes:Array(String)': "CAST([], 'Array(String)')",
  'op_infobases:Array(String)': "CAST([], 'Array(String)')",
  'op_targets:Array(Nullable(Float64))': "CAST([], 'Array(Nullable(Float64))')",
  'op_priorities:Array(Nullable(UInt32))': "CAST([], 'Array(Nullable(UInt32))')",
  'op_min_levels:Array(Nullable(Float64))': "CAST([], 'Array(Nullable(Float64))')",
};

/** The SQL file of a report (`reports/<name>`) or of a dashboard-only query (`grafana/<name>`). */
export function querySql(path: string): string {
  return readFileSync(join(packageRoot(), 'queries', `${path}.sql`), 'utf8');
}

/**
 * The file's SQL with every parameter bound; a parameter no panel knows is an error, not a broken panel. `fixed`: the
 * panel's own values of some parameters (a string each, bound as a literal), such as report locks' episode kind.
 */
export function bindParams(sql: string, fixed: Readonly<Record<string, string>> = {}): string {
  const body = sql.replace(/^\s*--.*$/gm, '').trim();
  return body.replace(/\{(\w+):([^{}]+)\}/g, (whole, name: string, type: string) => {
    const own = fixed[name];
    if (own !== undefined) return `CAST('${own.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}', '${type}')`;
    const bound = BINDINGS[`${name}:${type}`];
    if (bound === undefined) throw new Error(`a panel cannot bind the report parameter ${whole}; add it to scripts/grafana/panel-sql.ts`);
    return `(${bound})`;
  });
}

/** A report whose time column is Unix seconds `t`, as the HTML charts read it, with a time column Grafana draws. */
export function withTimeColumn(sql: string, column = 't'): string {
  return `SELECT toDateTime(${column}, 'UTC') AS time, * EXCEPT (${column})\nFROM\n(\n${sql}\n)\nORDER BY time`;
}
