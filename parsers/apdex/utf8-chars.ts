// UTF-8 bytes to text with an exact way back from character positions to byte offsets (the APDEX parser's
// event ids and checkpoints are byte offsets; the XML library counts UTF-16 code units of decoded text).
import { isUtf8 } from 'node:buffer';

export interface DecodedPiece {
  text: string;
  /**
   * Code-unit index in `text` of each U+FFFD that stands for invalid bytes, with the bytes it replaced minus the 3
   * that `Buffer.byteLength` counts for it. Empty for valid input (the usual case, checked at native speed).
   */
  corrections: { at: number; delta: number }[];
}

/** Bytes at the end of `buf` that start a character not complete yet (0–3). */
export function incompleteTail(buf: Buffer): number {
  for (let k = 1; k <= Math.min(3, buf.length); k++) {
    const b = buf[buf.length - k] as number;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: look further back
    const need = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 1;
    return need > k ? k : 0;
  }
  return 0;
}

/** Each invalid byte becomes one U+FFFD counted as that one byte, so offsets after it stay exact. */
export function decodeUtf8(buf: Buffer): DecodedPiece {
  if (isUtf8(buf)) return { text: buf.toString('utf8'), corrections: [] };
  let text = '';
  const corrections: { at: number; delta: number }[] = [];
  let run = 0;
  let i = 0;
  while (i < buf.length) {
    const n = validSequence(buf, i);
    if (n > 0) { i += n; continue; }
    text += buf.toString('utf8', run, i);
    corrections.push({ at: text.length, delta: 1 - 3 });
    text += '\ufffd';
    i += 1;
    run = i;
  }
  text += buf.toString('utf8', run, i);
  return { text, corrections };
}

/** Length of the well-formed UTF-8 sequence at i (Unicode table 3-7), or 0. */
function validSequence(buf: Buffer, i: number): number {
  const b = buf[i] as number;
  if (b < 0x80) return 1;
  const c = (k: number, lo = 0x80, hi = 0xbf): boolean => { const x = buf[i + k]; return x !== undefined && x >= lo && x <= hi; };
  if (b >= 0xc2 && b <= 0xdf) return c(1) ? 2 : 0;
  if (b === 0xe0) return c(1, 0xa0) && c(2) ? 3 : 0;
  if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) return c(1) && c(2) ? 3 : 0;
  if (b === 0xed) return c(1, 0x80, 0x9f) && c(2) ? 3 : 0;
  if (b === 0xf0) return c(1, 0x90) && c(2) && c(3) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) return c(1) && c(2) && c(3) ? 4 : 0;
  if (b === 0xf4) return c(1, 0x80, 0x8f) && c(2) && c(3) ? 4 : 0;
  return 0;
}
