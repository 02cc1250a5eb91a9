// Decodes one line of log bytes. Backends write in their database encoding and the postmaster in its locale's,
// so one file can mix UTF-8 and single-byte Cyrillic (docs/pg-format.md §6): bytes that are not UTF-8 are read as WIN1251.
import { isUtf8 } from 'node:buffer';

const cp1251 = new TextDecoder('windows-1251');

/** True when bytes [start, end) are valid UTF-8: one SIMD pass per chunk lets lines skip their own check. */
export function allUtf8(buf: Buffer, start: number, end: number): boolean {
  return isUtf8(buf.subarray(start, end));
}

export function decodeLine(buf: Buffer, start: number, end: number, knownUtf8 = false): string {
  const s = buf.toString('utf8', start, end);
  if (knownUtf8) return s;
  if (!s.includes('\uFFFD')) return s;
  // A real U+FFFD in the text (EF BF BD) is kept as UTF-8; anything else was never UTF-8.
  const raw = buf.subarray(start, end);
  if (raw.includes(Buffer.from([0xef, 0xbf, 0xbd]))) return s;
  return cp1251.decode(raw);
}
