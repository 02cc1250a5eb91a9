// One client API for both shapes (docs/architecture.md §6): @clickhouse/client over HTTP to a ClickHouse
// server, or the same client over the embedded engine (chdb/connection) in a data directory.
// Credentials come from the environment, never from config files or flags, and are never logged.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { finished } from 'node:stream/promises';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { SinkError } from '../errors/errors.js';
import { createBinaryInserter } from './chdb-binary-insert.js';
import { sleep } from '../retry/sleep.js';
import { lockHolder } from './data-dir-lock.js';
import { queryTraceFromEnv, tracedClient } from './query-trace.js';

export interface StoreTarget {
  /** Embedded engine data lives in `<data>/clickhouse`. */
  data?: string;
  /** A ClickHouse server, e.g. `http://127.0.0.1:8123`; wins over `data`. */
  clickhouse?: string;
  /** Database on a server (default `default`). */
  database?: string;
  /**
   * A server configuration file for the embedded engine (ClickHouse's XML or YAML): clusters in `remote_servers`
   * and `macros`, as the one-shard stand-in of the cluster DDL's tests gives it (docs/deploy.md §3).
   */
  engineConfig?: string;
}

/** Rows already serialized in `format`, one insert, settings applied to this insert only. */
export interface FormattedInsert {
  table: string;
  columns: readonly string[];
  /** `name Type, …` of the columns: RowBinary carries no names or types of its own. */
  structure: string;
  format: 'RowBinary';
  body: Buffer;
  settings: Record<string, string | number>;
}

export interface Store {
  client: ClickHouseClient;
  /**
   * Inserts rows already encoded (RowBinary, schemas/columns.ts). The bulk path of the sinks: a server gets the
   * bytes as the request body of `INSERT … FORMAT RowBinary`; the embedded engine reads them from a spooled file
   * (chdb-binary-insert.ts explains why not inline).
   */
  insertFormatted(insert: FormattedInsert): Promise<void>;
  kind: 'embedded' | 'server';
  /**
   * The embedded engine only: a connection of its own on the same data, for ClickHouse's HTTP interface
   * (daemon/clickhouse-http/), which streams results and keeps settings per request. Close it after use.
   */
  openSession?: () => import('chdb').Session;
  /** Human-readable location, no credentials. */
  where: string;
  close(): Promise<void>;
}

export const DEFAULT_DATA_DIR = 'perfpipe-data';

/** Settings whose defaults differ between a server and the embedded engine: pinned so both answer alike. */
const SHARED_SETTINGS = { output_format_json_quote_64bit_integers: 1 } as const;

/**
 * Server settings of the embedded engine. Its global thread pool keeps up to 1,000 idle threads, and it removes
 * outdated parts with up to 128 of them: in a 10 GB TJ ingest the first batch of parts removed after merges left
 * 126 idle threads beside the ~33 at work, each holding its stack and its allocator's thread cache, ~30 MiB in
 * all for the rest of the run (docs/write-path.md §7). Eight removers are more than two cores' disk can keep busy;
 * sixteen idle threads serve the queries' own pools (`max_threads` is the core count).
 */
export const EMBEDDED_ENGINE_ARGS = ['--max_parts_cleaning_thread_pool_size=8', '--max_thread_pool_free_size=16'] as const;

/**
 * Options of the engine's jemalloc (linked into libchdb under the `je_` prefix, so it reads `JE_MALLOC_CONF`).
 * Built with one arena per CPU; one arena for all its threads keeps the pages one thread frees for the next
 * thread's allocations instead of beside another arena's: a 10 GB TJ ingest peaks at 476-478 instead of 517-518 MiB,
 * CPU time within this machine's noise (docs/write-path.md §7). Freed pages are given back after 1 s instead of the
 * build's 5 s, and its heap profiler (built active, sampling every 512 KiB with a backtrace) is off: in a live
 * `run` the allocator then holds 127 instead of 148 MiB, dirty pages 23 instead of 32 MiB (bench/memory-and-soak.md).
 */
export const EMBEDDED_ENGINE_MALLOC_CONF = 'percpu_arena:disabled,narenas:1,dirty_decay_ms:1000,prof_active:false';

export async function openStore(target: StoreTarget, env: NodeJS.ProcessEnv = process.env, lockWaitMs = 10_000): Promise<Store> {
  if (target.clickhouse) {
    const url = new URL(target.clickhouse);
    const client = createClient({
      url: `${url.protocol}//${url.host}`,
      // The password only from the environment: config refuses a URL that carries one (it would be logged). A user
      // named in the URL (`http://writer@host:8123`) wins over the environment's.
      username: decodeURIComponent(url.username) || (env.PERFPIPE_CLICKHOUSE_USER ?? 'default'),
      password: env.PERFPIPE_CLICKHOUSE_PASSWORD ?? '',
      database: target.database ?? (url.pathname.replace(/^\//, '') || 'default'),
      request_timeout: 60_000,
      compression: { request: true, response: true },
      clickhouse_settings: { ...SHARED_SETTINGS, wait_end_of_query: 1 },
      // Its failures are thrown to perfpipe, which says them once; the client's own log would print each with a stack.
      log: { level: ClickHouseLogLevel.OFF },
    });
    const insertFormatted = async (i: FormattedInsert): Promise<void> => {
      const result = await client.exec({
        query: `INSERT INTO ${i.table} (${i.columns.join(', ')}) FORMAT ${i.format}`,
        values: Readable.from([i.body]),
        clickhouse_settings: i.settings,
      });
      // The (empty) answer must be read to its end for the socket to go back to the pool.
      await finished(result.stream.resume());
    };
    return { client, kind: 'server', where: `${url.protocol}//${url.host}`, insertFormatted, close: () => client.close() };
  }
  const dir = resolve(target.data ?? DEFAULT_DATA_DIR, 'clickhouse');
  mkdirSync(dir, { recursive: true });
  // This process now shares its memory with the engine, whose code alone keeps ~240 MiB resident: V8's old
  // generation grows by a fifth between major collections instead of its default factor (up to 4× for a small
  // heap). An ingest's old space held 16-25 MiB of live objects and grew to 45-67 MiB of garbage between
  // collections; at 20 % it stays at ~30 MiB (1 GB TJ ingest: peak RSS 479-501 -> 461-467 MiB, docs/write-path.md
  // §7). Only here: `parse` and the agent have no engine beside them and keep V8's pace.
  setFlagsFromString('--heap-growing-percent=20');
  const { Session, createChdbConnection } = await loadChdb();
  // The engine's server configuration is given when it starts, by the first session on the directory; the client's
  // connection below joins that same engine. The session lives as long as the store.
  const engine = await withLockRetry(dir, () => new Session(dir, { connectionArgs: target.engineConfig === undefined ? EMBEDDED_ENGINE_ARGS : [...EMBEDDED_ENGINE_ARGS, `--config-file=${resolve(target.engineConfig)}`] }), lockWaitMs);
  let client: ClickHouseClient;
  try {
    client = createClient({ connection: createChdbConnection({ path: dir }), clickhouse_settings: SHARED_SETTINGS } as Parameters<typeof createClient>[0]);
  } catch (error) {
    engine.close();
    throw error;
  }
  // PERFPIPE_TRACE_QUERIES=FILE: what each statement costs the engine (query-trace.ts), for profiling.
  client = tracedClient(client, queryTraceFromEnv(client));
  const binary = createBinaryInserter(join(dir, '..', 'insert-spool'), (statement) => client.command(statement));
  // The client's errors already carry ClickHouse's code, as a server's do: the sink tells bad data from a transient
  // failure alike for both shapes.
  const insertFormatted = (i: FormattedInsert): Promise<void> =>
    binary.insert({ table: i.table, columns: i.columns, structure: i.structure, settings: i.settings, body: i.body });
  const close = async (): Promise<void> => {
    binary.close();
    await client.close();
    engine.close();
  };
  return { client, kind: 'embedded', where: join(dir), insertFormatted, close, openSession: () => new Session(dir) };
}

/**
 * chdb, loaded lazily: a server user need not load the 500 MB engine at all. Its allocator reads its options when
 * the library loads (chdb loads its addon on import): ours go first, so a JE_MALLOC_CONF the user set still has the
 * last word, and the variable is restored at once, not passed on to the processes this one starts (psql, pgBadger).
 */
async function loadChdb(): Promise<Pick<typeof import('chdb'), 'Session'> & Pick<typeof import('chdb/connection'), 'createChdbConnection'>> {
  const userMallocConf = process.env.JE_MALLOC_CONF;
  process.env.JE_MALLOC_CONF = [EMBEDDED_ENGINE_MALLOC_CONF, userMallocConf].filter(Boolean).join(',');
  try {
    const [{ Session }, { createChdbConnection }] = await Promise.all([import('chdb'), import('chdb/connection')]);
    return { Session, createChdbConnection };
  } finally {
    if (userMallocConf === undefined) delete process.env.JE_MALLOC_CONF;
    else process.env.JE_MALLOC_CONF = userMallocConf;
  }
}

/**
 * The embedded engine locks its data directory (one process at a time). A short-lived `perfpipe sql`
 * may hold it for a moment: wait a bounded time, then say which process to look for. A held lock is seen in the
 * kernel's table before the engine is asked, which would print its refusal on stderr at every try.
 */
async function withLockRetry<T>(dir: string, open: () => T, waitMs: number): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    let holder = lockHolder(dir);
    let error: unknown;
    if (!holder) {
      try {
        return open();
      } catch (e) {
        const said = String((e as Error)?.message) + String((e as { cause?: Error })?.cause?.message);
        holder = lockHolder(dir);
        if (!holder && !/Cannot lock file|already running/i.test(said)) throw e;
        error = e;
      }
    }
    if (Date.now() > deadline) {
      const who = holder ? ` by process ${holder.pid}${holder.command ? ` (${holder.command})` : ''}` : ' by another process';
      throw new SinkError(`the embedded ClickHouse data directory ${dir} is in use${who}: a perfpipe run, ingest or sql; stop it or use its daemon through perfpipe sql`, 'all', { cause: error, permanent: true });
    }
    await sleep(200);
  }
}
