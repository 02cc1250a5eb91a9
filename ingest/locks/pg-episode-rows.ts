// A pg_lock_episodes row worked out (docs/tj-format.md §5.5): the wait as stored and its row of pg-episode-sides.sql
// → the row with the 1C sides of waiter and holder, its status and version. Pure, like tj-episode-rows.ts.
import type { EpisodeStatus } from '../../schemas/tj-lock-episode-row.js';
import type { PgLockEpisodeRow } from '../../schemas/pg-lock-episode-row.js';
import type { Missing } from './tj-episode-rows.js';

/** One row of pg-episode-sides.sql (64-bit integers as text). */
export interface SidesRow {
  file_key: string; file_offset: string | number; first_holder: number;
  waiter_found: number; waiter_infobase: string; waiter_user: string; waiter_connect_id: string | number; waiter_context: string;
  holder_found: number; holder_user: string; holder_connect_id: string | number; holder_context: string;
  n_facts: string | number | null;
}

export const pgEpisodeKey = (r: { file_key: string; file_offset: string | number }): string => `${r.file_key}|${r.file_offset}`;

/** The wait's next row; a side not found is empty. Missing: the waiter's event (written when its statement ends) or the holder's. */
export function resolvePgEpisode(base: PgLockEpisodeRow, s: SidesRow | undefined, settle: boolean): { row: PgLockEpisodeRow; missing: Missing } {
  const waiter = s !== undefined && s.waiter_found === 1;
  const holder = s !== undefined && s.holder_found === 1;
  const past = !waiter || (!holder && (s?.first_holder ?? 0) !== 0);
  const status: EpisodeStatus = !past ? 'complete' : settle ? 'settled' : 'partial';
  return {
    row: {
      ...base, status,
      waiter_found: waiter ? 1 : 0, waiter_infobase: waiter ? s.waiter_infobase : '', waiter_user: waiter ? s.waiter_user : '',
      waiter_connect_id: waiter ? String(s.waiter_connect_id) : '0', waiter_context: waiter ? s.waiter_context : '',
      holder_found: holder ? 1 : 0, holder_user: holder ? s.holder_user : '', holder_connect_id: holder ? String(s.holder_connect_id) : '0',
      holder_context: holder ? s.holder_context : '',
      version: 2 * (1 + Number(s?.n_facts ?? 0)) + (status === 'settled' ? 1 : 0),
    },
    missing: { past, txOpen: false },
  };
}

const SIDES = ['status', 'waiter_found', 'waiter_infobase', 'waiter_user', 'waiter_connect_id', 'waiter_context', 'holder_found', 'holder_user', 'holder_connect_id', 'holder_context'] as const;

/** Whether two rows name the same sides with the same status (versions aside). */
export function samePgEpisode(a: PgLockEpisodeRow, b: PgLockEpisodeRow): boolean {
  return SIDES.every((k) => String(a[k]) === String(b[k]));
}
