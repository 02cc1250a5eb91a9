// Groups stderr lines into entries (docs/pg-format.md §2): a prefixed `SEVERITY:  ` line opens an entry, TAB lines continue
// the line before, and prefixed DETAIL/HINT/CONTEXT/STATEMENT/QUERY/LOCATION lines of the same process fill its fields.
//
// With the logging collector one entry's lines are contiguous, so an entry is complete when the next entry's first
// line begins (or at finish). Without it (Docker, journald) processes' lines can interleave: `lookback` N keeps
// entries N lines longer so that a label line still finds the latest entry of its pid/session. A label line whose
// entry was already handed out becomes an entry of its own with an empty message. Lines that carry neither
// the prefix nor a TAB (archive_command output, pg_ctl, glibc dumps) are kept as raw entries with no severity.
// Blank lines are skipped; space-indented lines continue the open entry (see `line`).
import type { PgEvent } from '../../schemas/pg-event.js';
import type { FileContext } from '../parser.js';
import { createEventFactory } from './entry.js';
import type { PrefixMatcher } from './prefix.js';
import type { Label } from './severity-words.js';
import { allUtf8, decodeLine } from './text-decode.js';
import { appendChunk } from './reader.js';
import { epochToIso, pgTimeToIso } from './timestamp.js';

type Field = 'message' | 'detail' | 'hint' | 'context' | 'statement' | 'query' | 'location';
const LABEL_FIELD: Readonly<Record<Label, Field>> = {
  DETAIL: 'detail', HINT: 'hint', CONTEXT: 'context', STATEMENT: 'statement', QUERY: 'query', LOCATION: 'location',
  BACKTRACE: 'location',
};

/** Verbose error mode puts the SQLSTATE first: `ERROR:  42P01: relation "x" does not exist`. */
function isSqlstateLead(s: string): boolean {
  if (s.length < 7 || s.charCodeAt(5) !== 58 || s.charCodeAt(6) !== 32) return false;
  for (let i = 0; i < 5; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90))) return false;
  }
  return true;
}

export interface StderrFramer {
  /** Complete entries among the bytes fed so far. */
  push(chunk: Buffer): PgEvent[];
  finish(): PgEvent[];
  readonly settled: number;
}

export function createStderrFramer(matcher: PrefixMatcher, ctx: FileContext, tz?: string, lookback = 0): StderrFramer {
  const newEvent = createEventFactory(ctx);
  let pending: Buffer = Buffer.alloc(0);
  let pendingStart = ctx.offset; // absolute offset of pending[0]
  // Entries not handed out yet, in file order, with the line number that last touched each: an entry leaves when a
  // newer one exists and `lookback` lines have passed without a label line of its process.
  const held: PgEvent[] = [];
  const touched: number[] = [];
  let lineNo = 0;
  let cur: PgEvent | null = null; // the entry TAB lines continue
  let field: Field = 'message';
  let utf8 = false; // the complete lines of this drain are all valid UTF-8
  let lastTimeText = '';
  let lastIso: string | null = null;

  const release = (out: PgEvent[], all: boolean): void => {
    while (held.length > 0) {
      const head = held[0] as PgEvent;
      if (!all && ((held.length === 1 && head === cur) || lineNo - (touched[0] ?? 0) <= lookback)) return;
      out.push(head);
      held.shift();
      touched.shift();
    }
  };

  const hold = (e: PgEvent, out: PgEvent[]): void => {
    held.push(e);
    touched.push(lineNo);
    release(out, false);
  };

  const append = (e: PgEvent, f: Field, t: string): void => {
    const v = e[f];
    e[f] = v === null || (f === 'message' && v === '') ? t : `${v}\n${t}`;
  };

  const line = (buf: Buffer, s: number, e: number, abs: number, out: PgEvent[]): void => {
    const end = e > s && buf[e - 1] === 13 ? e - 1 : e; // CRLF files
    if (buf[s] === 9 && cur !== null) {
      // Every \n inside a field is printed as \n\t: strip exactly one TAB.
      const t = decodeLine(buf, s + 1, end, utf8);
      const v = cur[field];
      cur[field] = v === null ? t : `${v}\n${t}`;
      return;
    }
    if (end === s) return; // a blank line carries nothing; PG itself writes `\t` for an empty line in a field
    const text = decodeLine(buf, s, end, utf8);
    const m = buf[s] === 9 ? null : matcher.match(text);
    if (m === null && buf[s] === 32 && cur !== null) {
      // Leading spaces instead of the TAB: logs that went through an editor or a shipper that expands tabs
      // (pgBadger's queryid.log fixture). Kept verbatim as a continuation; real orphan output rarely starts so.
      const v = cur[field];
      cur[field] = v === null ? text : `${v}\n${text}`;
      return;
    }
    lineNo++;
    if (m === null) {
      const raw = newEvent(abs);
      raw.message = text;
      cur = null;
      hold(raw, out);
      return;
    }
    const { fields: f, head } = m;
    if (head.type === 'label') {
      for (let i = held.length - 1; i >= 0; i--) {
        const h = held[i] as PgEvent;
        if (h.severity === null && h.pid === null) continue; // orphan lines take no labels
        if ((f.pid !== null && h.pid !== f.pid) || (f.session_id !== null && h.session_id !== f.session_id)) continue;
        field = LABEL_FIELD[head.label ?? 'DETAIL'];
        append(h, field, text.slice(head.textStart));
        touched[i] = lineNo;
        cur = h;
        release(out, false);
        return;
      }
    }
    const en = newEvent(abs);
    if (f.time !== null) {
      // All lines of an entry, and often several entries, share one time text: convert each text once.
      if (f.time !== lastTimeText) {
        lastTimeText = f.time;
        lastIso = pgTimeToIso(f.time, tz);
      }
      en.ts = lastIso;
    } else {
      en.ts = f.epoch !== null ? epochToIso(f.epoch) : null;
    }
    en.severity = head.severity;
    en.sqlstate = f.sqlstate;
    en.pid = f.pid; en.session_id = f.session_id; en.line_num = f.line_num; en.user = f.user; en.database = f.database;
    en.application = f.application; en.client = f.client; en.backend_type = f.backend_type;
    en.command_tag = f.command_tag; en.vxid = f.vxid; en.xid = f.xid; en.query_id = f.query_id; en.leader_pid = f.leader_pid;
    let t = text.slice(head.textStart);
    if (head.type === 'sev') {
      if (isSqlstateLead(t)) {
        en.sqlstate = t.slice(0, 5);
        t = t.slice(7);
      }
      en.message = t;
      field = 'message';
    } else {
      field = LABEL_FIELD[head.label ?? 'DETAIL']; // a label whose entry is gone: an entry of its own
      en[field] = t;
    }
    cur = en;
    hold(en, out);
  };

  const drain = (final: boolean): PgEvent[] => {
    const out: PgEvent[] = [];
    let p = 0;
    // Complete lines end at the last newline (or the end, at finish); a cut multi-byte character lies after it.
    const last = final ? pending.length : pending.lastIndexOf(10) + 1;
    utf8 = last > 0 && allUtf8(pending, 0, last);
    for (let nl = pending.indexOf(10, p); nl >= 0; nl = pending.indexOf(10, p)) {
      line(pending, p, nl, pendingStart + p, out);
      p = nl + 1;
    }
    if (final && p < pending.length) {
      line(pending, p, pending.length, pendingStart + p, out);
      p = pending.length;
    }
    pending = pending.subarray(p);
    pendingStart += p;
    if (final) release(out, true);
    return out;
  };

  return {
    push(chunk) {
      pending = appendChunk(pending, chunk);
      return drain(false);
    },
    finish() {
      return drain(true);
    },
    get settled() {
      return held.length > 0 ? (held[0] as PgEvent).origin.offset : pendingStart;
    },
  };
}
