// A `pg` segment's rows: every entry to pg_log, and every episode an entry closed to pg_lock_waits, so both inserts
// are a function of the segment alone and replay with the same dedup tokens (parsers/pg/episode-stream.ts).
import type { Segment } from '../bus/bus.js';
import type { PgStreamEvent } from '../../schemas/pg-stream-event.js';
import { pgEpisodeToRow, pgEventToRow } from '../../schemas/pg-row.js';

export function pgSegmentRows(segment: Segment, tables: Map<string, unknown[]>): void {
  const log: unknown[] = [];
  const waits: unknown[] = [];
  for (const e of segment.events as PgStreamEvent[]) {
    log.push(pgEventToRow(e));
    for (const ep of e.lock_episodes ?? []) waits.push(pgEpisodeToRow(ep, e));
  }
  tables.set('pg_log', log);
  tables.set('pg_lock_waits', waits);
}
