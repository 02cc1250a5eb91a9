// A tj_lock_episodes row worked out (docs/tj-format.md §5.5): the episode as stored, and the rows of
// tj-episode-culprits.sql for it (one per culprit connection, or per deadlock edge waiter and holder) → the row with
// its culprit entries, the conflicting lock of each (parsers/tj/locks/, §5.4 step 4), its status and its version.
// Pure: the same inputs give the same row, so every resolver that saw the same facts writes the same row.
import type { EpisodeStatus, LockCulpritEntry, TjLockEpisodeRow } from '../../schemas/tj-lock-episode-row.js';
import { conflictingLock } from '../../parsers/tj/locks/lock-culprits.js';
import { parseLockItem, parseLockItems, type LockItem } from '../../parsers/tj/locks/lock-items.js';
import { parseDeadlockEdges } from '../../parsers/tj/locks/deadlock-edges.js';

/** One row of tj-episode-culprits.sql, as JSONEachRow gives it (64-bit integers as text). */
export interface CulpritRow {
  kind: string; file_key: string; file_offset: string | number; paired: number | boolean;
  victim_connect_id: string | number; ref_ts: string; requested_regions: string[]; requested_locks: string;
  culprit_connect_id: string | number; culprit_user: string; culprit_context: string;
  tx_found: number | boolean; tx_start: string; tx_user: string; tx_context: string;
  tx_end_found: number | boolean; tx_end: string; tx_end_func: string;
  culprit_tlocks: unknown; n_facts: string | number | null;
}

/** What the episode still waits for: facts the log should bring (another file may be late), or a transaction's end. */
export interface Missing { past: boolean; txOpen: boolean }

export const EPOCH = '1970-01-01 00:00:00.000000';
const on = (v: unknown): boolean => v === true || v === 1 || v === '1';
/** ISO (`…T…Z`, as conflictingLock returns) → the DateTime64(6) text of the column. */
const chTime = (iso: string): string => iso.replace('T', ' ').replace(/Z$/, '');

export const episodeKey = (r: { kind: string; file_key: string; file_offset: string | number }): string => `${r.kind}|${r.file_key}|${r.file_offset}`;

function entry(waiter: string | number, holder: string | number, edge: { space: string; mode: string; item: string }, r: CulpritRow | undefined, requested: LockItem[]): LockCulpritEntry {
  const tx = r !== undefined && on(r.tx_found);
  const lock = r === undefined ? null : conflictingLock(r.culprit_tlocks, requested);
  return {
    waiter: String(waiter), holder: String(holder), ...edge, found: r === undefined ? 0 : 1,
    user: r?.culprit_user ?? '', context: r?.culprit_context ?? '',
    tx_found: tx ? 1 : 0, tx_start: tx ? r.tx_start : EPOCH, tx_user: tx ? r.tx_user : '', tx_context: tx ? r.tx_context : '',
    tx_end_found: tx && on(r.tx_end_found) ? 1 : 0, tx_end: tx && on(r.tx_end_found) ? r.tx_end : EPOCH,
    tx_end_func: tx && on(r.tx_end_found) ? r.tx_end_func : '',
    lock_found: lock === null ? 0 : 1, lock_ts: lock === null ? EPOCH : chTime(lock.ts), lock_region: lock?.region ?? '', lock_mode: lock?.mode ?? '',
    lock_text: lock?.lock ?? '', lock_context: lock?.context ?? '', lock_match: lock?.match ?? '',
  };
}

/** Missing past facts: the culprit's transaction, its context, or (when the victim's request is known) its lock. */
function missingOf(e: LockCulpritEntry, judged: boolean): Missing {
  if (e.found === 0 || Number(e.holder) === 0) return { past: false, txOpen: false };
  return { past: e.tx_found === 0 || e.context === '' || (judged && e.lock_found === 0), txOpen: e.tx_found === 1 && e.tx_end_found === 0 };
}

/**
 * The episode's next row. `rows` are this episode's rows of tj-episode-culprits.sql; `settle` marks an episode that
 * still misses something as no longer looked for. Version: 2 × (1 + facts counted + paired) (+1 settled), so that
 * more facts win and the same facts give the same version (docs/write-path.md §11).
 */
export function resolveTjEpisode(base: TjLockEpisodeRow, rows: CulpritRow[], settle: boolean): { row: TjLockEpisodeRow; missing: Missing } {
  const first = rows[0];
  const paired = first !== undefined && on(first.paired);
  const refTs = base.kind === 'timeout' && first !== undefined ? first.ref_ts : base.ref_ts;
  const requestedRegions = base.kind === 'timeout' && first !== undefined ? first.requested_regions : base.requested_regions;
  const requestedLocks = base.kind === 'timeout' && first !== undefined ? first.requested_locks : base.requested_locks;
  let culprits: LockCulpritEntry[];
  let judged: boolean[];
  if (base.kind === 'deadlock') {
    const byPair = new Map(rows.map((r) => [`${r.victim_connect_id}|${r.culprit_connect_id}`, r]));
    const edges = parseDeadlockEdges(base.deadlock_intersections);
    culprits = edges.map((e) => {
      const item = parseLockItem(`${e.space} ${e.mode} ${e.fields}`);
      return entry(e.waiter, e.holder, { space: e.space, mode: e.mode, item: e.fields }, byPair.get(`${e.waiter}|${e.holder}`), item === null ? [] : [item]);
    });
    judged = culprits.map(() => true);
  } else {
    const requested = parseLockItems(requestedLocks);
    // A timeout that names no culprit keeps one row with culprit 0 in the SQL: no entry.
    culprits = rows.filter((r) => Number(r.culprit_connect_id) !== 0)
      .map((r) => entry(base.victim_connect_id, r.culprit_connect_id, { space: '', mode: '', item: '' }, r, requested));
    judged = culprits.map(() => requested.length > 0);
  }
  const missing: Missing = { past: base.kind === 'timeout' && !paired && rows.length > 0 && culprits.length > 0, txOpen: false };
  for (const [i, e] of culprits.entries()) {
    const m = missingOf(e, judged[i] ?? false);
    missing.past ||= m.past;
    missing.txOpen ||= m.txOpen;
  }
  const incomplete = missing.past || missing.txOpen;
  const status: EpisodeStatus = !incomplete ? 'complete' : settle ? 'settled' : 'partial';
  const facts = rows.reduce((n, r) => n + Number(r.n_facts ?? 0), 0);
  const version = 2 * (1 + facts + (paired ? 1 : 0)) + (status === 'settled' ? 1 : 0);
  return {
    row: { ...base, ref_ts: refTs, requested_regions: requestedRegions, requested_locks: requestedLocks, status, culprits, version },
    missing,
  };
}

/** Whether two rows say the same (versions aside): a re-check that learnt nothing new writes nothing. */
export function sameEpisode(a: TjLockEpisodeRow, b: TjLockEpisodeRow): boolean {
  return a.status === b.status && a.ref_ts === b.ref_ts && a.requested_locks === b.requested_locks
    && JSON.stringify(a.culprits) === JSON.stringify(b.culprits) && JSON.stringify(a.requested_regions) === JSON.stringify(b.requested_regions);
}
