// Reads csvlog (docs/pg-format.md §4): RFC-4180 records whose quoted fields may hold raw newlines; 23 (≤12), 24 (13) or
// 26 (14+) columns, told apart by count. A record ends at a newline outside quotes; since a doubled quote toggles the
// quote state twice, counting quotes is enough and works across any chunk split.
import type { FileContext } from '../parser.js';
import type { PgEvent } from '../../schemas/pg-event.js';
import { createEventFactory, type EventFactory } from './entry.js';
import { appendChunk, drainingReader, ingestError, type EntryReader, type ReadOutput } from './reader.js';
import { canonicalSeverity } from './severity-words.js';
import { decodeLine } from './text-decode.js';
import { pgTimeToIso } from './timestamp.js';

/** Fields of one record; null = unquoted empty (NULL), '' = quoted empty. Null when the quoting is broken. */
export function splitCsvRecord(s: string): (string | null)[] | null {
  const out: (string | null)[] = [];
  let i = 0;
  for (;;) {
    if (s.charCodeAt(i) === 34) {
      let val = '';
      let from = i + 1;
      for (;;) {
        const q = s.indexOf('"', from);
        if (q < 0) return null;
        val += s.slice(from, q);
        if (s.charCodeAt(q + 1) === 34) { val += '"'; from = q + 2; continue; }
        i = q + 1;
        break;
      }
      out.push(val);
      if (i >= s.length) return out;
      if (s.charCodeAt(i) !== 44) return null;
      i++;
    } else {
      const c = s.indexOf(',', i);
      const end = c < 0 ? s.length : c;
      out.push(end === i ? null : s.slice(i, end));
      if (c < 0) return out;
      i = c + 1;
    }
  }
}

const text = (v: string | null | undefined): string | null => (v === undefined || v === null || v === '' ? null : v);
const int = (v: string | null | undefined): number | null => (v === undefined || v === null || v === '' ? null : Number(v));

export function csvRecordToEvent(f: (string | null)[], e: PgEvent, tz?: string): PgEvent {
  e.ts = f[0] ? pgTimeToIso(f[0], tz) : null;
  e.user = text(f[1]); e.database = text(f[2]); e.pid = int(f[3]); e.client = text(f[4]); e.session_id = text(f[5]);
  e.line_num = int(f[6]); e.command_tag = text(f[7]); e.vxid = text(f[9]); e.xid = int(f[10]);
  e.severity = canonicalSeverity(f[11] ?? '');
  e.sqlstate = text(f[12]); e.message = f[13] ?? ''; e.detail = text(f[14]); e.hint = text(f[15]);
  e.query = text(f[16]); e.context = text(f[18]); e.statement = text(f[19]); e.location = text(f[21]);
  e.application = text(f[22]); e.backend_type = text(f[23]); e.leader_pid = int(f[24]); e.query_id = text(f[25]);
  return e;
}

const COLUMN_COUNTS = new Set([23, 24, 26]);

export function createCsvlogReader(ctx: FileContext, tz?: string): EntryReader {
  let pending: Buffer = Buffer.alloc(0);
  let pendingStart = ctx.offset;
  let scan = 0; // bytes of `pending` already scanned for the record end
  let inQuote = false;
  let nl = -1; // cached next newline at or after `scan` (outside-quote search)
  const newEvent: EventFactory = createEventFactory(ctx);

  const record = (s: number, e: number, out: ReadOutput): void => {
    const abs = pendingStart + s;
    let end = e;
    if (end > s && pending[end - 1] === 13) end--;
    if (end === s) return; // blank line between records: nothing to say
    const str = decodeLine(pending, s, end);
    const f = splitCsvRecord(str);
    const length = Math.min(e + 1, pending.length) - s;
    if (f === null) {
      out.errors.push(ingestError(ctx, abs, length, 'bad_csv_quoting', 'csvlog record has a quote in the middle of a field or an unterminated quote; expected RFC-4180 fields as PostgreSQL writes them', str));
    } else if (!COLUMN_COUNTS.has(f.length)) {
      out.errors.push(ingestError(ctx, abs, length, 'csv_column_count', `csvlog record has ${f.length} columns; expected 23 (PG ≤12), 24 (PG 13) or 26 (PG 14+)`, str));
    } else {
      out.entries.push(csvRecordToEvent(f, newEvent(abs), tz));
    }
  };

  const drain = (final: boolean): ReadOutput => {
    const out: ReadOutput = { entries: [], errors: [] };
    let start = 0;
    let p = scan;
    for (;;) {
      if (inQuote) {
        const q = pending.indexOf(34, p);
        if (q < 0) { p = pending.length; break; }
        inQuote = false;
        p = q + 1;
        continue;
      }
      if (nl < p) nl = pending.indexOf(10, p);
      const q = pending.indexOf(34, p);
      if (nl >= 0 && (q < 0 || nl < q)) {
        record(start, nl, out);
        start = p = nl + 1;
        continue;
      }
      if (q < 0) { p = pending.length; break; }
      inQuote = true;
      p = q + 1;
    }
    if (final && start < pending.length) {
      if (inQuote) {
        const str = decodeLine(pending, start, pending.length);
        out.errors.push(ingestError(ctx, pendingStart + start, pending.length - start, 'unterminated_quote', 'csvlog file ends inside a quoted field: the last record was cut off (file truncated or still being written)', str, false));
      } else {
        record(start, pending.length, out);
      }
      start = pending.length;
      inQuote = false;
    }
    pending = pending.subarray(start);
    pendingStart += start;
    scan = p - start;
    nl = nl >= start ? nl - start : -1;
    return out;
  };

  return drainingReader((chunk) => { pending = appendChunk(pending, chunk); }, drain, () => pendingStart);
}
