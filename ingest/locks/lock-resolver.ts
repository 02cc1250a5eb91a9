// The lock resolver (docs/write-path.md §11): in every process that stores segments (`run`, `ingest`, each `sink`),
// about once a second it reads the lock episodes that arrived since its last look (tj_lock_episodes,
// pg_lock_episodes, pg_blocked_sides: written by materialized views as their events are stored), works out those not yet complete in
// batches, and inserts the rows that changed. Restarting loses nothing: it begins with every episode the store holds
// as pending or partial. Several resolvers on one store write the same rows (episode-tables.ts, tj-episode-rows.ts).
import { createHash } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { EpisodeWork, type EpisodeState, type ResolverMode, type Work } from './episode-work.js';
import { DECIDED_AT_INSERT, type EpisodeTable, type Resolution } from './episode-tables.js';

export interface LockResolverOptions {
  client: ClickHouseClient;
  mode: ResolverMode;
  /**
   * Where a failed pass is reported (it is tried again at the next): the first of a run of failures, then the pass
   * that works again (without an error), so that a store down for a minute is two lines, not sixty.
   */
  warn?: (message: string, error?: Error) => void;
  /** Between passes, ms (1000). */
  intervalMs?: number;
  /** Episodes worked out per query (500). */
  batch?: number;
  /**
   * Episodes per query in the last step of a backfill (`settleAll`), which looks at every episode (default `batch`).
   * Each query reads the facts of its episodes' hours whatever their number, so few large batches cost far less
   * than many small ones; a server gets the batch in its URL (limited to 1 MiB), the embedded engine in process.
   */
  settleBatch?: number;
  /** The tables it completes (every one of DECIDED_AT_INSERT). */
  tables?: ReadonlyArray<EpisodeTable<AnyRow>>;
}

/**
 * The last step's batch on the embedded engine: the 3,546 episodes of a 200 MB generated journal settle in one batch,
 * 3.6 s of CPU against 8.6 s in batches of 500 (bench/RESULTS.md, "the engine's CPU in ingest --tj").
 */
export const EMBEDDED_SETTLE_BATCH = 5000;

export interface LockResolverStats { resolved: number; written: number; passes: number; failedPasses: number }

export interface LockResolver {
  /** One pass now: what arrived, then what is due. Resolves when its rows are stored. */
  pass(): Promise<void>;
  /** The backfill's last step: every episode not complete is worked out once more and settled if still incomplete. */
  settleAll(): Promise<void>;
  stats: LockResolverStats;
  /** Episodes being followed (not complete or settled). */
  pending(): number;
  /** One last pass, then no more. */
  stop(): Promise<void>;
}

type AnyRow = { version: number; status: string };

interface Followed { table: EpisodeTable<AnyRow>; work: EpisodeWork }

/** A token from what the insert holds: a replay of the same batch is dropped; a batch cut otherwise is collapsed by the table's key and version. */
export function resolutionToken(table: string, rows: Array<{ key: string; version: number }>): string {
  const h = createHash('sha256');
  for (const r of [...rows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.version - b.version))) h.update(`${r.key}|${r.version}\n`);
  return `${table}|${h.digest('hex').slice(0, 32)}`;
}

export function startLockResolver(o: LockResolverOptions): LockResolver {
  const { client } = o;
  const batch = o.batch ?? 500;
  const followed: Followed[] = (o.tables ?? DECIDED_AT_INSERT).map((table) => ({ table, work: new EpisodeWork(o.mode) }));
  const stats: LockResolverStats = { resolved: 0, written: 0, passes: 0, failedPasses: 0 };
  /** Timer passes failed since the last that worked. */
  let failing = 0;
  /** Server time (s) of the last look: the next reads from a little before it (ingested_at has whole seconds). */
  let since: number | null = null;
  /** Passes run one after another; `busy` lets the timer skip a tick while one runs. */
  let queue: Promise<void> = Promise.resolve();
  let busy = 0;
  let stopped = false;

  async function states(query: string, params: Record<string, unknown>): Promise<EpisodeState[]> {
    const rs = await client.query({ query, query_params: params, format: 'JSONEachRow' });
    return (await rs.json<{ key: string; time: string; status: string; version: string }>()).map((r) => ({ ...r, version: Number(r.version) }));
  }

  async function discover(now: number): Promise<void> {
    const [{ t }] = await (await client.query({ query: 'SELECT toUnixTimestamp(now()) AS t', format: 'JSONEachRow' })).json<{ t: number }>() as [{ t: number }];
    for (const f of followed) {
      const { table, timeColumn, keySql } = f.table;
      const columns = `${keySql} AS key, toString(${timeColumn}) AS time, status, version`;
      const found = since === null
        ? await states(`SELECT ${columns} FROM ${table} FINAL WHERE status IN ('pending', 'partial')`, {})
        : await states(`SELECT ${columns} FROM ${table} WHERE ingested_at >= {since:UInt32}`, { since: since - 2 });
      f.work.seen(found, now);
    }
    since = Number(t);
  }

  async function work(f: Followed, items: Work[], now: number, settleAll: boolean): Promise<void> {
    const size = settleAll ? o.settleBatch ?? batch : batch;
    for (let i = 0; i < items.length; i += size) {
      const chunk = items.slice(i, i + size);
      const byKey = new Map(chunk.map((w) => [w.key, w]));
      const lo = chunk[0]!.time;
      const hi = chunk[chunk.length - 1]!.time;
      // Settling is decided per episode before the lookups, from what the last one found (episode-work.ts).
      const settle = (key: string): boolean => {
        const w = byKey.get(key);
        return settleAll || (w !== undefined && f.work.shouldSettle(w, now));
      };
      const resolved: Resolution<AnyRow>[] = await f.table.resolve(client, [...byKey.keys()], lo, hi, settle);
      const changed = resolved.filter((r) => r.changed);
      if (changed.length > 0) {
        await client.insert({
          table: f.table.table, values: changed.map((r) => r.next), format: 'JSONEachRow',
          clickhouse_settings: {
            insert_deduplicate: 1, async_insert: 0,
            insert_deduplication_token: resolutionToken(f.table.table, changed.map((r) => ({ key: r.key, version: r.next.version }))),
          },
        });
      }
      stats.resolved += resolved.length;
      stats.written += changed.length;
      for (const r of resolved) {
        const w = byKey.get(r.key);
        if (w === undefined) continue;
        const facts = r.next.version - (r.next.status === 'settled' ? 1 : 0);
        f.work.done(w, { status: r.next.status, version: r.next.version, facts, txOpen: r.missing.txOpen }, now);
      }
    }
  }

  /** `everything`: every followed episode, not only those due (the last pass before a stop, and settling). */
  async function onePass(settleAll: boolean, everything = settleAll): Promise<void> {
    const now = Date.now();
    await discover(now);
    for (const f of followed) await work(f, everything ? f.work.all() : f.work.due(now, Number.POSITIVE_INFINITY), now, settleAll);
    stats.passes++;
  }

  function run(settleAll: boolean, everything = settleAll): Promise<void> {
    busy++;
    const next = queue.then(() => onePass(settleAll, everything)).finally(() => { busy--; });
    queue = next.catch(() => {});
    return next;
  }

  // A backfill works nothing out while it reads: an episode looked at before the other files are stored is mostly
  // looked at again in the last step, and the lookups compete with the inserts for the engine (`ingest` of a
  // lock-heavy 100 MB tree took 295 s against 34 s without the lock work, docs/write-path.md §11).
  const timer = o.mode === 'follow' ? setInterval(() => {
    if (stopped || busy > 0) return;
    run(false).then(() => {
      if (failing > 0) o.warn?.(`lock episodes: resolver passes work again after ${failing} failed`);
      failing = 0;
    }, (error: Error) => {
      stats.failedPasses++;
      if (failing++ === 0) o.warn?.('lock episodes: a resolver pass failed; trying again (logged again when a pass works)', error);
    });
  }, o.intervalMs ?? 1000) : null;
  timer?.unref();

  return {
    pass: () => run(false),
    settleAll: () => run(true),
    stats,
    pending: () => followed.reduce((n, f) => n + f.work.size, 0),
    async stop() {
      stopped = true;
      if (timer === null) return; // a backfill stopped early: the next start's last step works its episodes out
      clearInterval(timer);
      // A last look, so that what was stored before the stop is worked out (a failure only leaves it for the next start).
      // Every episode still followed is looked at once more, due or not: one whose retry was seconds away (its other
      // side stored just before the stop) would otherwise keep its gap in the reports until the next start.
      await run(false, true).catch((error: Error) => o.warn?.('lock episodes: the last resolver pass failed; the next start goes on', error));
    },
  };
}
