// One PostgreSQL server log entry (stderr, csvlog or jsonlog), typed by what its message means (docs/pg-format.md §7).
import { z } from 'zod';
import { OriginSchema } from './origin.js';

export const PG_EVENT_KINDS = [
  'lock_wait', 'deadlock', 'lock_timeout', 'statement_timeout', 'duration', 'statement', 'auto_explain',
  'temp_file', 'checkpoint', 'autovacuum', 'autoanalyze', 'connection', 'error', 'fatal', 'panic',
  'server_crash', 'server_start', 'server_stop', 'other',
] as const;
export const PgEventKindSchema = z.enum(PG_EVENT_KINDS);
export type PgEventKind = z.infer<typeof PgEventKindSchema>;

export const PG_SEVERITIES = ['DEBUG', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'LOG', 'FATAL', 'PANIC'] as const;
export const PgSeveritySchema = z.enum(PG_SEVERITIES);
export type PgSeverity = z.infer<typeof PgSeveritySchema>;

/** What `process N … MODE on OBJ` says; OBJ is described by OIDs, not names (lmgr.c DescribeLockTag). */
export const PgLockSchema = z.strictObject({
  /** still_waiting / acquired / deadlock (`detected deadlock while waiting`) / avoided_deadlock / not_obtained (NOWAIT). */
  phase: z.enum(['still_waiting', 'acquired', 'deadlock', 'avoided_deadlock', 'failed', 'not_obtained']),
  pid: z.number().int().nullable(),
  /** Lock mode, e.g. `ShareLock`, `AccessExclusiveLock` (never translated). */
  mode: z.string().nullable(),
  object_kind: z.enum([
    'relation', 'extension', 'page', 'tuple', 'transaction', 'virtual_transaction', 'speculative_token', 'object',
    'advisory', 'user_lock', 'frozen_id', 'remote_transaction', 'unknown',
  ]),
  /** The object as printed, in English form where it was recognised (`tuple (0,1) of relation 16386 of database 16385`). */
  object: z.string(),
  relation_oid: z.number().int().nullable(),
  database_oid: z.number().int().nullable(),
  page: z.number().int().nullable(),
  tuple: z.tuple([z.number().int(), z.number().int()]).nullable(),
  transaction_id: z.number().int().nullable(),
  virtual_transaction: z.string().nullable(),
  /** Relation name from CONTEXT (`while updating tuple (0,1) in relation "accounts"`): the log prints OIDs elsewhere. */
  relation_name: z.string().nullable(),
  /** Advisory/user lock fields `[a,b,c,d]` as printed. */
  lock_keys: z.array(z.number().int()).nullable(),
  /** Milliseconds the process had waited when the line was written. */
  wait_ms: z.number().nullable(),
  holder_pids: z.array(z.number().int()),
  queue_pids: z.array(z.number().int()),
});
export type PgLock = z.infer<typeof PgLockSchema>;

export const PgDeadlockParticipantSchema = z.strictObject({
  pid: z.number().int(),
  mode: z.string().nullable(),
  object: z.string().nullable(),
  blocked_by: z.number().int().nullable(),
  statement: z.string().nullable(),
});
export type PgDeadlockParticipant = z.infer<typeof PgDeadlockParticipantSchema>;

export const PgCheckpointSchema = z.strictObject({
  phase: z.enum(['starting', 'complete', 'too_frequent']),
  /** `checkpoint starting:` flags as an open token list (`immediate`, `force`, `wait`, `wal`, `time`…). */
  flags: z.array(z.string()),
  /** Numbers of `checkpoint complete:` by name (`buffers`, `buffers_pct`, `wal_added`, `write_s`, `distance_kb`…). */
  figures: z.record(z.string(), z.number()),
});

export const PgVacuumSchema = z.strictObject({
  /** `db.schema.table` as printed. */
  table: z.string(),
  aggressive: z.boolean(),
  wraparound: z.boolean(),
  index_scans: z.number().int().nullable(),
  /** Body lines `key: value` (pages, tuples, buffer usage, system usage…): layout varies by version (§7.8). */
  properties: z.record(z.string(), z.string()),
});

export const PgConnectionSchema = z.strictObject({
  phase: z.enum(['received', 'authenticated', 'authorized', 'disconnection']),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  user: z.string().nullable(),
  database: z.string().nullable(),
  application: z.string().nullable(),
  session_ms: z.number().nullable(),
});

export const PgServerSchema = z.strictObject({
  /** crash = a child died by signal/exit code; others are lifecycle milestones (§7.10). */
  phase: z.enum(['crash', 'child_exit', 'crash_restart', 'starting', 'ready', 'shutdown_request', 'shutting_down', 'shut_down']),
  process: z.string().nullable(),
  child_pid: z.number().int().nullable(),
  signal: z.number().int().nullable(),
  exit_code: z.number().int().nullable(),
});

export const PgEventSchema = z.strictObject({
  /** Stable hash of (host, file_key, offset): replays give the same id. */
  event_id: z.string(),
  /** ISO-8601 UTC with milliseconds, e.g. `2026-11-30T14:09:45.948Z`; null when the line carried no time. */
  ts: z.string().nullable(),
  kind: PgEventKindSchema,
  /** English canonical severity (localized words are mapped); null for orphan lines. */
  severity: PgSeveritySchema.nullable(),
  sqlstate: z.string().nullable(),
  pid: z.number().int().nullable(),
  session_id: z.string().nullable(),
  /** `%l` (stderr, counts lines) or session_line_num / line_num (csv/json, counts entries). */
  line_num: z.number().int().nullable(),
  user: z.string().nullable(),
  database: z.string().nullable(),
  application: z.string().nullable(),
  /** Client host, `host(port)` / `host:port` as the format prints it, `[local]` for a unix socket. */
  client: z.string().nullable(),
  backend_type: z.string().nullable(),
  /** ps display / command tag (`%i`, csv command_tag, json ps). */
  command_tag: z.string().nullable(),
  vxid: z.string().nullable(),
  xid: z.number().int().nullable(),
  /** Signed 64-bit query id as a decimal string (`%Q`, query_id). */
  query_id: z.string().nullable(),
  leader_pid: z.number().int().nullable(),
  message: z.string(),
  detail: z.string().nullable(),
  hint: z.string().nullable(),
  context: z.string().nullable(),
  statement: z.string().nullable(),
  /** Internal query (`QUERY:` line, csv internal_query). */
  query: z.string().nullable(),
  location: z.string().nullable(),
  /** Lock wait line; also set on lock_timeout/deadlock entries for what CONTEXT names. */
  lock: PgLockSchema.nullable(),
  deadlock: z.array(PgDeadlockParticipantSchema).nullable(),
  duration_ms: z.number().nullable(),
  /** Protocol step of a duration/statement line: statement, parse, bind, execute, execute_fetch, fastpath. */
  statement_phase: z.enum(['statement', 'parse', 'bind', 'execute', 'execute_fetch', 'fastpath']).nullable(),
  /** Prepared statement name (`P_0`, `<unnamed>`), with `/portal` dropped. */
  prepared_name: z.string().nullable(),
  /** auto_explain plan text (after `plan:`). */
  plan: z.string().nullable(),
  temp_file_path: z.string().nullable(),
  temp_file_bytes: z.number().int().nullable(),
  checkpoint: PgCheckpointSchema.nullable(),
  vacuum: PgVacuumSchema.nullable(),
  connection: PgConnectionSchema.nullable(),
  server: PgServerSchema.nullable(),
  /** Catalog language the message was recognised in (`en`, `ru`, …); null when not recognised. */
  lang: z.string().nullable(),
  origin: OriginSchema,
});
export type PgEvent = z.infer<typeof PgEventSchema>;
