// Queries with bound parameters for CLI commands, against the store directly or — while a `perfpipe run`
// holds the embedded data directory — through the daemon's /sql port (`param_<name>` binds `{name:Type}`).
import { openStore } from '../../store/clickhouse.js';
import { migrate } from '../../store/migrations.js';
import { readDaemonFile } from '../../http/daemon-file.js';
import { daemonSql } from '../../http/daemon-sql.js';

export type Params = Record<string, string | number>;

export interface StoreAccess {
  /** Rows of a SELECT as objects (JSONEachRow). */
  rows<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T[]>;
  /** A statement without a result (INSERT … VALUES, DDL). */
  run(sql: string, params?: Params): Promise<void>;
  close(): Promise<void>;
}

export async function openStoreAccess(target: { data: string; clickhouse?: string }): Promise<StoreAccess> {
  const daemon = target.clickhouse ? null : readDaemonFile(target.data);
  if (daemon) {
    const post = (sql: string, params: Params = {}): Promise<string> => daemonSql(daemon, sql, 'json', params);
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
