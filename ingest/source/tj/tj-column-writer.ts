// The columns of one tj_events row, written from a scanned event's bytes (parsers/tj/event-scanner.ts): a value is a
// byte range copied once, numbers are read from digits, no JavaScript string per value and no row object. Decoding
// every value to a string and encoding it back was most of the TJ source's time (profiled on 200 MB: UTF-8 decoding
// 1.6 s, the row object and its encoding 3 s of 14 s).
//
// The rules are tj-event-to-row.ts's, byte for byte (tj-names.ts says which column a name fills). A value this
// writer does not take on itself — a name with `#`, non-ASCII inside Regions or WaitConnections, numbers beyond 15
// digits — makes `take` decline the event, and the row encoder (tj-row-encoder.ts) sends it the string path.
import type { TjEventScanner } from '../../../parsers/tj/event-scanner.js';
import { REPEATED } from '../../../parsers/tj/event-scanner.js';
import { CRLF_INSIDE, DOUBLED_DQUOTE, DOUBLED_SQUOTE } from '../../../parsers/tj/property-ranges.js';
import { hashBytes, type TjName } from '../../../parsers/tj/property-names.js';
import { sqlHash } from '../../../parsers/tj/sql-shape.js';
import { DB_EVENTS, type CallLine } from '../../../parsers/tj/calls/call-facts.js';
import type { CallFact } from '../../../parsers/tj/calls/thread-accounts.js';
import { RowBinaryWriter } from '../../../schemas/row-binary.js';
import { TJ_EVENTS } from '../../../schemas/tj-row.js';
import { contextEnds, processFromPath } from './tj-event-to-row.js';
import { type ColumnRule, Rule } from './tj-names.js';
import { copyValue, isAsciiSpace, lineEnds, valueLength } from './tj-value-bytes.js';

const COMMA = 0x2c;
const SQUOTE = 0x27;
const DQUOTE = 0x22;
const MAX_SAFE_DIGITS = 15;
/** What copying a value must undo. */
const UNESCAPE = DOUBLED_SQUOTE | DOUBLED_DQUOTE | CRLF_INSIDE;

const COLS = TJ_EVENTS.names.length;
const col = (name: Parameters<typeof TJ_EVENTS.indexOf>[0]): number => TJ_EVENTS.indexOf(name);
const C = {
  infobase: col('infobase'), connect_id: col('connect_id'), session_id: col('session_id'), client_id: col('client_id'),
  os_thread: col('os_thread'), user: col('user'), app: col('app'), computer: col('computer'), context: col('context'),
  dbms: col('dbms'), database: col('database'), dbpid: col('dbpid'), trans: col('trans'), func: col('func'), sql: col('sql'),
  prm: col('prm'), rows: col('rows'), call_wait: col('call_wait'), regions: col('regions'), locks: col('locks'),
  deadlock_intersections: col('deadlock_intersections'), exception: col('exception'), descr: col('descr'),
  cpu_time: col('cpu_time'),
};
const ID_ORDER = [C.connect_id, C.session_id, C.client_id, C.os_thread];
const NULLABLE_INT_ORDER = Array.from({ length: C.call_wait - C.rows + 1 }, (_, i) => C.rows + i);

/** A value of the event being encoded: its range in the event and what copying it must undo. */
class Values {
  readonly start = new Int32Array(COLS).fill(-1);
  readonly end = new Int32Array(COLS);
  readonly flags = new Uint8Array(COLS);
  /** Ids and integers as numbers; `big` holds ids of more than 15 digits as text. */
  readonly num = new Float64Array(COLS);
  readonly has = new Uint8Array(COLS);
  readonly big: Array<string | null> = new Array(COLS).fill(null);
  /** Columns set for the current event: only those are cleared for the next (most events fill a few). */
  readonly #touched = new Int32Array(COLS * 2);
  #count = 0;

  touch(c: number): void {
    this.#touched[this.#count++] = c;
  }

  reset(): void {
    for (let i = 0; i < this.#count; i++) {
      const c = this.#touched[i] as number;
      this.start[c] = -1;
      this.has[c] = 0;
      this.big[c] = null;
    }
    this.#count = 0;
  }
}

/** `props` of the event being encoded, in insertion order; arrays reused from event to event. */
class Props {
  readonly keys: Buffer[] = [];
  readonly names: string[] = [];
  readonly start: number[] = [];
  readonly end: number[] = [];
  readonly flags: number[] = [];
  size = 0;

  add(key: Buffer, name: string, start: number, end: number, flags: number): void {
    const i = this.size++;
    this.keys[i] = key;
    this.names[i] = name;
    this.start[i] = start;
    this.end[i] = end;
    this.flags[i] = flags;
  }

  indexOf(name: string): number {
    for (let i = 0; i < this.size; i++) if (this.names[i] === name) return i;
    return -1;
  }

  remove(i: number): void {
    for (const list of [this.keys, this.names, this.start, this.end, this.flags] as unknown[][]) list.splice(i, 1);
    this.size--;
  }
}

/** A sql_hash computed once per distinct statement: the bytes it came from and its 8 RowBinary bytes. */
interface SqlHashEntry { raw: Buffer; flags: number; hash: Buffer; text: string; next: SqlHashEntry | null }

const constant = (s: string): Buffer => { const w = new RowBinaryWriter(64); w.string(s); return w.finish(); };

export class TjColumnWriter {
  private readonly values = new Values();
  private readonly props = new Props();
  private readonly waits: number[] = [];
  /** Item ranges of a comma-separated value (commaItems), reused. */
  private readonly items: number[] = [];
  private readonly extraCount = new Map<TjName<ColumnRule>, number>();
  private readonly sqlHashes = new Map<number, SqlHashEntry>();
  /** The process and pid of the file's folder, and the columns every row of the file shares, encoded once. */
  private readonly proc: { process: string; pid: number } | null;
  private readonly procName: Buffer | null;
  private readonly host: Buffer;
  private readonly file: Buffer;
  private readonly fileKey: Buffer;
  /** The `process` property, when the folder names no process: its range and flags, or start -1. */
  /** The sql_hash of the event last written, as text ('0' for none): a DB event's statement key for the accountant. */
  private lastSqlHash = '0';
  private readonly hostName: string;
  private procStart = -1;
  private procEnd = 0;
  private procFlags = 0;

  constructor(ctx: { host: string; file: string; file_key: string }) {
    this.proc = processFromPath(ctx.file);
    this.procName = this.proc === null ? null : constant(this.proc.process);
    this.host = constant(ctx.host);
    this.hostName = ctx.host;
    this.file = constant(ctx.file);
    this.fileKey = constant(ctx.file_key);
  }

  /** Takes the scanned event's properties into columns; false when one needs the string path (nothing is written). */
  take(s: TjEventScanner<ColumnRule>): boolean {
    this.values.reset();
    this.props.size = 0;
    this.waits.length = 0;
    this.extraCount.clear();
    const f = s.bytes;
    const ranges = s.ranges;
    if (ranges === null) return false;
    for (let i = 0; i < ranges.count; i++) {
      const name = s.propertyNames[i] as TjName<ColumnRule>;
      if (name.hasHash) return false; // `a#2` could meet the key of a repeated `a`
      const flags = ranges.flags(i);
      const vs = ranges.valueStart(i);
      const ve = ranges.valueEnd(i);
      if ((flags & REPEATED) !== 0) {
        // A repeated name: the first value kept its place, later ones go to props as `name#2`, `name#3`…
        const k = (this.extraCount.get(name) ?? 1) + 1;
        this.extraCount.set(name, k);
        const key = `${name.name}#${k}`;
        this.props.add(Buffer.from(key), key, vs, ve, flags);
        continue;
      }
      if (!this.takeValue(f, name, vs, ve, flags)) return false;
    }
    // The column `process` comes from the path; without one, the first `process` property moves there.
    this.procStart = -1;
    if (this.procName === null) {
      const i = this.props.indexOf('process');
      if (i >= 0) {
        this.procStart = this.props.start[i] as number;
        this.procEnd = this.props.end[i] as number;
        this.procFlags = this.props.flags[i] as number;
        this.props.remove(i);
      }
    }
    return true;
  }

  /** Puts one property where tjEventToRow would; false for a value the string path must take. */
  private takeValue(f: Buffer, name: TjName<ColumnRule>, vs: number, ve: number, flags: number): boolean {
    const values = this.values;
    const c = name.meaning.column;
    if (c >= 0) values.touch(c);
    const len = ve - vs;
    switch (name.meaning.rule) {
      case Rule.string:
        values.start[c] = vs;
        values.end[c] = ve;
        values.flags[c] = flags;
        return true;
      case Rule.id: {
        if (len === 0) return true;
        if (!digits(f, vs, ve) || len > 20 || (len === 20 && f.toString('latin1', vs, ve) > '18446744073709551615')) break;
        values.has[c] = 1;
        if (len > MAX_SAFE_DIGITS) values.big[c] = f.toString('latin1', vs, ve);
        else values.num[c] = readDigits(f, vs, ve);
        return true;
      }
      case Rule.nullableInt: {
        const neg = f[vs] === 0x2d;
        if (len > 18 || len === 0 || !digits(f, neg ? vs + 1 : vs, ve) || (neg && len === 1)) { if (len === 0) return true; break; }
        values.has[c] = 1;
        values.num[c] = len > MAX_SAFE_DIGITS ? Number(f.toString('latin1', vs, ve)) : (neg ? -readDigits(f, vs + 1, ve) : readDigits(f, vs, ve));
        return true;
      }
      case Rule.dbpid:
      case Rule.trans: {
        if (len === 0) return true;
        if (len > 9 || !digits(f, vs, ve)) break;
        values.has[c] = 1;
        values.num[c] = readDigits(f, vs, ve);
        return true;
      }
      case Rule.regions:
        if ((flags & UNESCAPE) !== 0 || !ascii(f, vs, ve)) return false;
        values.start[c] = vs;
        values.end[c] = ve;
        return true;
      case Rule.waitConnections: {
        if (len === 0) return true;
        if ((flags & UNESCAPE) !== 0 || !ascii(f, vs, ve)) return false;
        const ids = waitConnections(f, vs, ve, this.items);
        if (ids === null) return false;
        if (ids.length === 0) break;
        values.has[c] = 1;
        for (const id of ids) this.waits.push(id);
        return true;
      }
      default:
        break;
    }
    this.props.add(name.bytes, name.name, vs, ve, flags);
    return true;
  }

  /** Writes the row of the event `take` accepted. */
  write(w: RowBinaryWriter, s: TjEventScanner<ColumnRule>): void {
    const f = s.bytes;
    const values = this.values;
    w.i64(s.endUs);
    w.i64(s.endUs - s.durationUs);
    w.u64(s.durationUs);
    w.stringBytes(f, s.nameStart, s.nameEnd);
    w.u16(s.depth);
    w.raw(this.host, 0, this.host.length);
    if (this.procName !== null) w.raw(this.procName, 0, this.procName.length);
    else if (this.procStart >= 0) value(w, f, this.procStart, this.procEnd, this.procFlags);
    else w.u8(0);
    w.u32(this.proc?.pid ?? 0);
    this.str(w, f, C.infobase);
    for (const c of ID_ORDER) w.u64(values.has[c] ? values.big[c] ?? values.num[c] as number : 0);
    this.str(w, f, C.user);
    this.str(w, f, C.app);
    this.str(w, f, C.computer);
    this.contextColumns(w, f);
    this.str(w, f, C.dbms);
    this.str(w, f, C.database);
    w.u32(values.has[C.dbpid] ? values.num[C.dbpid] as number : 0);
    if (values.has[C.trans]) { w.u8(0); w.u32(values.num[C.trans] as number); } else w.u8(1);
    this.str(w, f, C.func);
    this.str(w, f, C.sql);
    this.sqlHashColumn(w, f);
    this.str(w, f, C.prm);
    for (const c of NULLABLE_INT_ORDER) {
      if (values.has[c]) { w.u8(0); w.i64(values.num[c] as number); } else w.u8(1);
    }
    this.regionsColumn(w, f);
    this.str(w, f, C.locks);
    w.varint(this.waits.length);
    for (const id of this.waits) w.u64(id);
    this.str(w, f, C.deadlock_intersections);
    this.str(w, f, C.exception);
    this.str(w, f, C.descr);
    const props = this.props;
    w.varint(props.size);
    for (let i = 0; i < props.size; i++) {
      const key = props.keys[i] as Buffer;
      w.stringBytes(key, 0, key.length);
      value(w, f, props.start[i] as number, props.end[i] as number, props.flags[i] as number);
    }
    w.raw(this.file, 0, this.file.length);
    w.raw(this.fileKey, 0, this.fileKey.length);
    w.u64(s.offset);
  }

  private str(w: RowBinaryWriter, f: Buffer, c: number): void {
    const s = this.values.start[c] as number;
    if (s < 0) { w.u8(0); return; }
    value(w, f, s, this.values.end[c] as number, this.values.flags[c] as number);
  }

  /** context, then its first and last non-blank lines (contextEnds). */
  private contextColumns(w: RowBinaryWriter, f: Buffer): void {
    const s = this.values.start[C.context] as number;
    if (s < 0) { w.u8(0); w.u8(0); w.u8(0); return; }
    const e = this.values.end[C.context] as number;
    const flags = this.values.flags[C.context] as number;
    value(w, f, s, e, flags);
    const ends = (flags & UNESCAPE) === 0 ? lineEnds(f, s, e) : null;
    if (ends === null) {
      // A value with escapes: its lines are those of the unescaped text.
      const [first, last] = contextEnds(decoded(f, s, e, flags));
      w.string(first);
      w.string(last);
      return;
    }
    w.stringBytes(f, ends[0], ends[1]);
    w.stringBytes(f, ends[2], ends[3]);
  }

  private sqlHashColumn(w: RowBinaryWriter, f: Buffer): void {
    const s = this.values.start[C.sql] as number;
    const e = this.values.end[C.sql] as number;
    if (s < 0 || s === e) { this.lastSqlHash = '0'; w.u64(0); return; }
    const flags = (this.values.flags[C.sql] as number) & UNESCAPE;
    const h = hashBytes(f, s, e);
    const first = this.sqlHashes.get(h);
    for (let x = first ?? null; x !== null; x = x.next) {
      if (x.flags === flags && x.raw.length === e - s && x.raw.compare(f, s, e) === 0) { w.raw(x.hash, 0, 8); this.lastSqlHash = x.text; return; }
    }
    // 1C repeats the same statements thousands of times in a run: the shape and its SHA-1 once per statement.
    if (this.sqlHashes.size >= 20_000) this.sqlHashes.clear();
    const hash = Buffer.alloc(8);
    this.lastSqlHash = sqlHash(decoded(f, s, e, flags));
    hash.writeBigUInt64LE(BigInt(this.lastSqlHash));
    this.sqlHashes.set(h, { raw: Buffer.from(f.subarray(s, e)), flags, hash, text: this.lastSqlHash, next: this.sqlHashes.get(h) ?? null });
    w.raw(hash, 0, 8);
  }

  /**
   * What the per-thread accountant reads of the event `write` just wrote (parsers/tj/calls/call-facts.ts decides the
   * same from a row, callFactOfRow, for the string path): null for an event that is no part of a call. `line` is
   * given for a CALL only.
   */
  callFact(s: TjEventScanner<ColumnRule>): { fact: CallFact; line: CallLine | null } | null {
    const f = s.bytes;
    const first = f[s.nameStart];
    if (first !== 0x43 && first !== 0x44 && first !== 0x54) return null; // C, D, T: CALL, DB…, TLOCK
    const name = f.toString('latin1', s.nameStart, s.nameEnd);
    // A TLOCK that waited names the connections it waited for; one whose list was not numbers kept it in props.
    const kind: CallFact['kind'] | null = name === 'CALL' ? 'call' : DB_EVENTS.has(name) ? 'db'
      : name === 'TLOCK' && (this.waits.length > 0 || this.props.indexOf('WaitConnections') >= 0) ? 'lock_wait' : null;
    if (kind === null) return null;
    const values = this.values;
    const fact: CallFact = {
      kind, end_us: s.endUs, duration_us: s.durationUs, thread: this.idText(C.os_thread), connect: this.idText(C.connect_id),
      cpu_us: kind === 'call' && values.has[C.cpu_time] ? values.num[C.cpu_time] as number : null,
      call_wait_us: kind === 'call' && values.has[C.call_wait] ? values.num[C.call_wait] as number : null,
      statement: kind === 'db' && this.lastSqlHash !== '0' ? this.lastSqlHash : null,
      dbpid: kind === 'db' && values.has[C.dbpid] && values.num[C.dbpid] !== 0 ? values.num[C.dbpid] as number : null,
      position: s.offset,
    };
    if (kind !== 'call') return { fact, line: null };
    const id = (c: number): number | string => (values.has[c] ? values.big[c] ?? values.num[c] as number : 0);
    const ownProcess = this.procStart < 0 ? '' : decoded(f, this.procStart, this.procEnd, this.procFlags);
    return {
      fact,
      line: {
        host: this.hostName, process: this.proc?.process ?? ownProcess, pid: this.proc?.pid ?? 0, infobase: this.text(f, C.infobase),
        connect_id: id(C.connect_id), session_id: id(C.session_id), os_thread: id(C.os_thread), user: this.text(f, C.user),
        context_first: contextEnds(this.text(f, C.context))[0],
      },
    };
  }

  /** An id as the row holds it, as text; 0 or none is no id (callFactOfRow reads a row the same way). */
  private idText(c: number): string | null {
    const v = this.values;
    return v.has[c] && (v.big[c] !== null || v.num[c] !== 0) ? v.big[c] ?? String(v.num[c]) : null;
  }

  private text(f: Buffer, c: number): string {
    const s = this.values.start[c] as number;
    return s < 0 ? '' : decoded(f, s, this.values.end[c] as number, this.values.flags[c] as number);
  }

  private regionsColumn(w: RowBinaryWriter, f: Buffer): void {
    const s = this.values.start[C.regions] as number;
    const e = this.values.end[C.regions] as number;
    if (s < 0 || s === e) { w.u8(0); return; }
    const items = commaItems(f, s, e, this.items);
    w.varint(items.length >> 1);
    for (let i = 0; i < items.length; i += 2) w.stringBytes(f, items[i] as number, items[i + 1] as number);
  }
}

/** A value's bytes as a RowBinary string, with what its flags say undone. */
function value(w: RowBinaryWriter, f: Buffer, s: number, e: number, flags: number): void {
  if ((flags & UNESCAPE) === 0) { w.stringBytes(f, s, e); return; }
  const quote = quoteOf(flags);
  const crlf = (flags & CRLF_INSIDE) !== 0;
  w.varint(valueLength(f, s, e, quote, crlf));
  copyValue(w, f, s, e, quote, crlf);
}

function decoded(f: Buffer, s: number, e: number, flags: number): string {
  const w = new RowBinaryWriter(e - s + 16);
  copyValue(w, f, s, e, quoteOf(flags), (flags & CRLF_INSIDE) !== 0);
  return w.buf.toString('utf8', 0, w.pos);
}

/** The quote a value's doubled pairs are of, -1 for none. */
function quoteOf(flags: number): number {
  return flags & DOUBLED_SQUOTE ? SQUOTE : flags & DOUBLED_DQUOTE ? DQUOTE : -1;
}

/**
 * The ids of a WaitConnections value (ASCII), as tj-event-to-row.ts reads them: [] when one is not a number (the
 * value stays in props), null for a number past 15 digits (the string path keeps it as text).
 */
function waitConnections(f: Buffer, vs: number, ve: number, items: number[]): number[] | null {
  commaItems(f, vs, ve, items);
  const ids: number[] = [];
  for (let i = 0; i < items.length; i += 2) {
    const a = items[i] as number;
    const b = items[i + 1] as number;
    if (a === b || !digits(f, a, b)) return [];
    if (b - a > MAX_SAFE_DIGITS) return null;
    ids.push(readDigits(f, a, b));
  }
  return ids;
}

/**
 * The comma-separated items of `f[s, e)`, each without ASCII whitespace at its edges (`split(',').map(trim)` of
 * tj-event-to-row.ts: the values are ASCII), as `[start, end)` pairs in `out`, which is returned.
 */
function commaItems(f: Buffer, s: number, e: number, out: number[]): number[] {
  out.length = 0;
  for (let a = s; a <= e;) {
    let b = a;
    while (b < e && f[b] !== COMMA) b++;
    let x = a;
    let y = b;
    while (x < y && isAsciiSpace(f[x] as number)) x++;
    while (y > x && isAsciiSpace(f[y - 1] as number)) y--;
    out.push(x, y);
    a = b + 1;
  }
  return out;
}

function digits(f: Buffer, s: number, e: number): boolean {
  if (s >= e) return false;
  for (let i = s; i < e; i++) {
    const b = f[i] as number;
    if (b < 0x30 || b > 0x39) return false;
  }
  return true;
}

function readDigits(f: Buffer, s: number, e: number): number {
  let v = 0;
  for (let i = s; i < e; i++) v = v * 10 + (f[i] as number) - 48;
  return v;
}

function ascii(f: Buffer, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if ((f[i] as number) >= 0x80) return false;
  return true;
}
