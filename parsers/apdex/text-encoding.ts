// Which encoding an export file uses.
// 1C writes the export as UTF-8 with a BOM; UTF-16 (with or without BOM) is accepted because XML allows it.

export const Encodings = { Utf8: 'utf8', Utf16le: 'utf16le', Utf16be: 'utf16be' } as const;
export type Encoding = (typeof Encodings)[keyof typeof Encodings];

export interface Detected {
  encoding: Encoding;
  /** Bytes of byte-order mark to skip (0, 2 or 3). */
  bom: number;
}

/**
 * Decides the encoding from the first bytes (XML 1.0 appendix F): a BOM, else a zero byte next to
 * the first non-zero one (`<` or whitespace in UTF-16). Returns null while fewer than 3 bytes are known
 * and more may come. Also works from a checkpoint inside the file, where no BOM is seen.
 */
export function detectEncoding(head: Buffer, final: boolean): Detected | null {
  if (head.length < 3 && !final) return null;
  const [a, b, c] = [head[0], head[1], head[2]];
  if (a === 0xef && b === 0xbb && c === 0xbf) return { encoding: Encodings.Utf8, bom: 3 };
  if (a === 0xff && b === 0xfe) return { encoding: Encodings.Utf16le, bom: 2 };
  if (a === 0xfe && b === 0xff) return { encoding: Encodings.Utf16be, bom: 2 };
  if (a !== undefined && b !== undefined) {
    if (a !== 0 && b === 0) return { encoding: Encodings.Utf16le, bom: 0 };
    if (a === 0 && b !== 0) return { encoding: Encodings.Utf16be, bom: 0 };
  }
  return { encoding: Encodings.Utf8, bom: 0 };
}
