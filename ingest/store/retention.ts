// How long each table family keeps its rows, and when the big tables' parts are recompressed: a TTL on every table,
// counted from when a row was ingested (`ingested_at`), not from the event's own time, so an old load test read in
// today is kept, not dropped as it is inserted,
// set from the config each time a process that owns the schema starts (ingest, run, sink), so a changed `retention`
// takes effect at the next start. Tables are partitioned by day (raw events) or month (rollups) and drop whole parts
// (`ttl_only_drop_parts`), so expiry is a file deletion, not a rewrite. Without it a production install fills its
// disk (docs/write-path.md, retention). The TTL set last is recorded in `retention_applied`: a table is altered
// only when its wanted TTL differs from that record.
import type { ClickHouseClient } from '@clickhouse/client';
import { z } from 'zod';
import { LOCAL_SUFFIX } from './cluster-ddl.js';

const Days = z.number().int().nonnegative({ error: (i) => `${String(i.input)} is negative; expected days, e.g. 30 (0 keeps rows for ever)` });

/** The keys no family brings: rollups, alerts, ingest errors, recompression. */
const OwnRetentionSchema = z.strictObject({
  /**
   * Days the per-minute rollups keep a minute (tj_lock_minute, tj_call_minute, apdex_minute, atop_minute, pg_wait_minute,
   * tj_sql_hour, tj_sql_minute, tj_sql_context_minute and the statement texts tj_sql_text), and the lock episodes keep an
   * episode (tj_lock_episodes, pg_lock_episodes, pg_blocked_minute, pg_blocked_sides): what comparing runs across months
   * reads after the raw events are gone. Default 400.
   */
  rollup_days: Days.default(400),
  /** Days the alerts table keeps a notification. Default 400. */
  alert_days: Days.default(400),
  /** Days ingest_errors keeps a record of bad input. Default 30. */
  error_days: Days.default(30),
  /**
   * Days after ingestion the text of tj_events, pg_log and pg_lock_waits is recompressed from LZ4 (cheap to
   * write) to ZSTD(3) (1.67× smaller in bench/engine-doors.ts), in background merges. 0 keeps LZ4. Default 1.
   */
  recompress_after_days: Days.default(1),
});

/** Days per key: each family's own (`tj_days`, `pg_days` …, from its descriptor) and the keys above. */
export type RetentionConfig = Readonly<Record<string, number>> & z.infer<typeof OwnRetentionSchema>;
export type RetentionConfigInput = Partial<Record<string, number>> & z.input<typeof OwnRetentionSchema>;

/** A family's key: its name, its default and the line that documents it (ingest/source/family.ts `retention`). */
export interface RetentionKey {
  key: string;
  days: number;
  about: string;
}

/** The config's `retention:`: the families' keys, then the keys of the tables no family owns. */
export function retentionConfigSchema(keys: readonly RetentionKey[]): z.ZodType<RetentionConfig, RetentionConfigInput> {
  const own = new Set(Object.keys(OwnRetentionSchema.shape));
  const taken = keys.find((k) => own.has(k.key));
  if (taken !== undefined) throw new Error(`retention key ${taken.key} of a family is one of perfpipe's own (${[...own].join(', ')})`);
  const families = Object.fromEntries(keys.map((k) => [k.key, Days.default(k.days).describe(k.about)]));
  return z.strictObject({ ...families, ...OwnRetentionSchema.shape }) as unknown as z.ZodType<RetentionConfig, RetentionConfigInput>;
}

/**
 * A table that expires, the retention key that sets it, and the column holding when a row arrived (the rollups keep
 * the latest arrival of what they sum, 046_rollup_ingested_at.sql); `recompress` tables keep their text in the
 * part's default codec (045_insert_codecs.sql), which the recompression TTL changes. The families' tables come from
 * their descriptors (ingest/families/family-registry.ts); these two belong to no family.
 */
export interface RetentionTable {
  table: string;
  key: string;
  column: string;
  recompress?: true;
}

const OWN_TABLES: readonly RetentionTable[] = [
  { table: 'alerts', key: 'alert_days', column: 'sent_at' },
  { table: 'ingest_errors', key: 'error_days', column: 'detected_at' },
];

/** Every table that expires: the families' (`familyTables`) and perfpipe's own. */
export function retainedTables(familyTables: readonly RetentionTable[]): RetentionTable[] {
  return [...familyTables, ...OWN_TABLES];
}

/** The days a table's TTL keeps rows, read from its definition; 0 when it deletes nothing. */
export function ttlDays(createTableQuery: string): number {
  const ttl = /\bTTL\b(.*?)(?:\bSETTINGS\b|$)/s.exec(createTableQuery)?.[1] ?? '';
  for (const part of ttl.split(',')) {
    const m = /toIntervalDay\((\d+)\)\s*(DELETE)?\s*$/.exec(part.trim());
    if (m && !/RECOMPRESS/.test(part)) return Number(m[1]);
  }
  return 0;
}

/** The TTL clause a table should have, or null for none. Only identifiers and integers go into it. */
export function wantedTtl(t: RetentionTable, retention: RetentionConfig): string | null {
  const parts: string[] = [];
  const recompress = Math.trunc(retention.recompress_after_days);
  if (t.recompress && recompress > 0) parts.push(`ingested_at + INTERVAL ${recompress} DAY RECOMPRESS CODEC(ZSTD(3))`);
  const days = Math.trunc(retention[t.key] ?? 0);
  if (days > 0) parts.push(`toDateTime(${t.column}) + INTERVAL ${days} DAY DELETE`);
  return parts.length === 0 ? null : parts.join(', ');
}

export interface RetentionTarget {
  /**
   * A cluster (docs/deploy.md §3): the TTLs go on each table's `<table>_local` ON CLUSTER, the record on the node
   * perfpipe talks to.
   */
  cluster?: string;
  /** Sends one statement; default `client.command`. The cluster DDL's one-shard stand-in strips ON CLUSTER here. */
  send?: (statement: string) => Promise<void>;
}

/**
 * Gives each table (the families' `tables` and perfpipe's own) the TTL the config wants where it differs from the
 * one set last; returns a line per change, `table: before → after` in days kept.
 */
export async function applyRetention(
  store: { client: ClickHouseClient; kind: 'embedded' | 'server' }, retention: RetentionConfig, tables: readonly RetentionTable[],
  target: RetentionTarget = {},
): Promise<string[]> {
  const { client } = store;
  const all = retainedTables(tables);
  const stored = (table: string): string => (target.cluster === undefined ? table : `${table}${LOCAL_SUFFIX}`);
  const alter = (table: string): string => (target.cluster === undefined ? `ALTER TABLE ${table}` : `ALTER TABLE ${stored(table)} ON CLUSTER ${target.cluster}`);
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS retention_applied (table String, ttl String, applied_at DateTime DEFAULT now())
            ENGINE = ReplacingMergeTree(applied_at) ORDER BY table`,
  });
  const rs = await client.query({
    query: `SELECT t.name AS name, t.create_table_query AS create_table_query, a.ttl AS applied
            FROM system.tables AS t LEFT JOIN (SELECT table, argMax(ttl, applied_at) AS ttl FROM retention_applied GROUP BY table) AS a ON a.table = t.name
            WHERE t.database = currentDatabase() AND t.name IN {names:Array(String)}`,
    query_params: { names: all.map((t) => stored(t.table)) },
    format: 'JSONEachRow',
  });
  const current = new Map((await rs.json<{ name: string; create_table_query: string; applied: string }>()).map((r) => [r.name, r]));
  const changed: string[] = [];
  const statements: string[] = [];
  const records: Array<{ table: string; ttl: string }> = [];
  for (const t of all) {
    const now = current.get(stored(t.table));
    if (now === undefined) continue;
    const ttl = wantedTtl(t, retention);
    if ((ttl ?? 'none') === (now.applied || (/\bTTL\b/.test(now.create_table_query) ? '?' : 'none'))) continue;
    const clause = ttl === null ? 'REMOVE TTL' : `MODIFY TTL ${ttl}`;
    statements.push(`${alter(t.table)} ${clause}`);
    records.push({ table: stored(t.table), ttl: ttl ?? 'none' });
    const before = ttlDays(now.create_table_query);
    const after = retention[t.key] ?? 0;
    if (before !== after) changed.push(`${t.table}: ${before === 0 ? 'kept for ever' : `${before} days`} → ${after === 0 ? 'kept for ever' : `${after} days`}`);
  }
  if (statements.length === 0) return changed;
  // The embedded engine takes them in one call (see migrations.ts); a server one by one.
  if (target.send !== undefined) for (const statement of statements) await target.send(statement);
  else if (store.kind === 'embedded') await client.command({ query: statements.join(';\n') });
  else for (const query of statements) await client.command({ query });
  await client.insert({ table: 'retention_applied', values: records, format: 'JSONEachRow' });
  return changed;
}
