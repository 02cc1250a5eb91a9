// Rows of the lock resolver's fact tables (queries/ddl/050_lock_facts.sql), written by materialized views of
// tj_events and read by the resolver's lookups (docs/write-path.md §11). schemas/ddl-agreement.test.ts holds these
// schemas and the DDL in step.
import { z } from 'zod';
import { dt64us, u64 } from './tj-lock-episode-row.js';

/** One TJ event of a connection: `(infobase, connect_id, ts)` is the order the lookups read. */
export const TjConnectionEventRowSchema = z.strictObject({
  infobase: z.string(),
  connect_id: u64,
  ts: dt64us,
  event: z.string(),
  /** BeginTransaction, CommitTransaction or RollbackTransaction of an SDBL event, else ''. */
  func: z.string(),
  user: z.string(),
  context_first: z.string(),
  regions: z.array(z.string()),
  locks: z.string(),
  escalating: z.number().int().min(0).max(1),
});
export type TjConnectionEventRow = z.infer<typeof TjConnectionEventRowSchema>;

/** One TJ event that names a PostgreSQL backend (`dbpid`). */
export const TjBackendEventRowSchema = z.strictObject({
  dbpid: z.number().int().nonnegative(),
  ts: dt64us,
  infobase: z.string(),
  user: z.string(),
  connect_id: u64,
  context_first: z.string(),
});
export type TjBackendEventRow = z.infer<typeof TjBackendEventRowSchema>;
