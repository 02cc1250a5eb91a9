// PostgreSQL episodes worked out (docs/tj-format.md §5.5): a lock wait (pg_lock_episodes) and a blocked backend as
// pg_activity sampled it (pg_blocked_sides), each with its row of one-c-sides.sql (and for a blocked backend its first
// sample, pg-blocked-sample.sql) → the row with the 1C sides of waiter and holder, its status and version. Pure, like
// tj-episode-rows.ts.
import type { EpisodeStatus } from '../../schemas/tj-lock-episode-row.js';
import type { PgLockEpisodeRow } from '../../schemas/pg-lock-episode-row.js';
import type { PgBlockedSidesRow } from '../../schemas/pg-blocked-sides-row.js';
import type { Missing } from './tj-episode-rows.js';

/** The 1C sides of one row of one-c-sides.sql (64-bit integers as text). */
export interface SidesRow {
  waiter_found: number; waiter_infobase: string; waiter_user: string; waiter_connect_id: string | number; waiter_context: string;
  holder_found: number; holder_user: string; holder_connect_id: string | number; holder_context: string;
  n_facts: string | number | null;
}
/** An episode none of whose sides is in the log (yet). */
export const NO_SIDES: SidesRow = {
  waiter_found: 0, waiter_infobase: '', waiter_user: '', waiter_connect_id: '0', waiter_context: '',
  holder_found: 0, holder_user: '', holder_connect_id: '0', holder_context: '', n_facts: 0,
};
export interface LockWaitSidesRow extends SidesRow { first_holder: number }
/** A row of pg-blocked-sample.sql. */
export interface BlockedSample {
  host: string; server: string; pid: number; query_start: string; first_seen: string; at: string;
  holder_pid: number; holder_sampled: number; holder_state: string; holder_query: string; holder_application: string;
}
export type BlockedSidesRow = SidesRow & BlockedSample;

type OneCSides = Pick<PgLockEpisodeRow, 'waiter_found' | 'waiter_infobase' | 'waiter_user' | 'waiter_connect_id' | 'waiter_context'
  | 'holder_found' | 'holder_user' | 'holder_connect_id' | 'holder_context'>;

/** The sides found (a side not found is empty), what is still missing, and the status and version they make. */
function sidesOf(s: SidesRow | undefined, holderPid: number, settle: boolean): { sides: OneCSides; missing: Missing; status: EpisodeStatus; version: number } {
  const waiter = s !== undefined && s.waiter_found === 1;
  const holder = s !== undefined && s.holder_found === 1;
  // The waiter's TJ event is written when its statement ends, after the wait: it may still come.
  const past = !waiter || (!holder && holderPid !== 0);
  const status: EpisodeStatus = !past ? 'complete' : settle ? 'settled' : 'partial';
  return {
    sides: {
      waiter_found: waiter ? 1 : 0, waiter_infobase: waiter ? s.waiter_infobase : '', waiter_user: waiter ? s.waiter_user : '',
      waiter_connect_id: waiter ? String(s.waiter_connect_id) : '0', waiter_context: waiter ? s.waiter_context : '',
      holder_found: holder ? 1 : 0, holder_user: holder ? s.holder_user : '', holder_connect_id: holder ? String(s.holder_connect_id) : '0',
      holder_context: holder ? s.holder_context : '',
    },
    missing: { past, txOpen: false },
    status,
    version: 2 * (1 + Number(s?.n_facts ?? 0)) + (status === 'settled' ? 1 : 0),
  };
}

export const pgEpisodeKey = (r: { file_key: string; file_offset: string | number }): string => `${r.file_key}|${r.file_offset}`;
export const blockedKey = (r: { host: string; server: string; pid: string | number; query_start: string }): string => `${r.host}|${r.server}|${r.pid}|${r.query_start}`;

export function resolvePgEpisode(base: PgLockEpisodeRow, s: LockWaitSidesRow | undefined, settle: boolean): { row: PgLockEpisodeRow; missing: Missing } {
  const { sides, missing, status, version } = sidesOf(s, s?.first_holder ?? 0, settle);
  return { row: { ...base, ...sides, status, version }, missing };
}

export function resolveBlocked(base: PgBlockedSidesRow, s: BlockedSidesRow | undefined, settle: boolean): { row: PgBlockedSidesRow; missing: Missing } {
  const { sides, missing, status, version } = sidesOf(s, s?.holder_pid ?? 0, settle);
  const sampled = s !== undefined && s.holder_sampled === 1;
  return {
    row: {
      ...base, ...sides, status, version, first_seen: s?.first_seen ?? base.first_seen, holder_pid: s?.holder_pid ?? 0,
      holder_state: sampled ? s.holder_state : '', holder_query: sampled ? s.holder_query : '', holder_application: sampled ? s.holder_application : '',
    },
    missing,
  };
}

const SIDES = ['status', 'waiter_found', 'waiter_infobase', 'waiter_user', 'waiter_connect_id', 'waiter_context', 'holder_found', 'holder_user', 'holder_connect_id', 'holder_context'] as const;
const SAMPLED = ['first_seen', 'holder_pid', 'holder_state', 'holder_query', 'holder_application'] as const;

/** Whether two rows name the same sides with the same status (versions aside). */
export function samePgEpisode(a: OneCSides & { status: string }, b: OneCSides & { status: string }): boolean {
  return SIDES.every((k) => String(a[k]) === String(b[k]));
}

export function sameBlocked(a: PgBlockedSidesRow, b: PgBlockedSidesRow): boolean {
  return samePgEpisode(a, b) && SAMPLED.every((k) => String(a[k]) === String(b[k]));
}
