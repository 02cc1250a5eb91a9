// Reads jsonlog (PG15+, docs/pg-format.md §5): one JSON object per line, NULL keys omitted, severity never localized.
import type { FileContext } from '../parser.js';
import type { PgEvent } from '../../schemas/pg-event.js';
import { createEventFactory } from './entry.js';
import { appendChunk, drainingReader, ingestError, type EntryReader, type ReadOutput } from './reader.js';
import { canonicalSeverity } from './severity-words.js';
import { decodeLine } from './text-decode.js';
import { pgTimeToIso } from './timestamp.js';

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null);

export function jsonRecordToEvent(o: Record<string, unknown>, e: PgEvent, tz?: string): PgEvent {
  const ts = str(o.timestamp);
  e.ts = ts === null ? null : pgTimeToIso(ts, tz);
  e.user = str(o.user); e.database = str(o.dbname); e.pid = num(o.pid);
  const host = str(o.remote_host);
  const port = num(o.remote_port);
  e.client = host === null ? null : port === null ? host : `${host}:${port}`;
  e.session_id = str(o.session_id); e.line_num = num(o.line_num); e.command_tag = str(o.ps); e.vxid = str(o.vxid);
  e.xid = num(o.txid);
  e.severity = canonicalSeverity(str(o.error_severity) ?? '');
  // state_code is omitted when it is 00000 (elog.c jsonlog writes only non-success codes).
  e.sqlstate = str(o.state_code) ?? (e.severity === null ? null : '00000');
  e.message = str(o.message) ?? '';
  e.detail = str(o.detail); e.hint = str(o.hint); e.query = str(o.internal_query); e.context = str(o.context);
  e.statement = str(o.statement);
  const func = str(o.func_name);
  e.location = func === null ? null : `${func}, ${str(o.file_name) ?? ''}:${str(o.file_line_num) ?? ''}`;
  e.application = str(o.application_name); e.backend_type = str(o.backend_type); e.leader_pid = num(o.leader_pid);
  e.query_id = o.query_id === undefined ? null : str(o.query_id);
  return e;
}

export function createJsonlogReader(ctx: FileContext, tz?: string): EntryReader {
  let pending: Buffer = Buffer.alloc(0);
  let pendingStart = ctx.offset;
  const newEvent = createEventFactory(ctx);

  const line = (s: number, e: number, out: ReadOutput, hasNewline: boolean): void => {
    const abs = pendingStart + s;
    const length = e - s + (hasNewline ? 1 : 0);
    let end = e;
    if (end > s && pending[end - 1] === 13) end--;
    if (end === s) return;
    const text = decodeLine(pending, s, end);
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch {
      o = undefined;
    }
    if (o === null || typeof o !== 'object' || Array.isArray(o)) {
      out.errors.push(ingestError(ctx, abs, length, 'invalid_json', 'jsonlog line is not a JSON object; expected one object per line as PostgreSQL 15+ writes it', text));
      return;
    }
    const rec = o as Record<string, unknown>;
    if (typeof rec.error_severity !== 'string' || typeof rec.message !== 'string') {
      out.errors.push(ingestError(ctx, abs, length, 'not_jsonlog', 'JSON object has no "error_severity"/"message": not a PostgreSQL jsonlog record (a cloud log envelope?)', text));
      return;
    }
    const ev = jsonRecordToEvent(rec, newEvent(abs), tz);
    // query_id is a signed 64-bit number written unquoted: JSON.parse rounds it past 2^53, so take its digits.
    if (typeof rec.query_id === 'number' && !Number.isSafeInteger(rec.query_id)) {
      const at = text.lastIndexOf('"query_id":');
      const m = at < 0 ? null : /^-?\d+/.exec(text.slice(at + 11));
      if (m !== null) ev.query_id = m[0];
    }
    out.entries.push(ev);
  };

  const drain = (final: boolean): ReadOutput => {
    const out: ReadOutput = { entries: [], errors: [] };
    let p = 0;
    for (let nl = pending.indexOf(10); nl >= 0; nl = pending.indexOf(10, p)) {
      line(p, nl, out, true);
      p = nl + 1;
    }
    if (final && p < pending.length) {
      line(p, pending.length, out, false);
      p = pending.length;
    }
    pending = pending.subarray(p);
    pendingStart += p;
    return out;
  };

  return drainingReader((chunk) => { pending = appendChunk(pending, chunk); }, drain, () => pendingStart);
}
