// The `pg_log` and `pg_lock_waits` rows (queries/ddl/003_pg_log.sql, 004_pg_lock_waits.sql). schemas/ddl-agreement.test.ts
// holds these schemas and the DDL in step; filling them from PgEvent / PgLockEpisode is ingest/source/pg/pg-rows.ts.
import type { z } from 'zod';
import { col, tableLayout } from './columns.js';

const lc = col.lowCardinality;
const str = col.string;
const u32 = col.uint32;

export const PG_LOG = tableLayout('pg_log', {
  ts: col.dateTime64(3),
  kind: lc(),
  severity: lc(),
  sqlstate: lc(),
  pid: u32(),
  session_id: str(),
  line_num: col.safeUint64(),
  user: lc(),
  database: lc(),
  application: lc(),
  client: lc(),
  backend_type: lc(),
  command_tag: lc(),
  vxid: str(),
  xid: col.nullable(col.safeUint64()),
  query_id: str(),
  message: str(),
  detail: str(),
  hint: str(),
  context: str(),
  statement: str(),
  statement_phase: lc(),
  duration_ms: col.nullable(col.float64()),
  lock_phase: lc(),
  lock_mode: lc(),
  lock_object: str(),
  lock_object_kind: lc(),
  lock_relation_oid: col.nullable(u32()),
  lock_relation_name: lc(),
  lock_wait_ms: col.nullable(col.float64()),
  lock_holder_pids: col.array(u32()),
  lock_queue_pids: col.array(u32()),
  temp_file_path: str(),
  temp_file_bytes: col.nullable(col.safeUint64()),
  lang: lc(),
  props: col.map(lc(), str()),
  host: lc(),
  file: str(),
  file_key: str(),
  file_offset: col.safeUint64(),
});
export const PgLogRowSchema = PG_LOG.schema;
export type PgLogRow = z.infer<typeof PgLogRowSchema>;

export const PG_LOCK_WAITS = tableLayout('pg_lock_waits', {
  ts_start: col.dateTime64(3),
  ts_end: col.dateTime64(3),
  pid: u32(),
  mode: lc(),
  object: str(),
  object_kind: lc(),
  relation_oid: col.nullable(u32()),
  database_oid: col.nullable(u32()),
  outcome: lc(),
  wait_ms: col.nullable(col.float64()),
  holder_pids: col.array(u32()),
  queue_pids: col.array(u32()),
  statement: str(),
  holder_statements: col.map(str(), col.array(str())),
  user: lc(),
  database: lc(),
  application: lc(),
  session_id: str(),
  host: lc(),
  file: str(),
  file_key: str(),
  file_offset: col.safeUint64(),
  start_offset: col.safeUint64(),
});
export const PgLockWaitRowSchema = PG_LOCK_WAITS.schema;
export type PgLockWaitRow = z.infer<typeof PgLockWaitRowSchema>;
