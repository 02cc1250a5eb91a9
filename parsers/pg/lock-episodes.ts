// Builds lock-wait episodes from PgEvents in stream order: one per wait, from a backend's first `still waiting`
// until `acquired`, its deadlock error, lock_timeout, statement_timeout, or any other entry of that backend.
//
// A waiting backend is blocked: the next entry it writes tells how the wait ended (docs/pg-format.md §7, lock waits). `acquired` is
// logged only after a logged wait; a waiter killed by a timeout or a cancel never logs it, so its ERROR/FATAL (or
// disconnection, or any unrelated entry) closes the episode. `still waiting` may repeat for one wait (≤PG17, SIGHUP):
// same pid and object continue the episode. To "name the holder", each pid's last statements are kept in a small
// ring (from duration/statement lines and STATEMENT fields, and for autovacuum workers the table they work on), and
// an episode closes with the holders' rings.
import type { PgEvent } from '../../schemas/pg-event.js';
import type { PgLockEpisode } from '../../schemas/pg-lock-episode.js';

/** Statements remembered per pid, and pids remembered at all (oldest forgotten first). */
const RING_SIZE = 5;
const MAX_PIDS = 10_000;
const MAX_STATEMENT = 4096;

type Outcome = PgLockEpisode['outcome'];

export interface LockEpisodeBuilder {
  /** Feeds events in stream order; returns the episodes they closed. */
  push(events: readonly PgEvent[]): PgLockEpisode[];
  /**
   * Feeds an event that is not a lock wait (kind `lock_wait` with a lock goes to `push`) by the only fields the
   * builder reads of it: its pid, kind, time and `activityOf` it. The same as `push([event])`, without the event kept.
   */
  pushActivity(pid: number, kind: PgEvent['kind'], ts: string | null, activity: string | null): PgLockEpisode[];
  /** End of stream: waits still open are returned with outcome `other` and no end time. */
  finish(): PgLockEpisode[];
  /** File offset of the first wait line of the oldest wait still open; null when none is open. */
  readonly openSince: number | null;
  /**
   * What the builder carries from one event to the next (waits open, each pid's last statements, in their order), for
   * a builder that goes on from here in another thread (`parse pg` over pieces of a file). The maps are live: copy
   * them (structured clone does) before feeding more events.
   */
  state(): LockEpisodeState;
}

export interface LockEpisodeState {
  open: Map<number, PgLockEpisode>;
  rings: Map<number, string[]>;
}

function shiftIso(ts: string | null, ms: number | null): string | null {
  if (ts === null || ms === null) return ts;
  const t = Date.parse(ts);
  return Number.isNaN(t) ? ts : new Date(t - Math.round(ms)).toISOString();
}

/**
 * What a process was doing, for the ring: its SQL, or for an autovacuum worker (holders have no SQL) the
 * `automatic vacuum of table "db.s.t"` line of its report or of its CONTEXT when it is cancelled (English only).
 */
export function activityOf(ev: PgEvent): string | null {
  if (ev.statement !== null) return ev.kind === 'auto_explain' ? null : ev.statement;
  if (ev.kind === 'autovacuum' || ev.kind === 'autoanalyze') {
    const nl = ev.message.indexOf('\n');
    return nl < 0 ? ev.message : ev.message.slice(0, nl);
  }
  const at = ev.context?.indexOf('automatic ') ?? -1;
  if (ev.context && at >= 0) return ev.context.slice(at).split('\n')[0] ?? null;
  return null;
}

/** A builder; `from` goes on from another builder's `state()`. */
export function createLockEpisodeBuilder(from?: LockEpisodeState): LockEpisodeBuilder {
  const open = from?.open ?? new Map<number, PgLockEpisode>();
  const rings = from?.rings ?? new Map<number, string[]>();

  const remember = (pid: number, statement: string): void => {
    const s = statement.length > MAX_STATEMENT ? statement.slice(0, MAX_STATEMENT) : statement;
    let ring = rings.get(pid);
    if (ring === undefined) {
      if (rings.size >= MAX_PIDS) rings.delete(rings.keys().next().value as number);
      ring = [];
    } else {
      rings.delete(pid); // re-insert: Map order is our recency order
    }
    if (ring[ring.length - 1] !== s) ring.push(s);
    if (ring.length > RING_SIZE) ring.shift();
    rings.set(pid, ring);
  };

  const close = (ep: PgLockEpisode, outcome: Outcome, ts: string | null, out: PgLockEpisode[]): void => {
    open.delete(ep.pid);
    ep.outcome = outcome;
    ep.ts_end = ts;
    for (const h of ep.holder_pids) ep.holder_statements[String(h)] = [...(rings.get(h) ?? [])];
    out.push(ep);
  };

  const start = (ev: PgEvent, pid: number): PgLockEpisode => {
    const l = ev.lock;
    const ep: PgLockEpisode = {
      ts_start: shiftIso(ev.ts, l?.wait_ms ?? null), ts_end: null, pid, mode: l?.mode ?? null, object: l?.object ?? '',
      object_kind: l?.object_kind ?? 'unknown', relation_oid: l?.relation_oid ?? null, database_oid: l?.database_oid ?? null,
      outcome: 'other', wait_ms: null, holder_pids: l?.holder_pids ?? [], queue_pids: l?.queue_pids ?? [],
      holder_statements: {}, statement: ev.statement, user: ev.user, database: ev.database, application: ev.application,
      session_id: ev.session_id, origin: ev.origin,
    };
    open.set(pid, ep);
    return ep;
  };

  const one = (ev: PgEvent, out: PgLockEpisode[]): void => {
    const pid = ev.lock?.pid ?? ev.pid;
    if (pid === null) return;
    const ep = open.get(pid);
    if (ev.kind === 'lock_wait' && ev.lock !== null) {
      const l = ev.lock;
      if (l.phase === 'not_obtained') return; // NOWAIT: no wait happened
      let cur = ep;
      if (cur !== undefined && cur.object !== l.object) {
        close(cur, 'other', ev.ts, out); // a new wait means the old one ended unseen
        cur = undefined;
      }
      cur ??= start(ev, pid);
      if (cur.holder_pids.length === 0 && l.holder_pids.length > 0) {
        cur.holder_pids = l.holder_pids;
        cur.queue_pids = l.queue_pids;
      }
      cur.statement ??= ev.statement;
      if (l.phase === 'acquired') {
        cur.wait_ms = l.wait_ms;
        close(cur, 'acquired', ev.ts, out);
      } else if (l.phase === 'failed') {
        close(cur, 'other', ev.ts, out);
      }
      if (ev.statement !== null) remember(pid, ev.statement);
      return;
    }
    other(pid, ev.kind, ev.ts, activityOf(ev), out);
  };

  const other = (pid: number, kind: PgEvent['kind'], ts: string | null, activity: string | null, out: PgLockEpisode[]): void => {
    if (activity !== null) remember(pid, activity);
    const ep = open.get(pid);
    if (ep === undefined) return;
    const outcome: Outcome = kind === 'deadlock' ? 'deadlock' : kind === 'lock_timeout' ? 'lock_timeout'
      : kind === 'statement_timeout' ? 'statement_timeout' : 'other';
    close(ep, outcome, ts, out);
  };

  return {
    push(events) {
      const out: PgLockEpisode[] = [];
      for (const ev of events) one(ev, out);
      return out;
    },
    pushActivity(pid, kind, ts, activity) {
      const out: PgLockEpisode[] = [];
      other(pid, kind, ts, activity, out);
      return out;
    },
    finish() {
      const out: PgLockEpisode[] = [];
      for (const ep of [...open.values()]) close(ep, 'other', null, out);
      return out;
    },
    state: () => ({ open, rings }),
    get openSince() {
      let min: number | null = null;
      for (const ep of open.values()) if (min === null || ep.origin.offset < min) min = ep.origin.offset;
      return min;
    },
  };
}
