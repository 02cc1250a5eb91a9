// A `pg` segment's rows: every entry to pg_log, and every episode an entry closed to pg_lock_waits, so both inserts
// are a function of the segment alone and replay with the same dedup tokens (parsers/pg/episode-stream.ts).
import type { PgStreamEvent } from '../../schemas/pg-stream-event.js';
import { PG_LOCK_WAITS, PG_LOG, pgEpisodeToRow, pgEventToRow } from '../../schemas/pg-row.js';
import type { RowBuilder } from './row-builder.js';
import { TableWriter, takeAll } from './table-writer.js';

export function createPgRowBuilder(): RowBuilder {
  const log = new TableWriter(PG_LOG, 256 * 1024);
  const waits = new TableWriter(PG_LOCK_WAITS, 4096);
  let records = 0;
  return {
    add(list) {
      for (const e of list as readonly PgStreamEvent[]) {
        log.write(pgEventToRow(e));
        for (const ep of e.lock_episodes ?? []) waits.write(pgEpisodeToRow(ep, e));
      }
      records += list.length;
    },
    take() {
      const n = records;
      records = 0;
      return { records: n, tables: takeAll([log, waits]) };
    },
    recycle(tables) {
      for (const t of tables) { log.recycle(t); waits.recycle(t); }
    },
  };
}
