// The TJ event header `mm:ss.ffffff-duration,NAME,depth` (docs/tj-format.md §2), matched on raw bytes.
// Also accepts the plain-placement form with a full local time `yyyy-mm-ddThh:mm:ss.ffffff-duration,…`.

const ZERO = 0x30;
const NINE = 0x39;

function isDigit(b: number | undefined): boolean {
  return b !== undefined && b >= ZERO && b <= NINE;
}

function isNameByte(b: number | undefined): boolean {
  return b !== undefined && ((b >= ZERO && b <= NINE) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7a) || b === 0x5f);
}

/** The header did not match; the line is no event start. */
export const NO_HEADER = -1;
/** Too few bytes to decide; wait for more input. */
export const NEED_MORE = -2;

/**
 * Looks for an event header at `pos`. Returns the position just after the depth digits (at `,`, CR,
 * LF or `end`), NO_HEADER, or NEED_MORE when the bytes end before the header could be decided.
 * `final` says no more bytes will come, so the end of input terminates the header.
 */
export function matchHeader(buf: Uint8Array, pos: number, end: number, final: boolean): number {
  let p = pos;
  // Time part: `mm:ss.` then 4 or 6 fraction digits, or `yyyy-mm-ddThh:mm:ss.` then 6 digits.
  const timeEnd = matchTime(buf, p, end);
  if (timeEnd === NO_HEADER) return NO_HEADER;
  if (timeEnd === NEED_MORE) return final ? NO_HEADER : NEED_MORE;
  p = timeEnd;
  // `-duration`
  if (p >= end) return final ? NO_HEADER : NEED_MORE;
  if (buf[p] !== 0x2d) return NO_HEADER;
  p++;
  const durStart = p;
  while (p < end && isDigit(buf[p])) p++;
  if (p >= end) return final ? NO_HEADER : NEED_MORE;
  if (p === durStart || buf[p] !== 0x2c) return NO_HEADER;
  p++;
  const nameStart = p;
  while (p < end && isNameByte(buf[p])) p++;
  if (p >= end) return final ? NO_HEADER : NEED_MORE;
  if (p === nameStart || buf[p] !== 0x2c) return NO_HEADER;
  p++;
  const depthStart = p;
  while (p < end && isDigit(buf[p])) p++;
  if (p === depthStart) return p >= end && !final ? NEED_MORE : NO_HEADER;
  if (p >= end) return final ? p : NEED_MORE;
  const b = buf[p];
  if (b === 0x2c || b === 0x0a || b === 0x0d) return p;
  return NO_HEADER;
}

function matchTime(buf: Uint8Array, pos: number, end: number): number {
  // Short form: dd:dd.dddd[dd]
  const need = (n: number): boolean => pos + n <= end;
  if (!need(1)) return NEED_MORE;
  if (!isDigit(buf[pos])) return NO_HEADER;
  if (!need(3)) return NEED_MORE;
  if (isDigit(buf[pos + 1]) && buf[pos + 2] === 0x3a) {
    if (!need(10)) return NEED_MORE;
    if (!isDigit(buf[pos + 3]) || !isDigit(buf[pos + 4]) || buf[pos + 5] !== 0x2e) return NO_HEADER;
    for (let i = 6; i < 10; i++) if (!isDigit(buf[pos + i])) return NO_HEADER;
    if (!need(11)) return NEED_MORE;
    if (buf[pos + 10] === 0x2d) return pos + 10;
    if (!need(13)) return NEED_MORE;
    if (isDigit(buf[pos + 10]) && isDigit(buf[pos + 11]) && buf[pos + 12] === 0x2d) return pos + 12;
    return NO_HEADER;
  }
  // Long form: dddd-dd-ddTdd:dd:dd.dddddd
  const shape = 'dddd-dd-ddTdd:dd:dd.dddddd';
  for (let i = 0; i < shape.length; i++) {
    if (!need(i + 1)) return NEED_MORE;
    const b = buf[pos + i];
    const c = shape.charCodeAt(i);
    if (c === 0x64 ? !isDigit(b) : b !== c) return NO_HEADER;
  }
  return pos + shape.length;
}
