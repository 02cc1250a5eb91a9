// Which raw logs an `atop_raw` source reads and how each is known: the key is a hash of the file's first 4 KiB,
// which hold the raw header (host name, atop version) and the first sample record with its time, so it tells
// apart the daily files of one host and stays the same when a file is moved or copied (rawlog.h, docs/atop-format.md §9).
// The text sources add device and inode to their keys because equal first lines are common; equal first samples
// are not, and leaving the inode out keeps a restored or moved log from being read twice.
import { open } from 'node:fs/promises';
import { fnv1a64Hex } from '../fingerprint.js';

export const RAW_KEY_BYTES = 4096;

/** `struct rawheader` starts with the magic 0xfeedbeef, written in the host's (little-endian) byte order. */
const MAGIC = 0xfeedbeef;

export type RawLogIdentity =
  | { kind: 'raw'; file_key: string; size: number }
  /** Fewer than 4 KiB so far: atop is still writing its first sample. */
  | { kind: 'short'; size: number }
  | { kind: 'not_raw'; size: number };

export async function identifyRawLog(path: string): Promise<RawLogIdentity> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const head = Buffer.alloc(RAW_KEY_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead >= 4 && head.readUInt32LE(0) !== MAGIC) return { kind: 'not_raw', size };
    if (bytesRead < RAW_KEY_BYTES) return { kind: 'short', size };
    return { kind: 'raw', file_key: `raw-${fnv1a64Hex(head)}`, size };
  } finally {
    await handle.close();
  }
}
