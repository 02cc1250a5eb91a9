// Rows of one table gathered as RowBinary while records arrive, handed over as one TableRows at a segment's cut.
import type { TableRows } from '../bus/bus.js';
import type { TableLayout } from '../../schemas/columns.js';
import { RowBinaryWriter } from '../../schemas/row-binary.js';
import type { RowBuilder } from './row-builder.js';

export class TableWriter<L extends TableLayout> {
  readonly w: RowBinaryWriter;
  rows = 0;

  constructor(readonly layout: L, initialBytes = 64 * 1024) {
    this.w = new RowBinaryWriter(initialBytes);
  }

  write(row: Parameters<L['writeRow']>[1]): void {
    this.layout.writeRow(this.w, row);
    this.rows++;
  }

  /** Gives back the body of rows this writer took, once nothing reads it any more. */
  recycle(t: TableRows): void {
    if (t.layout === this.layout.id) this.w.recycle(t.body);
  }

  /** The rows written since the last take, or null when there were none. */
  take(): TableRows | null {
    if (this.rows === 0) return null;
    const out: TableRows = { table: this.layout.table, layout: this.layout.id, rows: this.rows, body: this.w.finish() };
    this.rows = 0;
    return out;
  }
}

/** The non-empty TableRows of a set of writers, in their order. */
export function takeAll(writers: ReadonlyArray<TableWriter<TableLayout>>): TableRows[] {
  const out: TableRows[] = [];
  for (const w of writers) {
    const t = w.take();
    if (t !== null) out.push(t);
  }
  return out;
}

/**
 * The row builder of a family whose every record becomes its rows at once (`write` fills `writers`); families that
 * need a whole segment's records first (atop's samples, an APDEX export) hold them to `take` instead.
 */
export function rowsAsRecordsCome<R>(writers: ReadonlyArray<TableWriter<TableLayout>>, write: (record: R) => void): RowBuilder {
  let records = 0;
  return {
    add(list) {
      for (const r of list as readonly R[]) write(r);
      records += list.length;
    },
    take() {
      const n = records;
      records = 0;
      return { records: n, tables: takeAll(writers) };
    },
    recycle(tables) {
      for (const t of tables) for (const w of writers) w.recycle(t);
    },
  };
}
