// A victim's culprit as `report locks` shows it (docs/tj-format.md §5.4 steps 3–5), and the step that picks, among the
// culprit's TLOCKs on the victim's lock spaces (found by ingest/locks/tj-episode-culprits.sql), the first that
// conflicts with what the victim asked for.
import { lockConflict, type LockConflict } from './lock-conflict.js';
import { parseLockItems, type LockItem } from './lock-items.js';

/** The culprit's lock that blocked the victim: the TLOCK that took it and the conflicting item. */
export interface ConflictingLock {
  /** When the culprit's TLOCK was granted (ISO, UTC). */
  ts: string;
  region: string;
  mode: string;
  /** The item's fields as written (`ID=10:95aa`); empty = the whole space. */
  lock: string;
  /** First line of the culprit TLOCK's context. */
  context: string;
  match: LockConflict;
}

export interface LockCulprit {
  connect_id: number;
  /** User and context of the culprit connection's last event before the victim's. */
  user: string | null;
  context: string | null;
  /** The culprit's transaction holding the lock: start and end (SDBL), outcome, its user and context; null = not in the log. */
  tx_start: string | null;
  tx_end: string | null;
  tx_outcome: 'commit' | 'rollback' | null;
  tx_user: string | null;
  tx_context: string | null;
  lock: ConflictingLock | null;
}

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
/** ClickHouse DateTime64(6, 'UTC') text `YYYY-MM-DD hh:mm:ss.ffffff` → ISO with Z, so scripts need no zone rule. */
export const isoTime = (v: unknown): string => (str(v) === '' ? '' : `${str(v).replace(' ', 'T')}Z`);

/**
 * Candidates come oldest first, so the lock reported is the one the culprit took first: the one that has been held
 * longest. Without the victim's requested items (a TTIMEOUT whose TLOCK is not in the log) nothing can be judged.
 */
export function conflictingLock(tlocks: unknown, requested: LockItem[]): ConflictingLock | null {
  if (!Array.isArray(tlocks)) return null;
  for (const candidate of tlocks as unknown[]) {
    // (ts, regions, locks, context, escalating); a server that names tuple elements writes an object instead.
    const [ts, , locks, context, escalating] = Array.isArray(candidate) ? candidate : Object.values(candidate as object);
    for (const held of parseLockItems(str(locks))) {
      for (const want of requested) {
        const match = lockConflict(held, want, str(escalating) === 'true');
        if (match !== null) return { ts: isoTime(ts), region: held.space, mode: held.mode, lock: held.text, context: str(context), match };
      }
    }
  }
  return null;
}
