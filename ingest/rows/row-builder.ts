// Meaning decided once, at the edge (docs/write-path.md): what every source family's records become, as rows of
// its tables encoded for the store. A source feeds its parser's records in as they come and takes the encoded rows
// at each segment's cut; a sink uses the same builders only for messages of agents older than row encoding.
import type { TableRows } from '../bus/bus.js';

export interface RowBuilder {
  /** Records in file order, as the family's parser emitted them. */
  add(records: readonly unknown[]): void;
  /** Whether records arrived since the last take by a way other than `add` (a parser that encodes its own rows). */
  pending?(): boolean;
  /** Records added since the last take and their rows per table (tables without rows left out). */
  take(): { records: number; tables: TableRows[] };
  /** The tables of a take whose segment was acknowledged: their buffers may be written again. */
  recycle?(tables: readonly TableRows[]): void;
}


/** The rows of a whole list of records at once: sources that cut no bytes of their own, and old agents' messages. */
export function buildRows(createRows: () => RowBuilder, records: readonly unknown[]): { records: number; tables: TableRows[] } {
  const builder = createRows();
  builder.add(records);
  return builder.take();
}
