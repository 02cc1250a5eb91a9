// One framed TJ event written as its NDJSON line straight from the file's bytes: the line
// `JSON.stringify(toJsonEvent(event))` would give, without decoding a value to a JS string and encoding it back.
// Decoding and re-encoding was most of `parse tj`'s time (a 200 MB journal: framing 0.4 s, UTF-8 decoding and
// property strings 1.5 s, the props object and JSON 2+ s); here a value is copied once, escaped as JSON on the way.
//
// The rules are the string path's, byte for byte: parseProperties (parsers/tj/properties.ts) for names and values,
// propsObject + JSON.stringify for the object; ndjson tests hold both to identical bytes. An event this writer does
// not take on itself (invalid UTF-8, the plain-placement time form, an unknown hour, a number past 15 digits, a
// repeated name, a name of digits only (array-index keys sort first in a JS object), text after a closing quote,
// an event over 1 MiB) returns false, and the string path prints it.
import { IsoMicrosFormatter, hourStartUs } from '../../parsers/tj/event-time.js';
import type { TjFileContext } from '../../parsers/tj/tj-parser.js';
import { escapeByte, JSON_ESCAPE, writeUint } from './json-text.js';
import type { NdjsonBuffer } from './ndjson-buffer.js';
import { RepeatedNames } from './repeated-names.js';

const COMMA = 0x2c;
const EQUALS = 0x3d;
const SQUOTE = 0x27;
const DQUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const MAX_DIGITS = 15;
/** Frames above this go the string path: the byte path reserves 6 output bytes per input byte. */
const MAX_FRAME = 1 << 20;

/** Per byte: the character after the backslash of its JSON escape, 0 when copied as is (json-text.ts). */
const ESCAPE = JSON_ESCAPE;
// The inner loops test one table per byte and copy when it says 0: most bytes of a journal need nothing. (Handing
// long quoted values to native calls instead, indexOf + latin1 + JSON.stringify, was slower: 1.2 s against 1.0 s
// for the 200 MB journal, four calls costing more than the ~4 ns a byte they save.)
/** Bytes a name stops at or escapes. */
const IN_NAME = ESCAPE.map((esc, b) => (esc !== 0 || b === EQUALS ? 1 : 0));
/** Bytes an unquoted value stops at or escapes. */
const IN_UNQUOTED = ESCAPE.map((esc, b) => (esc !== 0 || b === COMMA ? 1 : 0));
/** Bytes a quoted value stops at, undoes (doubled quote, CR of CRLF) or escapes. */
const IN_QUOTED = ESCAPE.map((esc, b) => (esc !== 0 || b === SQUOTE ? 1 : 0));
const ascii = (text: string): Uint8Array => Buffer.from(text, 'latin1');
const EVENT_HEAD = ascii('{"event":"');
const TS = ascii('","ts":"');
const TS_START = ascii('","ts_start":"');
const DURATION = ascii('","duration_us":');
const DEPTH = ascii(',"depth":');
const LENGTH = ascii('},"length":');
const PROPS = ascii(',"props":{');

export class TjEventJsonWriter {
  private readonly hourUs: number | null;
  private readonly endTime = new IsoMicrosFormatter();
  private readonly startTime = new IsoMicrosFormatter();
  private readonly names = new RepeatedNames();
  /** `,"origin":{"host":…,"file_key":…,"offset":`: the same for every event of the file. */
  private readonly originHead: Buffer;

  constructor(ctx: TjFileContext) {
    this.hourUs = ctx.hour === null ? null : hourStartUs(ctx.hour, ctx.tz);
    const origin = JSON.stringify({ host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key });
    this.originHead = Buffer.from(`,"origin":${origin.slice(0, -1)},"offset":`);
  }

  /**
   * Writes the line of the event in `f[s, e)` (at file offset `offset`, valid UTF-8 checked by the caller) and its
   * line feed; false, with nothing written, for an event the string path must take.
   */
  write(f: Buffer, s: number, e: number, offset: number, out: NdjsonBuffer): boolean {
    if (this.hourUs === null || e - s < 13 || e - s > MAX_FRAME || f[s + 2] !== 0x3a) return false;
    // Header `mm:ss.ffff[ff]-duration,EVENT,depth` (matchHeader checked its shape).
    const fracDigits = f[s + 10] === 0x2d ? 4 : 6;
    let frac = 0;
    for (let i = s + 6; i < s + 6 + fracDigits; i++) frac = frac * 10 + (f[i] as number) - 48;
    if (fracDigits === 4) frac *= 100;
    const minutes = ((f[s] as number) - 48) * 10 + (f[s + 1] as number) - 48;
    const seconds = ((f[s + 3] as number) - 48) * 10 + (f[s + 4] as number) - 48;
    const endUs = this.hourUs + (minutes * 60 + seconds) * 1_000_000 + frac;
    let p = s + fracDigits + 7;
    const durationStart = p;
    let duration = 0;
    for (; f[p] !== COMMA; p++) duration = duration * 10 + (f[p] as number) - 48;
    if (p - durationStart > MAX_DIGITS - 2) return false; // ×100 for 8.2 must stay a safe integer
    if (fracDigits === 4) duration *= 100; // 8.2: 1/10000 s
    const nameStart = p + 1;
    for (p = nameStart; f[p] !== COMMA; p++);
    const nameEnd = p;
    let depth = 0;
    for (p++; p < e && p - nameEnd <= MAX_DIGITS; p++) {
      const b = f[p] as number;
      if (b < 0x30 || b > 0x39) break;
      depth = depth * 10 + b - 48;
    }
    if (p < e && f[p] !== COMMA) return false; // not `depth,` or `depth` at the end: the string path says why

    const start = out.pos;
    out.reserve((e - s) * 6 + this.originHead.length + 256);
    const buf = out.buf;
    let o = copy(EVENT_HEAD, buf, start);
    for (let i = nameStart; i < nameEnd; i++) buf[o++] = f[i] as number; // [0-9A-Za-z_]: nothing to escape
    o = this.endTime.formatInto(endUs, buf, copy(TS, buf, o));
    o = this.startTime.formatInto(endUs - duration, buf, copy(TS_START, buf, o));
    o = writeUint(duration, buf, copy(DURATION, buf, o));
    o = writeUint(depth, buf, copy(DEPTH, buf, o));
    buf.set(this.originHead, o);
    o = writeUint(offset, buf, o + this.originHead.length);
    o = writeUint(e - s, buf, copy(LENGTH, buf, o));
    o = this.properties(f, p, e, buf, copy(PROPS, buf, o));
    if (o < 0) return false; // nothing counts as written: `out.pos` is still `start`
    buf[o++] = 0x7d;
    buf[o++] = 0x7d;
    buf[o++] = LF;
    out.pos = o;
    return true;
  }

  /**
   * parseProperties over bytes, writing `"name":"value",…` into `buf` from `o`: a value runs to the next comma, or
   * is quoted with its quote doubled inside and CRLF read as LF. Returns the index after the last pair, or -1 for
   * an event the string path must take.
   */
  private properties(f: Buffer, p: number, e: number, buf: Buffer, o: number): number {
    const names = this.names;
    names.clear();
    let first = true;
    while (p < e) {
      if (f[p] === COMMA) { p++; continue; }
      const pairStart = o;
      if (!first) buf[o++] = COMMA;
      first = false;
      buf[o++] = DQUOTE;
      const nameStart = p;
      let hash = 0;
      let digitsOnly = true;
      let b = 0;
      for (; p < e; p++) {
        b = f[p] as number;
        if (IN_NAME[b] !== 0) {
          if (b === EQUALS) break;
          o = escapeByte(b, buf, o);
        } else buf[o++] = b;
        hash = (Math.imul(hash, 31) + b) | 0;
        if (b - 0x30 >>> 0 > 9) digitsOnly = false;
      }
      if (p >= e) return pairStart; // a trailing fragment without `=`: parseProperties keeps nothing of it
      if ((digitsOnly && p > nameStart) || !names.add(f, nameStart, p, hash)) return -1;
      buf[o++] = DQUOTE;
      buf[o++] = 0x3a;
      buf[o++] = DQUOTE;
      p++;
      const quote = p < e ? (f[p] as number) : 0;
      if (quote === SQUOTE || quote === DQUOTE) {
        for (p++; ; p++) {
          if (p >= e) return -1; // never closed in the frame: the string path keeps the raw rest
          b = f[p] as number;
          if (IN_QUOTED[b] === 0) { buf[o++] = b; continue; }
          if (b === quote) {
            if (p + 1 < e && f[p + 1] === quote) p++;
            else break;
          } else if (b === CR && p + 1 < e && f[p + 1] === LF) continue;
          if (ESCAPE[b] === 0) buf[o++] = b;
          else o = escapeByte(b, buf, o);
        }
        p++;
        if (p < e && f[p] !== COMMA) return -1; // text after the closing quote
      } else {
        for (; p < e; p++) {
          b = f[p] as number;
          if (IN_UNQUOTED[b] === 0) { buf[o++] = b; continue; }
          if (b === COMMA) break;
          o = escapeByte(b, buf, o);
        }
      }
      buf[o++] = DQUOTE;
    }
    return o;
  }
}

/** Copies a constant into `buf` at `o`; returns the index after it. */
function copy(bytes: Uint8Array, buf: Buffer, o: number): number {
  for (let i = 0; i < bytes.length; i++) buf[o++] = bytes[i] as number;
  return o;
}

