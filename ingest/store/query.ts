// Runs one SQL statement and returns its text in the requested format, through any ClickHouse client.
import type { ClickHouseClient, DataFormat } from '@clickhouse/client';

/** `--format` values and the ClickHouse output formats behind them. */
export const OUTPUT_FORMATS = {
  table: 'PrettyCompactMonoBlock',
  json: 'JSONEachRow',
  csv: 'CSVWithNames',
  tsv: 'TabSeparatedWithNames',
} as const;
// The client's DataFormat type lists only formats it can decode; Pretty* output is passed through as
// text, which both the HTTP server and chdb produce, hence the casts where it is used.
export type OutputFormat = keyof typeof OUTPUT_FORMATS;

export async function runQuery(client: ClickHouseClient, query: string, format: OutputFormat): Promise<string> {
  const result = await client.exec({ query, clickhouse_settings: { default_format: OUTPUT_FORMATS[format] as DataFormat, output_format_pretty_color: 0 } });
  const chunks: Buffer[] = [];
  for await (const chunk of result.stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
