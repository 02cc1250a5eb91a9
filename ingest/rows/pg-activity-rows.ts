// A `pg_activity` segment's rows: one sample (ingest/source/pg-activity/) becomes its backends' pg_activity rows and
// its pg_wait_sampling history rows, a function of the sample alone, so a redelivered sample carries the same rows.
import type { PgActivitySample } from '../../schemas/pg-activity-sample.js';
import { PG_ACTIVITY, PG_WAIT_SAMPLES, pgActivityRows, pgWaitSampleRows } from '../../schemas/pg-activity-row.js';
import type { RowBuilder } from './row-builder.js';
import { TableWriter, takeAll } from './table-writer.js';

export function createPgActivityRowBuilder(): RowBuilder {
  const activity = new TableWriter(PG_ACTIVITY, 16 * 1024);
  const waits = new TableWriter(PG_WAIT_SAMPLES, 4096);
  let records = 0;
  return {
    add(list) {
      for (const s of list as readonly PgActivitySample[]) {
        for (const row of pgActivityRows(s)) activity.write(row);
        for (const row of pgWaitSampleRows(s)) waits.write(row);
      }
      records += list.length;
    },
    take() {
      const n = records;
      records = 0;
      return { records: n, tables: takeAll([activity, waits]) };
    },
  };
}
