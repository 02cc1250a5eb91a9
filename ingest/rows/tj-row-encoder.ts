// TJ bytes → tj_events rows in RowBinary, straight from the framed bytes: no JS string per value and no row object
// for an ordinary event. Decoding every value to a string and encoding it back was most of the TJ source's time
// (profiled on 200 MB: UTF-8 decoding 1.6 s, the row object and its encoding 3 s of 14 s); here a value is a byte
// range copied once, a property name is looked up by its bytes (tj-names.ts), numbers are read from digits.
//
// The rules are tj-event-to-row.ts's, byte for byte: the string path (createTjParser + tjEventToRow) is the
// reference, and ingest/rows/tj-row-encoder.test.ts holds both to identical bytes on generated and corpus
// journals. An event this encoder does not take on itself — invalid UTF-8, the plain-placement time form, an
// unknown hour, text after a closing quote, a property name with `#` or of digits only, non-ASCII inside Regions
// or WaitConnections, numbers beyond 15 digits — goes through the string path, which also writes its errors.
import { isUtf8 } from 'node:buffer';
import type { IncrementalParser, ParseOutput } from '../../parsers/parser.js';
import { type BadRun, type Frame, type FramingSink, TjFramer } from '../../parsers/tj/framing.js';
import { createTjParser, type TjFileContext } from '../../parsers/tj/tj-parser.js';
import { hourStartUs } from '../../parsers/tj/event-time.js';
import { sqlHash } from '../../parsers/tj/sql-shape.js';
import { callFactOfRow, DB_EVENTS, type CallFactSink, type CallLine } from '../../parsers/tj/calls/call-facts.js';
import type { CallFact } from '../../parsers/tj/calls/thread-accounts.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { TJ_EVENTS } from '../../schemas/tj-row.js';
import { contextEnds, processFromPath, tjEventToRow } from './tj-event-to-row.js';
import { RowBinaryWriter } from '../../schemas/row-binary.js';
import { hashBytes, Rule, type TjName, TjNames } from './tj-names.js';
import { copyValue, lineEnds, valueLength } from './tj-value-bytes.js';

/** What the encoder writes into: a table writer and a count of the rows it wrote there. */
export interface TjRowTarget {
  readonly w: RowBinaryWriter;
  /** Called once per row written straight into `w`. */
  wrote(): void;
  /** Where the facts of CALL, DB and waited TLOCK events go (the per-thread accountant, docs/tj-format.md §4.3). */
  readonly calls?: CallFactSink;
}

const COMMA = 0x2c;
const EQUALS = 0x3d;
const SQUOTE = 0x27;
const DQUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const HASH = 0x23;
const MAX_SAFE_DIGITS = 15;

/** Flags of a value's byte range: what copying it must undo. */
const UNESCAPE_SQUOTE = 1;
const UNESCAPE_DQUOTE = 2;
const CRLF = 4;

const COLS = TJ_EVENTS.names.length;
const col = (name: Parameters<typeof TJ_EVENTS.indexOf>[0]): number => TJ_EVENTS.indexOf(name);
const C = {
  infobase: col('infobase'), connect_id: col('connect_id'), session_id: col('session_id'), client_id: col('client_id'),
  os_thread: col('os_thread'), user: col('user'), app: col('app'), computer: col('computer'), context: col('context'),
  dbms: col('dbms'), database: col('database'), func: col('func'), sql: col('sql'), prm: col('prm'), rows: col('rows'),
  call_wait: col('call_wait'), regions: col('regions'), locks: col('locks'), wait_connections: col('wait_connections'),
  deadlock_intersections: col('deadlock_intersections'), exception: col('exception'), descr: col('descr'),
  cpu_time: col('cpu_time'), dbpid: col('dbpid'),
};
const ID_ORDER = [C.connect_id, C.session_id, C.client_id, C.os_thread];
const NULLABLE_INT_ORDER = Array.from({ length: C.call_wait - C.rows + 1 }, (_, i) => C.rows + i);

/** A value of the event being encoded: its range in the frame and what copying it must undo. */
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

export function createTjRowParser(ctx: TjFileContext, target: TjRowTarget): IncrementalParser<never> {
  const framer = new TjFramer(ctx.offset);
  const hourUs = ctx.hour === null ? null : hourStartUs(ctx.hour, ctx.tz);
  const names = new TjNames();
  const values = new Values();
  const props = new Props();
  const sqlHashes = new Map<number, SqlHashEntry>();
  const proc = processFromPath(ctx.file);
  const constant = (s: string): Buffer => { const w = new RowBinaryWriter(64); w.string(s); return w.finish(); };
  const host = constant(ctx.host);
  const procName = proc === null ? null : constant(proc.process);
  const file = constant(ctx.file);
  const fileKey = constant(ctx.file_key);
  const waits: number[] = [];
  const extraCount = new Map<TjName, number>();
  let generation = 0;
  let errors: IngestError[] = [];
  const calls = target.calls;
  /** Without a process folder, the event's own `process` property (its row's process column), for a CALL's line. */
  let ownProcess = '';
  /** The sql_hash of the event being encoded, as text ('0' for none): a DB event's statement key for the accountant. */
  let lastSqlHash = '0';

  /** The reference path for one frame (or bad run): a parser of its own over exactly those bytes. */
  function stringPath(bytes: Buffer, at: number, isFrame: boolean): void {
    const parser = createTjParser({ ...ctx, offset: at });
    const outs: ParseOutput<unknown>[] = [parser.push(isFrame ? Buffer.concat([bytes, Buffer.from([LF])]) : Buffer.from(bytes)), parser.finish()];
    for (const out of outs) {
      for (const e of out.events) {
        const row = tjEventToRow(e as Parameters<typeof tjEventToRow>[0], proc);
        TJ_EVENTS.writeRow(target.w, row);
        target.wrote();
        if (calls !== undefined) {
          const fact = callFactOfRow(row);
          if (fact.kind !== 'other') calls.fact(ctx.file, ctx.file_key, ctx.offset, fact, fact.kind === 'call' ? row : null);
        }
      }
      for (const e of out.errors) errors.push(e);
    }
  }

  const sink: FramingSink = {
    frame(frame: Frame, window: Buffer, at: number): void {
      const f = window.subarray(at, at + frame.end - frame.start);
      if (!encode(f, frame.start)) stringPath(f, frame.start, true);
    },
    bad(run: BadRun, bytes: Buffer): void {
      stringPath(bytes, run.start, false);
    },
  };

  /** Writes the event's row; false (nothing written) for an event the string path must take. */
  function encode(f: Buffer, offset: number): boolean {
    const n = f.length;
    if (hourUs === null || n < 13 || f[2] !== 0x3a || !isUtf8(f)) return false;
    const hasCR = f.indexOf(CR) >= 0;
    // Header `mm:ss.ffff[ff]-duration,EVENT,depth` (matchHeader checked its shape).
    const d = (i: number): number => (f[i] as number) - 48;
    const fracDigits = f[10] === 0x2d ? 4 : 6;
    let frac = 0;
    for (let i = 6; i < 6 + fracDigits; i++) frac = frac * 10 + d(i);
    if (fracDigits === 4) frac *= 100;
    const endUs = hourUs + ((d(0) * 10 + d(1)) * 60 + d(3) * 10 + d(4)) * 1_000_000 + frac;
    let p = 7 + fracDigits;
    const durStart = p;
    let duration = 0;
    while (f[p] !== COMMA) duration = duration * 10 + d(p++);
    if (p - durStart > MAX_SAFE_DIGITS) return false;
    if (fracDigits === 4) duration *= 100;
    const eventStart = ++p;
    while (f[p] !== COMMA) p++;
    const eventEnd = p++;
    const depthStart = p;
    let depth = 0;
    for (let b = f[p] as number; p < n && b !== COMMA; b = f[++p] as number) {
      if (b < 0x30 || b > 0x39) return false; // the string path reads such a depth with Number()
      depth = depth * 10 + b - 48;
    }
    if (p - depthStart > MAX_SAFE_DIGITS) return false;

    values.reset();
    props.size = 0;
    waits.length = 0;
    extraCount.clear();
    const event = ++generation;
    // Properties, as parseProperties reads them (schemas/tj-row.ts decides their columns).
    while (p < n) {
      if (f[p] === COMMA) { p++; continue; }
      let q = p;
      let h = 0x811c9dc5;
      let digitsOnly = true;
      for (let b = f[q] as number; q < n && b !== EQUALS; b = f[++q] as number) {
        if (b === HASH) return false;
        if (b < 0x30 || b > 0x39) digitsOnly = false;
        h = Math.imul(h ^ b, 0x01000193);
      }
      if (q >= n) break; // a trailing fragment without `=`
      if (digitsOnly) return false; // an array-index key: an object would reorder it
      const name = names.get(f, p, q, h >>> 0);
      const open = f[q + 1];
      let vs: number;
      let ve: number;
      let flags = 0;
      if (open === SQUOTE || open === DQUOTE) {
        vs = q + 2;
        let from = vs;
        for (;;) {
          const close: number = f.indexOf(open as number, from);
          if (close < 0) return false; // not closed within the event
          if (f[close + 1] === open) { flags |= open === SQUOTE ? UNESCAPE_SQUOTE : UNESCAPE_DQUOTE; from = close + 2; continue; }
          ve = close;
          p = close + 1;
          break;
        }
        if (p < n && f[p] !== COMMA) return false; // text after the closing quote
        if (hasCR) for (let i = vs; i < ve - 1; i++) if (f[i] === CR && f[i + 1] === LF) { flags |= CRLF; break; }
      } else {
        vs = q + 1;
        ve = vs;
        while (ve < n && f[ve] !== COMMA) ve++;
        p = ve;
      }
      if (!take(f, name, vs, ve, flags, event)) return false;
    }

    // The column `process` comes from the path; without one, the first `process` property moves there.
    let procStart = -1;
    let procEnd = -1;
    let procFlags = 0;
    if (procName === null) {
      const i = props.indexOf('process');
      if (i >= 0) {
        procStart = props.start[i] as number;
        procEnd = props.end[i] as number;
        procFlags = props.flags[i] as number;
        props.remove(i);
      }
    }
    write(f, offset, endUs, duration, eventStart, eventEnd, depth, procStart, procEnd, procFlags);
    target.wrote();
    if (calls !== undefined) {
      ownProcess = procStart < 0 ? '' : decodedIf(f, procStart, procEnd, procFlags);
      const kind = callKind(f, eventStart, eventEnd);
      if (kind !== 'other') calls.fact(ctx.file, ctx.file_key, ctx.offset, fact(kind, endUs, duration, offset), kind === 'call' ? line(f) : null);
    }
    return true;
  }

  /** Which part of a call the event is (call-facts.ts decides the same for a parsed event). */
  function callKind(f: Buffer, es: number, ee: number): CallFact['kind'] {
    const first = f[es];
    if (first !== 0x43 && first !== 0x44 && first !== 0x54) return 'other'; // C, D, T: CALL, DB…, TLOCK
    const name = f.toString('latin1', es, ee);
    if (name === 'CALL') return 'call';
    if (DB_EVENTS.has(name)) return 'db';
    // A TLOCK that waited names the connections it waited for; one whose list was not numbers kept it in props.
    if (name === 'TLOCK' && (values.has[C.wait_connections] === 1 || props.indexOf('WaitConnections') >= 0)) return 'lock_wait';
    return 'other';
  }

  /** An id as the row holds it, as text; 0 or none is no id (callFactOfRow reads a row the same way). */
  function idText(c: number): string | null {
    return values.has[c] && (values.big[c] !== null || values.num[c] !== 0) ? values.big[c] ?? String(values.num[c]) : null;
  }

  function fact(kind: CallFact['kind'], endUs: number, duration: number, offset: number): CallFact {
    return {
      kind, end_us: endUs, duration_us: duration, thread: idText(C.os_thread), connect: idText(C.connect_id),
      cpu_us: kind === 'call' && values.has[C.cpu_time] ? values.num[C.cpu_time] as number : null,
      call_wait_us: kind === 'call' && values.has[C.call_wait] ? values.num[C.call_wait] as number : null,
      statement: kind === 'db' && lastSqlHash !== '0' ? lastSqlHash : null,
      dbpid: kind === 'db' && values.has[C.dbpid] && values.num[C.dbpid] !== 0 ? values.num[C.dbpid] as number : null,
      position: offset,
    };
  }

  function decodedIf(f: Buffer, s: number, e: number, flags: number): string {
    return flags === 0 ? f.toString('utf8', s, e) : decoded(f, s, e, flags);
  }

  function text(f: Buffer, c: number): string {
    const s = values.start[c] as number;
    return s < 0 ? '' : decoded(f, s, values.end[c] as number, values.flags[c] as number);
  }

  /** A CALL's who and where, as its tj_events row has them. */
  function line(f: Buffer): CallLine {
    const id = (c: number): number | string => (values.has[c] ? values.big[c] ?? values.num[c] as number : 0);
    return {
      host: ctx.host, process: proc?.process ?? ownProcess, pid: proc?.pid ?? 0, infobase: text(f, C.infobase),
      connect_id: id(C.connect_id), session_id: id(C.session_id), os_thread: id(C.os_thread), user: text(f, C.user),
      context_first: contextEnds(text(f, C.context))[0],
    };
  }

  /** Puts one property where tjEventToRow would; false for a value the string path must take. */
  function take(f: Buffer, name: TjName, vs: number, ve: number, flags: number, event: number): boolean {
    if (name.seenIn === event) {
      // A repeated name: the first value kept its place, later ones go to props as `name#2`, `name#3`…
      const k = (extraCount.get(name) ?? 1) + 1;
      extraCount.set(name, k);
      const key = `${name.name}#${k}`;
      props.add(Buffer.from(key), key, vs, ve, flags);
      return true;
    }
    name.seenIn = event;
    const c = name.column;
    if (c >= 0) values.touch(c);
    const len = ve - vs;
    switch (name.rule) {
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
        if (flags !== 0 || !ascii(f, vs, ve)) return false;
        values.start[c] = vs;
        values.end[c] = ve;
        return true;
      case Rule.waitConnections: {
        if (len === 0) return true;
        if (flags !== 0 || !ascii(f, vs, ve)) return false;
        const ids: number[] = [];
        for (let s = vs; s <= ve;) {
          let e = s;
          while (e < ve && f[e] !== COMMA) e++;
          let a = s;
          let b = e;
          while (a < b && isAsciiSpace(f[a] as number)) a++;
          while (b > a && isAsciiSpace(f[b - 1] as number)) b--;
          if (a === b || !digits(f, a, b)) { ids.length = 0; ids.push(-1); break; }
          if (b - a > MAX_SAFE_DIGITS) return false;
          ids.push(readDigits(f, a, b));
          s = e + 1;
        }
        if (ids[0] === -1) break;
        values.has[c] = 1;
        for (const id of ids) waits.push(id);
        return true;
      }
      default:
        break;
    }
    props.add(name.bytes, name.name, vs, ve, flags);
    return true;
  }

  function str(w: RowBinaryWriter, f: Buffer, c: number): void {
    const s = values.start[c] as number;
    if (s < 0) { w.u8(0); return; }
    value(w, f, s, values.end[c] as number, values.flags[c] as number);
  }

  function value(w: RowBinaryWriter, f: Buffer, s: number, e: number, flags: number): void {
    if (flags === 0) { w.stringBytes(f, s, e); return; }
    const quote = flags & UNESCAPE_SQUOTE ? SQUOTE : flags & UNESCAPE_DQUOTE ? DQUOTE : -1;
    const crlf = (flags & CRLF) !== 0;
    w.varint(valueLength(f, s, e, quote, crlf));
    copyValue(w, f, s, e, quote, crlf);
  }

  function write(f: Buffer, offset: number, endUs: number, duration: number, es: number, ee: number, depth: number,
    procStart: number, procEnd: number, procFlags: number): void {
    const w = target.w;
    w.i64(endUs);
    w.i64(endUs - duration);
    w.u64(duration);
    w.stringBytes(f, es, ee);
    w.u16(depth);
    w.raw(host, 0, host.length);
    if (procName !== null) w.raw(procName, 0, procName.length);
    else if (procStart >= 0) value(w, f, procStart, procEnd, procFlags);
    else w.u8(0);
    w.u32(proc?.pid ?? 0);
    str(w, f, C.infobase);
    for (const c of ID_ORDER) w.u64(values.has[c] ? values.big[c] ?? values.num[c] as number : 0);
    str(w, f, C.user);
    str(w, f, C.app);
    str(w, f, C.computer);
    contextColumns(w, f);
    str(w, f, C.dbms);
    str(w, f, C.database);
    const dbpid = C.database + 1;
    w.u32(values.has[dbpid] ? values.num[dbpid] as number : 0);
    const trans = dbpid + 1;
    if (values.has[trans]) { w.u8(0); w.u32(values.num[trans] as number); } else w.u8(1);
    str(w, f, C.func);
    str(w, f, C.sql);
    sqlHashColumn(w, f);
    str(w, f, C.prm);
    for (const c of NULLABLE_INT_ORDER) {
      if (values.has[c]) { w.u8(0); w.i64(values.num[c] as number); } else w.u8(1);
    }
    regionsColumn(w, f);
    str(w, f, C.locks);
    w.varint(waits.length);
    for (const id of waits) w.u64(id);
    str(w, f, C.deadlock_intersections);
    str(w, f, C.exception);
    str(w, f, C.descr);
    w.varint(props.size);
    for (let i = 0; i < props.size; i++) {
      const key = props.keys[i] as Buffer;
      w.stringBytes(key, 0, key.length);
      value(w, f, props.start[i] as number, props.end[i] as number, props.flags[i] as number);
    }
    w.raw(file, 0, file.length);
    w.raw(fileKey, 0, fileKey.length);
    w.u64(offset);
  }

  /** context, then its first and last non-blank lines (contextEnds). */
  function contextColumns(w: RowBinaryWriter, f: Buffer): void {
    const s = values.start[C.context] as number;
    if (s < 0) { w.u8(0); w.u8(0); w.u8(0); return; }
    const e = values.end[C.context] as number;
    const flags = values.flags[C.context] as number;
    value(w, f, s, e, flags);
    const ends = flags === 0 ? lineEnds(f, s, e) : null;
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

  function sqlHashColumn(w: RowBinaryWriter, f: Buffer): void {
    const s = values.start[C.sql] as number;
    const e = values.end[C.sql] as number;
    lastSqlHash = '0';
    if (s < 0 || s === e) { w.u64(0); return; }
    const flags = values.flags[C.sql] as number;
    const h = hashBytes(f, s, e);
    const first = sqlHashes.get(h);
    for (let x = first ?? null; x !== null; x = x.next) {
      if (x.flags === flags && x.raw.length === e - s && x.raw.compare(f, s, e) === 0) { w.raw(x.hash, 0, 8); lastSqlHash = x.text; return; }
    }
    // 1C repeats the same statements thousands of times in a run: the shape and its SHA-1 once per statement.
    if (sqlHashes.size >= 20_000) sqlHashes.clear();
    const hash = Buffer.alloc(8);
    lastSqlHash = sqlHash(decoded(f, s, e, flags));
    hash.writeBigUInt64LE(BigInt(lastSqlHash));
    sqlHashes.set(h, { raw: Buffer.from(f.subarray(s, e)), flags, hash, text: lastSqlHash, next: sqlHashes.get(h) ?? null });
    w.raw(hash, 0, 8);
  }

  function regionsColumn(w: RowBinaryWriter, f: Buffer): void {
    const s = values.start[C.regions] as number;
    const e = values.end[C.regions] as number;
    if (s < 0 || s === e) { w.u8(0); return; }
    let count = 1;
    for (let i = s; i < e; i++) if (f[i] === COMMA) count++;
    w.varint(count);
    for (let a = s; a <= e;) {
      let b = a;
      while (b < e && f[b] !== COMMA) b++;
      let x = a;
      let y = b;
      while (x < y && isAsciiSpace(f[x] as number)) x++;
      while (y > x && isAsciiSpace(f[y - 1] as number)) y--;
      w.stringBytes(f, x, y);
      a = b + 1;
    }
  }

  function decoded(f: Buffer, s: number, e: number, flags: number): string {
    const w = new RowBinaryWriter(e - s + 16);
    const quote = flags & UNESCAPE_SQUOTE ? SQUOTE : flags & UNESCAPE_DQUOTE ? DQUOTE : -1;
    copyValue(w, f, s, e, quote, (flags & CRLF) !== 0);
    return w.buf.toString('utf8', 0, w.pos);
  }

  const take_ = (): ParseOutput<never> => {
    const out = { events: [] as never[], errors };
    errors = [];
    return out;
  };

  return {
    push(chunk: Buffer) {
      framer.push(chunk, sink);
      return take_();
    },
    finish() {
      framer.finish(sink);
      return take_();
    },
    get settled() {
      return framer.settled;
    },
    // The framer appends each chunk to its own window (framing.ts): the caller's buffer is not kept.
    copiesInput: true,
  };
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

/** The ASCII characters String.prototype.trim removes. */
export function isAsciiSpace(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}
