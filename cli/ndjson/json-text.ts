// Strings and numbers written as the UTF-8 bytes of their JSON.stringify text, straight into an NdjsonBuffer.
// ASCII strings are copied character by character with the escapes JSON.stringify uses (`\"`, `\\`, `\n`, `\u001b`…);
// a string with any other character goes through JSON.stringify itself (lone surrogates, which it escapes, and the
// UTF-8 of the rest are then exactly the same), as do strings too long to reserve six bytes a character for.
import type { NdjsonBuffer } from './ndjson-buffer.js';

/** Per byte: the character after the backslash of its JSON escape (`u` for \u00XX), 0 when copied as is. */
export const JSON_ESCAPE = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) JSON_ESCAPE[c] = 0x75;
JSON_ESCAPE[0x08] = 0x62; JSON_ESCAPE[0x09] = 0x74; JSON_ESCAPE[0x0a] = 0x6e; JSON_ESCAPE[0x0c] = 0x66; JSON_ESCAPE[0x0d] = 0x72;
JSON_ESCAPE[0x22] = 0x22; JSON_ESCAPE[0x5c] = 0x5c;
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** Writes the JSON escape of byte `b` (one JSON_ESCAPE marks) at `o`; returns the index after it. */
export function escapeByte(b: number, buf: Buffer, o: number): number {
  const esc = JSON_ESCAPE[b] as number;
  buf[o++] = 0x5c;
  buf[o++] = esc;
  if (esc === 0x75) {
    buf[o++] = 0x30; buf[o++] = 0x30;
    buf[o++] = HEX[b >> 4] as number; buf[o++] = HEX[b & 15] as number;
  }
  return o;
}

/** A non-negative safe integer in decimal, as String(n) prints it, at `o`; returns the index after it. */
export function writeUint(n: number, buf: Buffer, o: number): number {
  if (n < 0x80000000) {
    // Integer division while it fits 32 bits: most numbers written (offsets, lengths, durations) do. `| 0` makes it an
    // int32 for the optimiser too: a number that came from double arithmetic would take a floating-point `%`.
    n |= 0;
    let digits = 1;
    for (let x = n; x >= 10; x = (x / 10) | 0) digits++;
    for (let i = o + digits - 1; i >= o; i--, n = (n / 10) | 0) buf[i] = 0x30 + (n % 10);
    return o + digits;
  }
  let digits = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
  for (let i = o + digits - 1; i >= o; i--, n = Math.floor(n / 10)) buf[i] = 0x30 + (n % 10);
  return o + digits;
}
/** Longest string copied here: the reserve is six bytes a character (every character a \u00XX escape). */
const MAX_INLINE = 4096;

/** Writes `JSON.stringify(s)`. */
export function writeJsonString(out: NdjsonBuffer, s: string): void {
  const n = s.length;
  if (n > MAX_INLINE) { out.utf8(JSON.stringify(s)); return; }
  out.reserve(n * 6 + 2);
  const b = out.buf;
  let p = out.pos;
  b[p++] = 0x22;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) { out.utf8(JSON.stringify(s)); return; } // out.pos is still where the string begins
    if (JSON_ESCAPE[c] === 0) b[p++] = c;
    else p = escapeByte(c, b, p);
  }
  b[p++] = 0x22;
  out.pos = p;
}

/** Writes `JSON.stringify(v)`: the number's shortest round-trip text, `null` when it is not finite. */
export function writeJsonNumber(out: NdjsonBuffer, v: number): void {
  out.reserve(32); // "-1.2345678901234567e-308" is the longest a double prints
  const b = out.buf;
  const p = out.pos;
  if (v >= 0 && v <= 0x7fffffff && (v | 0) === v) { // -0 too: JSON prints it as 0
    out.pos = writeUint(v, b, p);
    return;
  }
  const text = Number.isFinite(v) ? String(v) : 'null';
  for (let i = 0; i < text.length; i++) b[p + i] = text.charCodeAt(i);
  out.pos = p + text.length;
}

/**
 * Writes bytes as the inside of a JSON string, as JSON.stringify would escape their text: valid UTF-8 is copied as
 * it is, and only `"`, `\` and control bytes are escaped. Four bytes are tested and copied at a time through
 * DataViews, up to the first byte that needs a second look: a byte-at-a-time copy of a 200 MB journal's values took
 * 0.8 s of CPU, word at a time 0.4 s (measured while adding it; docs/tj-format.md §8).
 */
export class JsonBytesWriter {
  private from: Buffer = Buffer.alloc(0);
  private to: Buffer = Buffer.alloc(0);
  private inView: DataView = new DataView(new ArrayBuffer(0));
  private outView: DataView = new DataView(new ArrayBuffer(0));
  private inBase = 0;
  private inLength = 0;
  private outBase = 0;

  /**
   * Bytes are read from `from`, which `view` sees from `viewAt` on, and written into `to` (with the room the caller
   * reserved) until the next call. The view is the caller's, and the one of `to` is made when `to` changes: a typed
   * array's `buffer` and `byteOffset` are getter calls, too dear per event (profiled).
   */
  between(from: Buffer, view: DataView, viewAt: number, to: Buffer): void {
    if (to !== this.to) {
      this.to = to;
      this.outView = new DataView(to.buffer);
      this.outBase = to.byteOffset;
    }
    if (view !== this.inView) {
      this.inView = view;
      this.inLength = view.byteLength;
    }
    this.from = from;
    this.inBase = viewAt;
  }

  /** Copies `length` bytes given as little-endian words (the last one padded) to `o`; returns the index after them. */
  words(words: Int32Array, length: number, o: number): number {
    const view = this.outView;
    const at = this.outBase + o;
    for (let i = 0; i < words.length; i++) view.setInt32(at + i * 4, words[i] as number, true);
    return o + length;
  }

  /**
   * Writes `from[s, e)` at `to[o]` (six bytes a byte of room); returns the index after it. With `quote` (a byte, or
   * -1) a doubled quote is written once, with `crlf` CRLF is written as LF: a quoted TJ value's bytes read as the
   * value (docs/tj-format.md §3.1).
   */
  value(s: number, e: number, quote: number, crlf: boolean, o: number): number {
    const f = this.from;
    const buf = this.to;
    const inView = this.inView;
    const outView = this.outView;
    const inBase = this.inBase;
    const outBase = this.outBase;
    // Bytes that need a second look: control bytes, `"`, `\` and the quote.
    const q = (quote < 0 ? 0x22 : quote) * 0x01010101;
    // A word may be read past `e` (the bytes after a value are the event's own, or the window's) but not past the
    // buffer: marks beyond `e` are dropped, and only the bytes up to `e` count.
    const readable = this.inLength - inBase - 4;
    let p = s;
    for (;;) {
      while (p < e && p <= readable) {
        const x = inView.getInt32(inBase + p, true);
        const dq = x ^ 0x22222222;
        const bs = x ^ 0x5c5c5c5c;
        const qq = x ^ q;
        // Per byte, the high bit is set when the byte is < 0x20, `"`, `\` or the quote (word-at-a-time "has a byte
        // less than / equal to"). A borrow can mark a byte above a marked one, never below: the lowest mark is exact.
        let marks = (((x - 0x20202020) & ~x) | ((dq - 0x01010101) & ~dq) | ((bs - 0x01010101) & ~bs) | ((qq - 0x01010101) & ~qq)) & 0x80808080;
        const left = e - p;
        if (left < 4) marks &= (1 << (left << 3)) - 1;
        // The whole word is written; only the bytes before the first marked one count (the rest is written again).
        outView.setInt32(outBase + o, x, true);
        if (marks === 0) {
          const n = left < 4 ? left : 4;
          o += n;
          p += n;
          continue;
        }
        const clean = (marks & 0x80) !== 0 ? 0 : (marks & 0x8000) !== 0 ? 1 : (marks & 0x800000) !== 0 ? 2 : 3;
        o += clean;
        p += clean;
        break;
      }
      if (p >= e) return o;
      const b = f[p++] as number;
      if (b === quote && p < e && f[p] === quote) p++; // a doubled quote: one of it
      else if (crlf && b === 0x0d && p < e && f[p] === 0x0a) continue; // CRLF: the LF follows
      if (JSON_ESCAPE[b] === 0) buf[o++] = b;
      else o = escapeByte(b, buf, o);
    }
  }
}
