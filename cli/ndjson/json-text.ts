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
