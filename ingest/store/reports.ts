// Report SQL lives in queries/reports/<name>.sql with {name:Type} parameters; this runs one by name,
// unchanged on a ClickHouse server and on the embedded engine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClickHouseClient, DataFormat } from '@clickhouse/client';
import { packageRoot } from '../package-root.js';
import { OUTPUT_FORMATS, type OutputFormat } from './query.js';

export function reportSql(name: string): string {
  return readFileSync(join(packageRoot(), 'queries', 'reports', `${name}.sql`), 'utf8');
}

export async function runReport(client: ClickHouseClient, name: string, params: Record<string, unknown>, format: OutputFormat): Promise<string> {
  const result = await client.exec({
    query: reportSql(name),
    query_params: params,
    clickhouse_settings: { default_format: OUTPUT_FORMATS[format] as DataFormat, output_format_pretty_color: 0, output_format_pretty_row_numbers: 0 },
  });
  const chunks: Buffer[] = [];
  for await (const chunk of result.stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export async function reportRows<T>(client: ClickHouseClient, name: string, params: Record<string, unknown>): Promise<T[]> {
  const rs = await client.query({ query: reportSql(name), query_params: params, format: 'JSONEachRow' });
  return rs.json<T>();
}
