// Report SQL lives in queries/reports/<name>.sql with {name:Type} parameters; this runs one by name,
// unchanged on a ClickHouse server and on the embedded engine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClickHouseClient, DataFormat } from '@clickhouse/client';
import { packageRoot } from '../../ingest/store/package-root.js';
import { keyOperationParams } from './key-operation-params.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../../ingest/store/query.js';

export function reportSql(name: string): string {
  return readFileSync(join(packageRoot(), 'queries', 'reports', `${name}.sql`), 'utf8');
}

/** One-minute points, from the rollups: what every report but a short window's HTML chart draws (chart-bucket.ts). */
const MINUTES = { bucket_s: 60 };

/**
 * Parameters with a meaning when a caller leaves them out: apdex.sql's configured key operations default to none
 * (the export's operations and settings alone), so callers that know no config (demo, run-compare) need not pass them;
 * the per-minute reports default to minutes.
 */
const DEFAULT_PARAMS: Record<string, Record<string, unknown>> = {
  apdex: { ...keyOperationParams([]), ...MINUTES, timeline_s: 0 },
  'apdex-active-minutes': MINUTES, 'tj-lock-minutes': MINUTES, 'atop-cpu-minutes': MINUTES, 'atop-disk-minutes': MINUTES,
  'pg-lock-wait-minutes': MINUTES,
  // The statements' key operations are found by the configured rules; none configured, none found.
  'sql-contexts': keyOperationParams([]),
  // `report why` groups calls by the configured rules too; none configured, by their first context line.
  'why-operations': { ...keyOperationParams([]), operation: '' }, 'why-details': keyOperationParams([]), 'why-slowest': keyOperationParams([]),
  'why-pg-waits': keyOperationParams([]), 'why-host': keyOperationParams([]),
};

/** The parameters a report runs with: its defaults, then what the caller gave. */
export function reportParams(name: string, params: Record<string, unknown>): Record<string, unknown> {
  return { ...DEFAULT_PARAMS[name], ...params };
}

export async function runReport(client: ClickHouseClient, name: string, params: Record<string, unknown>, format: OutputFormat): Promise<string> {
  const result = await client.exec({
    query: reportSql(name),
    query_params: reportParams(name, params),
    clickhouse_settings: { default_format: OUTPUT_FORMATS[format] as DataFormat, output_format_pretty_color: 0, output_format_pretty_row_numbers: 0 },
  });
  const chunks: Buffer[] = [];
  for await (const chunk of result.stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export async function reportRows<T>(client: ClickHouseClient, name: string, params: Record<string, unknown>): Promise<T[]> {
  const rs = await client.query({ query: reportSql(name), query_params: reportParams(name, params), format: 'JSONEachRow' });
  return rs.json<T>();
}
