// A `pg` segment's rows: every entry to pg_log, and every episode an entry closed to pg_lock_waits, so both inserts
// are a function of the segment alone and replay with the same dedup tokens (parsers/pg/episode-stream.ts).
import type { PgEvent } from '../../../schemas/pg-event.js';
import type { PgLockEpisode } from '../../../schemas/pg-lock-episode.js';
import type { PgStreamEvent } from '../../../schemas/pg-stream-event.js';
import { PG_LOCK_WAITS, PG_LOG, type PgLockWaitRow, type PgLogRow } from '../../../schemas/pg-row.js';
import { clickhouseTime } from '../../../schemas/clickhouse-time.js';
import type { RowBuilder } from '../../rows/row-builder.js';
import { rowsAsRecordsCome, TableWriter } from '../../rows/table-writer.js';

export function createPgRowBuilder(): RowBuilder {
  const log = new TableWriter(PG_LOG, 256 * 1024);
  const waits = new TableWriter(PG_LOCK_WAITS, 4096);
  return rowsAsRecordsCome([log, waits], (e: PgStreamEvent) => {
    log.write(pgEventToRow(e));
    for (const ep of e.lock_episodes ?? []) waits.write(pgEpisodeToRow(ep, e));
  });
}

/** Entries without a time (orphan lines of pg_ctl, archive_command) are stored at the epoch rather than dropped. */
const EPOCH = '1970-01-01 00:00:00.000';
const chTime = (iso: string | null): string => (iso === null ? EPOCH : clickhouseTime(iso));

/** Nested figures (checkpoint, vacuum, connection, server, lock extras) flattened into `props` as `group.key`. */
function flatten(props: Record<string, string>, group: string, value: Record<string, unknown> | null): void {
  if (value === null) return;
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    if (typeof v === 'object' && !Array.isArray(v)) flatten(props, `${group}.${k}`, v as Record<string, unknown>);
    else props[`${group}.${k}`] = Array.isArray(v) ? v.join(',') : String(v);
  }
}

export function pgEventToRow(e: PgEvent): PgLogRow {
  const props: Record<string, string> = Object.create(null) as Record<string, string>;
  if (e.leader_pid !== null) props.leader_pid = String(e.leader_pid);
  if (e.query !== null) props.query = e.query;
  if (e.location !== null) props.location = e.location;
  if (e.prepared_name !== null) props.prepared_name = e.prepared_name;
  if (e.plan !== null) props.plan = e.plan;
  if (e.deadlock !== null) props.deadlock = JSON.stringify(e.deadlock);
  const l = e.lock;
  if (l !== null) {
    flatten(props, 'lock', {
      database_oid: l.database_oid, page: l.page, tuple: l.tuple, transaction_id: l.transaction_id,
      virtual_transaction: l.virtual_transaction, lock_keys: l.lock_keys,
    });
  }
  flatten(props, 'checkpoint', e.checkpoint);
  flatten(props, 'vacuum', e.vacuum);
  flatten(props, 'connection', e.connection);
  flatten(props, 'server', e.server);
  return {
    ts: chTime(e.ts), kind: e.kind, severity: e.severity ?? '', sqlstate: e.sqlstate ?? '', pid: e.pid ?? 0,
    session_id: e.session_id ?? '', line_num: e.line_num ?? 0, user: e.user ?? '', database: e.database ?? '',
    application: e.application ?? '', client: e.client ?? '', backend_type: e.backend_type ?? '',
    command_tag: e.command_tag ?? '', vxid: e.vxid ?? '', xid: e.xid, query_id: e.query_id ?? '', message: e.message,
    detail: e.detail ?? '', hint: e.hint ?? '', context: e.context ?? '', statement: e.statement ?? '',
    statement_phase: e.statement_phase ?? '', duration_ms: e.duration_ms,
    lock_phase: l?.phase ?? '', lock_mode: l?.mode ?? '', lock_object: l?.object ?? '', lock_object_kind: l?.object_kind ?? '',
    lock_relation_oid: l?.relation_oid ?? null, lock_relation_name: l?.relation_name ?? '', lock_wait_ms: l?.wait_ms ?? null,
    lock_holder_pids: l?.holder_pids ?? [], lock_queue_pids: l?.queue_pids ?? [],
    temp_file_path: e.temp_file_path ?? '', temp_file_bytes: e.temp_file_bytes, lang: e.lang ?? '', props,
    host: e.origin.host, file: e.origin.file, file_key: e.origin.file_key, file_offset: e.origin.offset,
  };
}

/** `closing` is the entry that ended the wait: its place in the file is the row's identity. */
export function pgEpisodeToRow(ep: PgLockEpisode, closing: PgEvent): PgLockWaitRow {
  const end = ep.ts_end ?? closing.ts ?? ep.ts_start;
  return {
    ts_start: chTime(ep.ts_start ?? end), ts_end: chTime(end), pid: ep.pid, mode: ep.mode ?? '', object: ep.object,
    object_kind: ep.object_kind, relation_oid: ep.relation_oid, database_oid: ep.database_oid, outcome: ep.outcome,
    wait_ms: ep.outcome === 'acquired' ? ep.wait_ms : null, holder_pids: ep.holder_pids, queue_pids: ep.queue_pids,
    statement: ep.statement ?? '', holder_statements: ep.holder_statements, user: ep.user ?? '',
    database: ep.database ?? '', application: ep.application ?? '', session_id: ep.session_id ?? '',
    host: closing.origin.host, file: closing.origin.file, file_key: closing.origin.file_key,
    file_offset: closing.origin.offset, start_offset: ep.origin.offset,
  };
}
