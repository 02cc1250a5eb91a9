// Strings and numbers written as the UTF-8 bytes of their JSON.stringify text, straight into an NdjsonBuffer.
// ASCII strings are copied character by character with the escapes JSON.stringify uses (`\"`, `\\`, `\n`, `\u001b`…);
// a string with any other character goes through JSON.stringify itself (lone surrogates, which it escapes, and the
// UTF-8 of the rest are then exactly the same), as do strings too long to reserve six bytes a character for.
import type { NdjsonBuffer } from './ndjson-buffer.js';

/** Per ASCII code: the character after the backslash of its JSON escape (`u` for \u00XX), 0 when copied as is. */
const ESCAPE = new Uint8Array(128);
for (let c = 0; c < 0x20; c++) ESCAPE[c] = 0x75;
ESCAPE[0x08] = 0x62; ESCAPE[0x09] = 0x74; ESCAPE[0x0a] = 0x6e; ESCAPE[0x0c] = 0x66; ESCAPE[0x0d] = 0x72;
ESCAPE[0x22] = 0x22; ESCAPE[0x5c] = 0x5c;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
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
    const esc = ESCAPE[c] as number;
    if (esc === 0) { b[p++] = c; continue; }
    b[p++] = 0x5c;
    b[p++] = esc;
    if (esc === 0x75) {
      b[p++] = 0x30; b[p++] = 0x30; b[p++] = HEX[c >> 4] as number; b[p++] = HEX[c & 15] as number;
    }
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
    let len = 1;
    for (let x = v; x >= 10; x = (x / 10) | 0) len++;
    let x = v;
    for (let q = p + len - 1; q >= p; q--) {
      const d = (x / 10) | 0;
      b[q] = 0x30 + x - d * 10;
      x = d;
    }
    out.pos = p + len;
    return;
  }
  const text = Number.isFinite(v) ? String(v) : 'null';
  for (let i = 0; i < text.length; i++) b[p + i] = text.charCodeAt(i);
  out.pos = p + text.length;
}
