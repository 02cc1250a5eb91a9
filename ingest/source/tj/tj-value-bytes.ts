// Byte-level forms of the string rules a TJ value meets on its way to a tj_events row (tj-event-to-row.ts): a quoted
// value's doubled quote and CRLF undone while copying (as parsers/tj/properties.ts reads them; the scanner's flags say
// which, parsers/tj/property-ranges.ts), and String.prototype.trim's notion of whitespace on UTF-8 bytes (Context's
// first and last lines, Regions and WaitConnections items), so that both paths write the same bytes.
import type { RowBinaryWriter } from '../../../schemas/row-binary.js';

const CR = 0x0d;
const LF = 0x0a;

/** Bytes of `f[s, e)` once a doubled `quote` (-1: none) became one and, with `crlf`, CRLF became LF. */
export function valueLength(f: Uint8Array, s: number, e: number, quote: number, crlf: boolean): number {
  let n = 0;
  for (let i = s; i < e; i++, n++) {
    const b = f[i];
    if ((b === quote && f[i + 1] === quote) || (crlf && b === CR && f[i + 1] === LF)) i++;
  }
  return n;
}

/** Writes `f[s, e)` with the same undoing as valueLength (no length in front). */
export function copyValue(w: RowBinaryWriter, f: Uint8Array, s: number, e: number, quote: number, crlf: boolean): void {
  w.reserve(e - s);
  const out = w.buf;
  let p = w.pos;
  for (let i = s; i < e; i++) {
    const b = f[i] as number;
    if (b === quote && f[i + 1] === quote) i++;
    else if (crlf && b === CR && f[i + 1] === LF) { out[p++] = LF; i++; continue; }
    out[p++] = b;
  }
  w.pos = p;
}

/**
 * Bytes of the whitespace character that starts at `i` (before `e`), 0 if none: ECMAScript's WhiteSpace and
 * LineTerminator minus LF, which splits lines here — TAB, VT, FF, CR, SPACE, U+00A0, U+1680, U+2000–U+200A,
 * U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
 */
export function whitespaceAt(f: Uint8Array, i: number, e: number): number {
  const b = f[i] as number;
  if (b === 0x20 || (b >= 0x09 && b <= 0x0d && b !== LF)) return 1;
  if (b === 0xc2) return i + 1 < e && f[i + 1] === 0xa0 ? 2 : 0;
  if (b < 0xe1 || b > 0xef || i + 2 >= e) return 0;
  const c = f[i + 1] as number;
  const d = f[i + 2] as number;
  if (b === 0xe1) return c === 0x9a && d === 0x80 ? 3 : 0;
  if (b === 0xe2) {
    if (c === 0x80) return (d >= 0x80 && d <= 0x8a) || d === 0xa8 || d === 0xa9 || d === 0xaf ? 3 : 0;
    return c === 0x81 && d === 0x9f ? 3 : 0;
  }
  if (b === 0xe3) return c === 0x80 && d === 0x80 ? 3 : 0;
  if (b === 0xef) return c === 0xbb && d === 0xbf ? 3 : 0;
  return 0;
}

/** Bytes of the whitespace character that ends just before `e` (after `s`), 0 if none. */
export function whitespaceBefore(f: Uint8Array, s: number, e: number): number {
  if (e - 1 >= s && whitespaceAt(f, e - 1, e) === 1) return 1;
  if (e - 2 >= s && whitespaceAt(f, e - 2, e) === 2) return 2;
  if (e - 3 >= s && whitespaceAt(f, e - 3, e) === 3) return 3;
  return 0;
}

/** `[start, end)` of the line `[s, e)` without whitespace at either edge. */
function trimmed(f: Uint8Array, s: number, e: number): [number, number] {
  let a = s;
  let b = e;
  for (let n = 0; a < b && (n = whitespaceAt(f, a, b)) > 0;) a += n;
  for (let n = 0; b > a && (n = whitespaceBefore(f, a, b)) > 0;) b -= n;
  return [a, b];
}

/**
 * The first and last lines of `f[s, e)` that are not blank, trimmed, as `[firstStart, firstEnd, lastStart, lastEnd]`
 * (empty ranges when every line is blank): contextEnds of tj-event-to-row.ts on bytes.
 */
export function lineEnds(f: Uint8Array, s: number, e: number): [number, number, number, number] {
  let first: [number, number] = [s, s];
  let firstLine = -1;
  for (let a = s; a <= e;) {
    let b = a;
    while (b < e && f[b] !== LF) b++;
    const t = trimmed(f, a, b);
    if (t[1] > t[0]) { first = t; firstLine = a; break; }
    a = b + 1;
  }
  if (firstLine < 0) return [s, s, s, s];
  for (let b = e; b >= firstLine;) {
    let a = b;
    while (a > s && f[a - 1] !== LF) a--;
    const t = trimmed(f, a, b);
    if (t[1] > t[0]) return [first[0], first[1], t[0], t[1]];
    b = a - 1;
  }
  return [first[0], first[1], first[0], first[1]];
}

/** The ASCII characters String.prototype.trim removes. */
export function isAsciiSpace(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}
