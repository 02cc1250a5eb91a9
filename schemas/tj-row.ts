// The `tj_events` row: typed columns for what analysts query (queries/ddl/001_tj_events.sql), every
// other property in `props`. schemas/ddl-agreement.test.ts holds this schema and the DDL in step. Filling a row from a
// parsed event is the row mapping's job (ingest/source/tj/tj-event-to-row.ts): schemas/ stays below the parsers.
import type { z } from 'zod';
import { col, tableLayout } from './columns.js';

const lc = col.lowCardinality;
const str = col.string;
const i64n = () => col.nullable(col.int64());

export const TJ_EVENTS = tableLayout('tj_events', {
  ts: col.dateTime64(6),
  ts_start: col.dateTime64(6),
  duration_us: col.safeUint64(),
  event: lc(),
  depth: col.uint16(),
  host: lc(),
  process: lc(),
  pid: col.uint32(),
  infobase: lc(),
  connect_id: col.uint64(),
  session_id: col.uint64(),
  client_id: col.uint64(),
  os_thread: col.uint64(),
  user: lc(),
  app: lc(),
  computer: lc(),
  context: str(),
  context_first: lc(),
  context_last: lc(),
  dbms: lc(),
  database: lc(),
  dbpid: col.uint32(),
  trans: col.nullable(col.uint32()),
  func: lc(),
  sql: str(),
  sql_hash: col.uint64(),
  prm: str(),
  rows: i64n(),
  rows_affected: i64n(),
  memory: i64n(),
  memory_peak: i64n(),
  cpu_time: i64n(),
  in_bytes: i64n(),
  out_bytes: i64n(),
  call_wait: i64n(),
  regions: col.array(lc()),
  locks: str(),
  wait_connections: col.array(col.uint64()),
  deadlock_intersections: str(),
  exception: lc(),
  descr: str(),
  props: col.map(lc(), str()),
  file: str(),
  file_key: str(),
  file_offset: col.safeUint64(),
});

export const TjRowSchema = TJ_EVENTS.schema;
export type TjRow = z.infer<typeof TjRowSchema>;

/** Property name → typed column, for the properties that have one. Others go to `props`. */
export const STRING_COLUMNS = {
  'p:processName': 'infobase', Usr: 'user', 't:applicationName': 'app', AppID: 'app',
  't:computerName': 'computer', Context: 'context', DBMS: 'dbms', DataBase: 'database', Func: 'func',
  Sql: 'sql', Prm: 'prm', Locks: 'locks', DeadlockConnectionIntersections: 'deadlock_intersections',
  Exception: 'exception', Descr: 'descr',
} as const satisfies Record<string, keyof TjRow>;

export const ID_COLUMNS = {
  't:connectID': 'connect_id', SessionID: 'session_id', 't:clientID': 'client_id', OSThread: 'os_thread',
} as const satisfies Record<string, keyof TjRow>;

export const NULLABLE_INT_COLUMNS = {
  Rows: 'rows', RowsAffected: 'rows_affected', Memory: 'memory', MemoryPeak: 'memory_peak',
  CpuTime: 'cpu_time', InBytes: 'in_bytes', OutBytes: 'out_bytes', callWait: 'call_wait',
} as const satisfies Record<string, keyof TjRow>;
