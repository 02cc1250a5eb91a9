// The analytics layer's one door to the store, for every command that reads or writes it: the store directly, or —
// while a `perfpipe run` holds the embedded data directory — that daemon's /sql port, like `perfpipe sql`.
// A fresh embedded directory is migrated first, so a report on it is empty rather than an error.
import { openStore } from '../ingest/store/clickhouse.js';
import { migrate } from '../ingest/store/migrations.js';
import { readDaemonFile } from './daemon-file.js';
import { daemonSql } from './daemon-sql.js';
import { ConfigError } from '../ingest/errors/errors.js';

/**
 * Values for `{name:Type}` placeholders: numbers, texts (numeric texts such as `0.000` carry times and limits:
 * queries/reports/window-params.ts says why), and arrays of those (the configured key operations).
 */
export type Params = Record<string, number | string | ReadonlyArray<string | number | null>>;

export interface StoreAccess {
  /** Rows of a SELECT as objects (JSONEachRow). */
  rows<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T[]>;
  /** A statement without a result (INSERT … VALUES, DDL). */
  run(sql: string, params?: Params): Promise<void>;
  close(): Promise<void>;
}

export interface StoreTarget { data: string; clickhouse?: string }

export async function openStoreAccess(target: StoreTarget): Promise<StoreAccess> {
  const daemon = target.clickhouse ? null : readDaemonFile(target.data);
  if (daemon) {
    // Placeholders become literals here: the daemon's /sql binds only texts, and an array sent as a text would
    // have its quotes escaped again.
    const post = (sql: string, params: Params = {}): Promise<string> => daemonSql(daemon, inlineParams(sql, params), 'json');
    return {
      rows: async <T>(sql: string, params?: Params) => (await post(sql, params)).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as T),
      run: async (sql, params) => { await post(sql, params); },
      close: async () => {},
    };
  }
  const store = await openStore(target.clickhouse ? { clickhouse: target.clickhouse } : { data: target.data });
  try {
    if (!target.clickhouse) await migrate(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    rows: async <T>(sql: string, params: Params = {}) => (await store.client.query({ query: sql, query_params: params, format: 'JSONEachRow' })).json<T>(),
    run: async (sql, params = {}) => { await store.client.command({ query: sql, query_params: params }); },
    close: () => store.close(),
  };
}

/** A ClickHouse literal of a text: quotes and backslashes escaped, so the text stays data inside the quotes. */
const quoted = (s: string): string => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** For a text column always a quoted text; otherwise a number, or a text that is one, as it is, any other text quoted. */
const literal = (v: string | number, type: string): string =>
  /String/.test(type) ? quoted(String(v)) : typeof v === 'number' || (v.trim() !== '' && Number.isFinite(Number(v))) ? String(v) : quoted(v);

/**
 * Each `{name:Type}` as a typed literal: `CAST(<literal> AS Type)`, arrays as `CAST([…] AS Type)`. A placeholder
 * without a value is an error naming it, as a bound query's would be.
 */
export function inlineParams(sql: string, params: Params): string {
  return sql.replace(/\{(\w+):([^}]+)\}/g, (_whole, key: string, type: string) => {
    const v = params[key];
    if (v === undefined) throw new ConfigError(`query parameter ${key} has no value`);
    if (Array.isArray(v)) return `CAST([${v.map((x: string | number | null) => (x === null ? 'NULL' : typeof x === 'number' ? String(x) : quoted(x))).join(', ')}] AS ${type})`;
    return `CAST(${literal(v as string | number, type)} AS ${type})`;
  });
}
