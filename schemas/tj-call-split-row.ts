// The `tj_call_splits` row: one per TJ server call (CALL), with where its wall time went, decided by the per-thread
// accountant as the events arrive (parsers/tj/calls/thread-accounts.ts, docs/tj-format.md §4.3) and written in the
// same segment as the CALL's tj_events row (queries/ddl/062_tj_call_splits.sql). schemas/ddl-agreement.test.ts holds
// this schema and the DDL in step; filling it is ingest/source/tj/call-split-rows.ts.
import type { z } from 'zod';
import { col, tableLayout } from './columns.js';

const lc = col.lowCardinality;
const us = col.safeUint64;

export const TJ_CALL_SPLITS = tableLayout('tj_call_splits', {
  /** The CALL's end and start (start = end − duration). */
  ts: col.dateTime64(6),
  ts_start: col.dateTime64(6),
  host: lc(),
  process: lc(),
  pid: col.uint32(),
  infobase: lc(),
  connect_id: col.uint64(),
  session_id: col.uint64(),
  os_thread: col.uint64(),
  user: lc(),
  /** The CALL's first context line: what `report why` groups by when no key-operation rule matches. */
  context_first: lc(),
  duration_us: us(),
  db_us: us(),
  lock_wait_us: us(),
  cpu_us: us(),
  thread_wait_us: us(),
  /** duration − the parts above, never negative (the parts are capped, §4.3). */
  other_us: us(),
  db_count: col.uint32(),
  lock_wait_count: col.uint32(),
  /** PostgreSQL backends of the call's DB events. */
  dbpids: col.array(col.uint32()),
  /** The call's statement shapes, most time first (at most STATEMENTS_KEPT; the rest summed under sql_hash 0). */
  sql_hashes: col.array(col.uint64()),
  sql_counts: col.array(col.uint32()),
  sql_us: col.array(us()),
  /** Why the split is not simply what the events give (ClosedSplit.flags): no_duration, clock_step, parts_exceed, no_cpu_time, partial. */
  flags: col.array(lc()),
  file_key: col.string(),
  file_offset: us(),
});

export const TjCallSplitRowSchema = TJ_CALL_SPLITS.schema;
export type TjCallSplitRow = z.infer<typeof TjCallSplitRowSchema>;
