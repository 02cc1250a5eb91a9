// A `tj` segment's rows: one tj_events row per event (schemas/tj-row.ts decides the typed columns), and one
// tj_call_splits row per server call, closed by its folder's accountant as the CALL line is read (call-split-rows.ts).
// A TJ source encodes events straight from the file's bytes (tj-row-encoder.ts) into this builder's
// writer and hands it each event's call facts; events that arrive parsed (older agents' messages, tests) take the
// string path of tjEventToRow and callFactOfRow.
import type { TjEvent } from '../../../schemas/tj-event.js';
import { TJ_EVENTS } from '../../../schemas/tj-row.js';
import { TJ_CALL_SPLITS } from '../../../schemas/tj-call-split-row.js';
import { callFactOfRow } from '../../../parsers/tj/calls/call-facts.js';
import { processFromPath, tjEventToRow } from './tj-event-to-row.js';
import type { RowBinaryWriter } from '../../../schemas/row-binary.js';
import type { RowBuilder } from '../../rows/row-builder.js';
import { TableWriter, takeAll } from '../../rows/table-writer.js';
import type { TjRowTarget } from './tj-row-encoder.js';
import { createCallAccountBook, createCallSplitSink, type CallAccountBook } from './call-split-rows.js';

export interface TjRowBuilder extends RowBuilder, TjRowTarget {}

/** `book`: the source's accountants (one per process folder, kept across its files); default one of this builder's own. */
export function createTjRowBuilder(book: CallAccountBook = createCallAccountBook()): TjRowBuilder {
  const events = new TableWriter(TJ_EVENTS, 1 << 20);
  const splits = new TableWriter(TJ_CALL_SPLITS, 64 * 1024);
  const calls = createCallSplitSink(book, splits);
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
    calls,
    pending: () => records > 0,
    add(list) {
      for (const e of list as readonly TjEvent[]) {
        if (e.origin.file !== file) { file = e.origin.file; proc = processFromPath(file); }
        const row = tjEventToRow(e, proc);
        events.write(row);
        const fact = callFactOfRow(row);
        if (fact.kind !== 'other') calls.fact(e.origin.file, e.origin.file_key, 0, fact, fact.kind === 'call' ? row : null);
      }
      records += list.length;
    },
    take() {
      const n = records;
      records = 0;
      return { records: n, tables: takeAll([events, splits]) };
    },
    recycle(tables) {
      for (const t of tables) { events.recycle(t); splits.recycle(t); }
    },
  };
}
