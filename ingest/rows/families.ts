// Which rows each event family's records become: one builder per family, in one list.
import type { Family, TableRows } from '../bus/bus.js';
import type { RowBuilder } from './row-builder.js';
import { createTjRowBuilder } from './tj-rows.js';
import { createPgRowBuilder } from './pg-rows.js';
import { createAtopRowBuilder } from './atop-rows.js';
import { createApdexRowBuilder } from './apdex-rows.js';
import { createPgActivityRowBuilder } from './pg-activity-rows.js';

export const ROW_BUILDERS: Record<Family, () => RowBuilder> = {
  tj: createTjRowBuilder,
  pg: createPgRowBuilder,
  atop: createAtopRowBuilder,
  apdex: createApdexRowBuilder,
  pg_activity: createPgActivityRowBuilder,
};

/** The rows of a whole list of records at once (sources that cut no bytes of their own, and old messages). */
export function rowsOfRecords(family: Family, records: readonly unknown[]): { records: number; tables: TableRows[] } {
  const builder = ROW_BUILDERS[family]();
  builder.add(records);
  return builder.take();
}
