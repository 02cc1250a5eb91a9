// What the per-thread accountant (thread-accounts.ts) reads of a parsed TJ event: which part of a call it is, its
// end and duration, its thread and connection, and a CALL's CpuTime and callWait (docs/tj-format.md §4.2–§4.3).
// The meaning of the properties is decided here, in parsers/tj/, once.
import type { TjEvent } from '../../../schemas/tj-event.js';
import type { TjRow } from '../../../schemas/tj-row.js';
import { firstValue } from '../properties.js';
import { sqlHash } from '../sql-shape.js';
import type { CallFact } from './thread-accounts.js';

/** The DBMS events 1C writes, one per database platform (docs/tj-format.md §4). */
export const DB_EVENTS: ReadonlySet<string> = new Set(['DBPOSTGRS', 'DBMSSQL', 'DBORACLE', 'DB2', 'DBV8DBEng']);

const INTEGER = /^-?\d+$/;

/** `2026-11-30T09:00:01.123456Z` → epoch µs (exact: the fraction is read as digits, not as a float). */
export function isoToMicros(iso: string): number {
  const dot = iso.indexOf('.');
  const whole = Date.parse(`${dot < 0 ? iso.replace(/Z$/, '') : iso.slice(0, dot)}Z`);
  const frac = dot < 0 ? '' : iso.slice(dot + 1).replace(/Z$/, '');
  return whole * 1000 + Number(frac.padEnd(6, '0').slice(0, 6) || '0');
}

const number = (v: string | undefined): number | null => (v !== undefined && INTEGER.test(v) ? Number(v) : null);
const key = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);

/** `position` defaults to the byte offset in the file; a caller reading several files of one process passes its own order. */
export function callFact(e: TjEvent, position = e.origin.offset): CallFact {
  const p = e.properties;
  const kind: CallFact['kind'] = e.event === 'CALL' ? 'call'
    : DB_EVENTS.has(e.event) ? 'db'
      // A TLOCK that waited names the connections it waited for (§5.1); a granted one leaves WaitConnections empty.
      : e.event === 'TLOCK' && (firstValue(p, 'WaitConnections') ?? '') !== '' ? 'lock_wait' : 'other';
  const sql = kind === 'db' ? firstValue(p, 'Sql') : undefined;
  return {
    kind, end_us: isoToMicros(e.ts), duration_us: e.duration_us,
    thread: key(firstValue(p, 'OSThread')), connect: key(firstValue(p, 't:connectID')),
    cpu_us: kind === 'call' ? number(firstValue(p, 'CpuTime')) : null,
    call_wait_us: kind === 'call' ? number(firstValue(p, 'callWait')) : null,
    statement: sql === undefined || sql === '' ? null : sqlHash(sql),
    dbpid: kind === 'db' ? number(firstValue(p, 'dbpid')) : null,
    position,
  };
}

/** What a CALL's split row carries besides its split: who made the call and from where (the tj_events row's values). */
export interface CallLine {
  host: string;
  process: string;
  pid: number;
  infobase: string;
  connect_id: number | string;
  session_id: number | string;
  os_thread: number | string;
  user: string;
  context_first: string;
}

/** Where a TJ reader hands the facts of each event that matters to a call (kind other than `other`). */
export interface CallFactSink {
  /** `startOffset`: where reading of `file` began (a checkpoint after a restart); `line` is given for a CALL only. */
  fact(file: string, fileKey: string, startOffset: number, fact: CallFact, line: CallLine | null): void;
}

const id = (v: number | string): string | null => (v === 0 || v === '0' || v === '' ? null : String(v));

/**
 * The facts of an event from its tj_events row: what the readers of the pipeline use, so that the byte encoder
 * (ingest/source/tj/tj-row-encoder.ts, tj-column-writer.ts) and the string path, which write identical rows, also close identical splits. An id
 * of 0 (or none, or not a number) is no id; a DB event's statement is its sql_hash.
 */
export function callFactOfRow(row: TjRow, position = row.file_offset): CallFact {
  const kind: CallFact['kind'] = row.event === 'CALL' ? 'call'
    : DB_EVENTS.has(row.event) ? 'db'
      : row.event === 'TLOCK' && (row.wait_connections.length > 0 || row.props.WaitConnections !== undefined) ? 'lock_wait' : 'other';
  return {
    kind, end_us: isoToMicros(row.ts.replace(' ', 'T')), duration_us: row.duration_us,
    thread: id(row.os_thread), connect: id(row.connect_id),
    cpu_us: kind === 'call' ? row.cpu_time : null, call_wait_us: kind === 'call' ? row.call_wait : null,
    statement: kind === 'db' ? id(row.sql_hash) : null, dbpid: kind === 'db' && row.dbpid !== 0 ? row.dbpid : null,
    position,
  };
}
