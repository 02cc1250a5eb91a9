// A `tj` segment's rows: one tj_events row per event (schemas/tj-row.ts decides the typed columns). A TJ source
// encodes them straight from the file's bytes (ingest/rows/tj-row-encoder.ts) into this builder's writer; events
// that arrive parsed (older agents' messages, tests) take the string path of tjEventToRow.
import type { TjEvent } from '../../../schemas/tj-event.js';
import { TJ_EVENTS } from '../../../schemas/tj-row.js';
import { processFromPath, tjEventToRow } from '../../rows/tj-event-to-row.js';
import type { RowBinaryWriter } from '../../../schemas/row-binary.js';
import type { RowBuilder } from '../../rows/row-builder.js';
import { TableWriter } from '../../rows/table-writer.js';
import type { TjRowTarget } from '../../rows/tj-row-encoder.js';

export interface TjRowBuilder extends RowBuilder, TjRowTarget {}

export function createTjRowBuilder(): TjRowBuilder {
  const events = new TableWriter(TJ_EVENTS, 1 << 20);
  let records = 0;
  // Every event of a file names the same process folder: split its path once per file, not per event.
  let file = '';
  let proc: ReturnType<typeof processFromPath> = null;
  return {
    get w(): RowBinaryWriter {
      return events.w;
    },
    wrote() {
      events.rows++;
      records++;
    },
    pending: () => records > 0,
    add(list) {
      for (const e of list as readonly TjEvent[]) {
        if (e.origin.file !== file) { file = e.origin.file; proc = processFromPath(file); }
        events.write(tjEventToRow(e, proc));
      }
      records += list.length;
    },
    take() {
      const n = records;
      records = 0;
      const t = events.take();
      return { records: n, tables: t === null ? [] : [t] };
    },
    recycle(tables) {
      for (const t of tables) events.recycle(t);
    },
  };
}
