// Every table perfpipe inserts into, by name and by layout id: what a sink knows how to check and store.
import type { TableLayout } from './columns.js';
import { TJ_EVENTS } from './tj-row.js';
import { INGEST_ERRORS } from './ingest-error.js';
import { PG_LOCK_WAITS, PG_LOG } from './pg-row.js';
import { APDEX_MEASUREMENTS, KEY_OPERATIONS } from './apdex-row.js';
import { PG_ACTIVITY, PG_WAIT_SAMPLES } from './pg-activity-row.js';
import { ATOP_CPU, ATOP_DISKS, ATOP_INTERFACES, ATOP_SYSTEM, ATOP_TOP_PROCESSES } from './atop-row.js';

export const INSERT_LAYOUTS: readonly TableLayout[] = [
  TJ_EVENTS, INGEST_ERRORS, PG_LOG, PG_LOCK_WAITS, APDEX_MEASUREMENTS, KEY_OPERATIONS,
  ATOP_SYSTEM, ATOP_CPU, ATOP_DISKS, ATOP_INTERFACES, ATOP_TOP_PROCESSES, PG_ACTIVITY, PG_WAIT_SAMPLES,
] as readonly TableLayout[];

const byId = new Map(INSERT_LAYOUTS.map((l) => [l.id, l]));

/** The layout rows were written in, or undefined for one this version does not know (a newer agent's). */
export function layoutById(id: string): TableLayout | undefined {
  return byId.get(id);
}
