// The 1C sides of a PostgreSQL lock wait as the lock resolver (ingest/locks/) decides them (docs/tj-format.md §5.5):
// the waiter's infobase, user, connection and context, and the holder's. Two tables carry them in the same columns
// and order, pg_lock_episodes and pg_blocked_sides, so their row schemas spread this one shape.
import { z } from 'zod';
import { u64 } from './tj-lock-episode-row.js';

/** ClickHouse DateTime64(3) text `YYYY-MM-DD hh:mm:ss.mmm` (UTC). */
export const dt64ms = z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
const flag = z.number().int().min(0).max(1);

/** The columns, in the DDL's order; `*_found` is 0 while that side is not in the journal (yet), its fields empty. */
export const PG_ONE_C_SIDES = {
  waiter_found: flag,
  waiter_infobase: z.string(),
  waiter_user: z.string(),
  waiter_connect_id: u64,
  waiter_context: z.string(),
  holder_found: flag,
  holder_user: z.string(),
  holder_connect_id: u64,
  holder_context: z.string(),
};
