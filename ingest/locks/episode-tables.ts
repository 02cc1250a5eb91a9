// The two episode tables the lock resolver completes (docs/write-path.md §11): how an episode's key and time are
// read, and how a batch is worked out — its stored rows (latest version), the lookups of its SQL file, and the pure
// step that makes each next row (tj-episode-rows.ts, pg-episode-rows.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TupleParam, type ClickHouseClient } from '@clickhouse/client';
import { packageRoot } from '../store/package-root.js';
import { TjLockEpisodeRowSchema, type TjLockEpisodeRow } from '../../schemas/tj-lock-episode-row.js';
import { PgLockEpisodeRowSchema, type PgLockEpisodeRow } from '../../schemas/pg-lock-episode-row.js';
import { EPOCH, episodeKey, resolveTjEpisode, sameEpisode, type CulpritRow, type Missing } from './tj-episode-rows.js';
import { PgBlockedSidesRowSchema, type PgBlockedSidesRow } from '../../schemas/pg-blocked-sides-row.js';
import {
  blockedKey, NO_SIDES, pgEpisodeKey, resolveBlocked, resolvePgEpisode, sameBlocked, samePgEpisode, type BlockedSample, type SidesRow,
} from './pg-episode-rows.js';

/** One episode of a batch: the row stored now and the row it should have. */
export interface Resolution<Row> { key: string; stored: Row; next: Row; missing: Missing; changed: boolean }

export interface EpisodeTable<Row extends { version: number; status: string }> {
  table: string;
  /** The episode's time column (DateTime64) and its key as SQL: what the discovery reads. */
  timeColumn: string;
  keySql: string;
  /** Works out the batch `keys` (times within [lo, hi]); `settle(key)` says whether a still incomplete one is settled. */
  resolve(client: ClickHouseClient, keys: string[], lo: string, hi: string, settle: (key: string) => boolean): Promise<Resolution<Row>[]>;
}

const sqlOf = (name: string): string => readFileSync(join(packageRoot(), 'ingest', 'locks', name), 'utf8');

async function rowsOf<T>(client: ClickHouseClient, query: string, params: Record<string, unknown>): Promise<T[]> {
  const rs = await client.query({ query, query_params: params, format: 'JSONEachRow' });
  return rs.json<T>();
}

/** ClickHouse writes UInt64 as JSON text; the row schemas take offsets, waits and versions as numbers. */
function numbers<T>(r: Record<string, unknown>, keys: string[]): T {
  const out: Record<string, unknown> = { ...r };
  for (const k of keys) out[k] = Number(out[k]);
  delete out.ingested_at;
  return out as T;
}

function stored<Row>(client: ClickHouseClient, table: string, timeColumn: string, keySql: string, keys: string[], lo: string, hi: string, asNumbers: string[]): Promise<Row[]> {
  return rowsOf<Record<string, unknown>>(client, `SELECT * FROM ${table} FINAL WHERE ${timeColumn} >= {lo:String} AND ${timeColumn} <= {hi:String} AND has({ids:Array(String)}, ${keySql})`,
    { lo, hi, ids: keys }).then((rows) => rows.map((r) => numbers<Row>(r, asNumbers)));
}

const TJ_KEY_SQL = "concat(kind, '|', file_key, '|', toString(file_offset))";
const TJ_PAIRS_SQL = sqlOf('tj-episode-pairs.sql');
const TJ_CULPRITS_SQL = sqlOf('tj-episode-culprits.sql');
const TJ_TLOCKS_SQL = sqlOf('tj-episode-tlocks.sql');

type PairRow = Pick<CulpritRow, 'kind' | 'file_key' | 'file_offset' | 'paired' | 'victim_connect_id' | 'ref_ts' | 'requested_regions' | 'requested_locks' | 'culprit_connect_id'> & { infobase: string; ts: string };
type LookupRow = Omit<CulpritRow, keyof PairRow> & { id: string };
const NOT_LOOKED_UP: Omit<LookupRow, 'id'> = {
  culprit_user: '', culprit_context: '', tx_found: 0, tx_start: EPOCH, tx_user: '', tx_context: '', tx_end_found: 0, tx_end: EPOCH, tx_end_func: '',
  culprit_tlocks: [], n_facts: 0,
};

/** The earliest and latest of DateTime64 texts (one format, so they order as text). */
const earliest = (times: string[]): string => times.reduce((a, b) => (b < a ? b : a));
const latest = (times: string[]): string => times.reduce((a, b) => (b > a ? b : a));

/**
 * A batch's victims and culprits (tj-episode-pairs.sql), then each culprit connection looked up in the facts
 * (tj-episode-culprits.sql, the pairs passed as arrays), then its TLOCKs from where that lookup says
 * (tj-episode-tlocks.sql): three queries, so that none evaluates another's sets again.
 */
async function culpritRows(client: ClickHouseClient, keys: string[], lo: string, hi: string): Promise<CulpritRow[]> {
  const pairs = await rowsOf<PairRow>(client, TJ_PAIRS_SQL, { lo, hi, ids: keys });
  const idOf = (p: PairRow): string => `${episodeKey(p)}|${p.victim_connect_id}|${p.culprit_connect_id}`;
  const named = [...new Map(pairs.filter((p) => Number(p.culprit_connect_id) !== 0).map((p) => [idOf(p), p])).values()];
  const connections = new Map(named.map((p) => [`${p.infobase}|${p.culprit_connect_id}`, new TupleParam([p.infobase, Number(p.culprit_connect_id)])]));
  const found = named.length === 0 ? [] : await rowsOf<Omit<LookupRow, 'culprit_tlocks'> & { lower_ts: string }>(client, TJ_CULPRITS_SQL, {
    ids: named.map(idOf), infobases: named.map((p) => p.infobase), culprits: named.map((p) => Number(p.culprit_connect_id)),
    refs: named.map((p) => p.ref_ts), times: named.map((p) => p.ts), regions: named.map((p) => p.requested_regions),
    connections: [...connections.values()], from: earliest(named.map((p) => p.ref_ts)), to: latest(named.map((p) => p.ts)),
  });
  const pairOf = new Map(named.map((p) => [idOf(p), p]));
  const withFacts = found.map((f) => ({ f, p: pairOf.get(f.id)! }));
  const tlocks = withFacts.length === 0 ? [] : await rowsOf<Pick<LookupRow, 'id' | 'culprit_tlocks'>>(client, TJ_TLOCKS_SQL, {
    ids: withFacts.map(({ f }) => f.id), infobases: withFacts.map(({ p }) => p.infobase), culprits: withFacts.map(({ p }) => Number(p.culprit_connect_id)),
    lowers: withFacts.map(({ f }) => f.lower_ts), refs: withFacts.map(({ p }) => p.ref_ts), regions: withFacts.map(({ p }) => p.requested_regions),
    connections: [...connections.values()], from: earliest(withFacts.map(({ f }) => f.lower_ts)), to: latest(withFacts.map(({ p }) => p.ref_ts)),
  });
  const tlocksOf = new Map(tlocks.map((t) => [t.id, t.culprit_tlocks]));
  const byId = new Map(found.map(({ lower_ts: _, ...f }) => [f.id, { ...f, culprit_tlocks: tlocksOf.get(f.id) ?? [] }]));
  return pairs.map((p) => ({ ...NOT_LOOKED_UP, ...byId.get(idOf(p)), ...p }));
}

export const TJ_EPISODES: EpisodeTable<TjLockEpisodeRow> = {
  table: 'tj_lock_episodes', timeColumn: 'ts', keySql: TJ_KEY_SQL,
  async resolve(client, keys, lo, hi, settle) {
    const rows = await stored<TjLockEpisodeRow>(client, 'tj_lock_episodes', 'ts', TJ_KEY_SQL, keys, lo, hi, ['file_offset', 'wait_us', 'version']);
    if (rows.length === 0) return [];
    const byKey = new Map<string, CulpritRow[]>();
    for (const r of await culpritRows(client, keys, lo, hi)) {
      const k = episodeKey(r);
      const list = byKey.get(k);
      if (list === undefined) byKey.set(k, [r]);
      else list.push(r);
    }
    return rows.map((s) => {
      const key = episodeKey(s);
      const { row, missing } = resolveTjEpisode(s, byKey.get(key) ?? [], settle(key));
      TjLockEpisodeRowSchema.parse(row);
      return { key, stored: s, next: row, missing, changed: row.version > s.version && !sameEpisode(row, s) };
    });
  },
};

const PG_KEY_SQL = "concat(file_key, '|', toString(file_offset))";
const SIDES_SQL = sqlOf('one-c-sides.sql');
const BLOCKED_SAMPLE_SQL = sqlOf('pg-blocked-sample.sql');

/** One episode's 1C sides to look up: its waiting backend, its first holder (0: none) and when the wait began. */
interface SidesProbe { id: string; waiter: number; holder: number; at: string }

/** The 1C sides of a batch's PostgreSQL episodes by id (one-c-sides.sql, one pass over tj_backend_events). */
async function oneCSides(client: ClickHouseClient, probes: SidesProbe[]): Promise<Map<string, SidesRow>> {
  if (probes.length === 0) return new Map();
  const rows = await rowsOf<SidesRow & { id: string }>(client, SIDES_SQL, {
    ids: probes.map((p) => p.id), waiters: probes.map((p) => p.waiter), holders: probes.map((p) => p.holder), ats: probes.map((p) => p.at),
  });
  return new Map(rows.map((r) => [r.id, r]));
}

export const PG_EPISODES: EpisodeTable<PgLockEpisodeRow> = {
  table: 'pg_lock_episodes', timeColumn: 'ts_end', keySql: PG_KEY_SQL,
  async resolve(client, keys, lo, hi, settle) {
    const rows = await stored<PgLockEpisodeRow>(client, 'pg_lock_episodes', 'ts_end', PG_KEY_SQL, keys, lo, hi, ['file_offset', 'version']);
    if (rows.length === 0) return [];
    const holderOf = (s: PgLockEpisodeRow): number => s.holder_pids[0] ?? 0;
    const sides = await oneCSides(client, rows.map((s) => ({ id: pgEpisodeKey(s), waiter: s.pid, holder: holderOf(s), at: s.ts_start })));
    return rows.map((s) => {
      const key = pgEpisodeKey(s);
      const found = sides.get(key);
      const { row, missing } = resolvePgEpisode(s, { ...NO_SIDES, ...found, first_holder: holderOf(s) }, settle(key));
      PgLockEpisodeRowSchema.parse(row);
      return { key, stored: s, next: row, missing, changed: row.version > s.version && !samePgEpisode(row, s) };
    });
  },
};

const BLOCKED_KEY_SQL = "concat(host, '|', server, '|', toString(pid), '|', toString(query_start))";

/** Batched by the blocked statement's start (a key column: every row of an episode has it). */
export const PG_BLOCKED: EpisodeTable<PgBlockedSidesRow> = {
  table: 'pg_blocked_sides', timeColumn: 'query_start', keySql: BLOCKED_KEY_SQL,
  async resolve(client, keys, lo, hi, settle) {
    const rows = await stored<PgBlockedSidesRow>(client, 'pg_blocked_sides', 'query_start', BLOCKED_KEY_SQL, keys, lo, hi, ['pid', 'holder_pid', 'version']);
    if (rows.length === 0) return [];
    const samples = await rowsOf<BlockedSample>(client, BLOCKED_SAMPLE_SQL, { lo, hi, ids: keys });
    const sides = await oneCSides(client, samples.map((x) => ({ id: blockedKey(x), waiter: x.pid, holder: x.holder_pid, at: x.at })));
    const byKey = new Map(samples.map((x) => [blockedKey(x), { ...NO_SIDES, ...sides.get(blockedKey(x)), ...x }]));
    return rows.map((s) => {
      const key = blockedKey(s);
      const { row, missing } = resolveBlocked(s, byKey.get(key), settle(key));
      PgBlockedSidesRowSchema.parse(row);
      return { key, stored: s, next: row, missing, changed: row.version > s.version && !sameBlocked(row, s) };
    });
  },
};

/**
 * Every table of rows decided at insert and completed by the resolver. Another such fact plugs in here: its table
 * (written pending by a materialized view), its EpisodeTable and a pure row step (docs/write-path.md §11).
 */
export const DECIDED_AT_INSERT: ReadonlyArray<EpisodeTable<{ version: number; status: string }>> = [
  TJ_EPISODES, PG_EPISODES, PG_BLOCKED,
] as unknown as ReadonlyArray<EpisodeTable<{ version: number; status: string }>>;
