// How long each table family keeps its rows: a TTL on every table, set from the config each time a process that
// owns the schema starts (ingest, run, sink), so a changed `retention` takes effect at the next start. Tables are
// partitioned by day (raw events) or month (rollups) and drop whole parts (`ttl_only_drop_parts`), so expiry is a
// file deletion, not a rewrite. Without it a production install fills its disk (docs/write-path.md, retention).
import type { ClickHouseClient } from '@clickhouse/client';
import { z } from 'zod';

const Days = z.number().int().nonnegative({ error: (i) => `${String(i.input)} is negative; expected days, e.g. 30 (0 keeps rows for ever)` });

export const RetentionConfigSchema = z.strictObject({
  /** Days tj_events keeps an event, counted from its time. 0 keeps it for ever. Default 30. */
  tj_days: Days.default(30),
  /** Days pg_log and pg_lock_waits keep an entry. Default 30. */
  pg_days: Days.default(30),
  /** Days the atop tables keep a sample. Default 30. */
  atop_days: Days.default(30),
  /** Days apdex_measurements keeps a measurement (small next to the journal). Default 400. */
  apdex_days: Days.default(400),
  /**
   * Days the per-minute rollups keep a minute (tj_lock_minute, tj_call_minute, apdex_minute, atop_minute): what
   * comparing runs across months reads after the raw events are gone. Default 400.
   */
  rollup_days: Days.default(400),
  /** Days the alerts table keeps a notification. Default 400. */
  alert_days: Days.default(400),
  /** Days ingest_errors keeps a record of bad input. Default 30. */
  error_days: Days.default(30),
});
export type RetentionConfig = z.infer<typeof RetentionConfigSchema>;

/** Each table, the family key that sets its retention and the time column its TTL counts from. */
export const RETENTION_TABLES: ReadonlyArray<{ table: string; key: keyof RetentionConfig; column: string }> = [
  { table: 'tj_events', key: 'tj_days', column: 'ts' },
  { table: 'pg_log', key: 'pg_days', column: 'ts' },
  { table: 'pg_lock_waits', key: 'pg_days', column: 'ts_end' },
  { table: 'atop_system', key: 'atop_days', column: 'ts' },
  { table: 'atop_cpu', key: 'atop_days', column: 'ts' },
  { table: 'atop_disks', key: 'atop_days', column: 'ts' },
  { table: 'atop_interfaces', key: 'atop_days', column: 'ts' },
  { table: 'atop_top_processes', key: 'atop_days', column: 'ts' },
  { table: 'apdex_measurements', key: 'apdex_days', column: 'ts_start' },
  { table: 'tj_lock_minute', key: 'rollup_days', column: 'minute' },
  { table: 'tj_call_minute', key: 'rollup_days', column: 'minute' },
  { table: 'apdex_minute', key: 'rollup_days', column: 'minute' },
  { table: 'atop_minute', key: 'rollup_days', column: 'minute' },
  { table: 'alerts', key: 'alert_days', column: 'sent_at' },
  { table: 'ingest_errors', key: 'error_days', column: 'detected_at' },
];

/** The days a table's TTL keeps, read from its definition; 0 when it has none. */
export function ttlDays(createTableQuery: string): number {
  const m = /\bTTL\b.*?toIntervalDay\((\d+)\)/s.exec(createTableQuery);
  return m ? Number(m[1]) : 0;
}

/**
 * Sets each table's TTL to the configured days where it differs; returns `table: before → after` for each change.
 * The statement text holds only identifiers and a validated integer.
 */
export async function applyRetention(client: ClickHouseClient, retention: RetentionConfig): Promise<string[]> {
  const rs = await client.query({
    query: 'SELECT name, create_table_query FROM system.tables WHERE database = currentDatabase() AND name IN {names:Array(String)}',
    query_params: { names: RETENTION_TABLES.map((t) => t.table) },
    format: 'JSONEachRow',
  });
  const current = new Map((await rs.json<{ name: string; create_table_query: string }>()).map((r) => [r.name, ttlDays(r.create_table_query)]));
  const changed: string[] = [];
  for (const { table, key, column } of RETENTION_TABLES) {
    const before = current.get(table);
    const days = retention[key];
    if (before === undefined || before === days) continue;
    const ttl = days === 0 ? 'REMOVE TTL' : `MODIFY TTL toDateTime(${column}) + INTERVAL ${Math.trunc(days)} DAY`;
    await client.command({ query: `ALTER TABLE ${table} ${ttl}` });
    changed.push(`${table}: ${before === 0 ? 'kept for ever' : `${before} days`} → ${days === 0 ? 'kept for ever' : `${days} days`}`);
  }
  return changed;
}
