// File identity (docs/architecture.md §1, docs/tailing.md §1): a hash of the first line after the BOM plus the
// device and inode. Content alone confuses two files with equal first lines; inode alone confuses a
// deleted file with the next file that reuses its inode. A file whose first line is not complete yet
// has no identity and is not read (Vector does the same).
import type { FileHandle } from 'node:fs/promises';

export const FINGERPRINT_MAX_BYTES = 4096;

/** 64-bit FNV-1a over bytes as 16 hex digits, computed in two 32-bit halves (no BigInt in the loop). */
export function fnv1a64Hex(bytes: Uint8Array): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    h1 = Math.imul(h1 ^ b, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ b ^ (h1 >>> 24), 0x01000193) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

export interface FileIdentity {
  file_key: string;
  fingerprint: string;
  dev: number;
  ino: number;
}

/**
 * Reads the head of an open file and returns its identity, or null when the first line is not
 * complete yet. `whole` (the file is finished) accepts a file without any line break.
 */
export async function identifyFile(handle: FileHandle, dev: number, ino: number, whole = false): Promise<FileIdentity | null> {
  const head = Buffer.alloc(FINGERPRINT_MAX_BYTES + 3);
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  let bytes = head.subarray(0, bytesRead);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  const nl = bytes.indexOf(0x0a);
  let line: Buffer;
  if (nl >= 0) line = bytes.subarray(0, nl);
  else if (bytes.length >= FINGERPRINT_MAX_BYTES || (whole && bytes.length > 0)) line = bytes.subarray(0, FINGERPRINT_MAX_BYTES);
  else return null;
  const fingerprint = fnv1a64Hex(line);
  return { fingerprint, dev, ino, file_key: `${fingerprint}-${dev.toString(36)}-${ino.toString(36)}` };
}
