// ClickHouse's own compressed blocks, for compress=1 (the answer) and decompress=1 (the request body), the framing
// of its CompressedWriteBuffer: a 16-byte CityHash128 (1.0.2) of the rest of the block, one method byte (0x82 LZ4,
// 0x02 none, 0x90 ZSTD), the block's compressed size (these 9 header bytes included) and its uncompressed size,
// both 32-bit little-endian, then the payload. The LZ4 is the raw block format; lz4-napi (lz4_flex) writes it with a
// 4-byte size in front, which is dropped here, and reads it with that size put back.
import { Transform, type TransformCallback } from 'node:stream';
import { compressSync, uncompressSync } from 'lz4-napi';
import { cityHash128 } from './cityhash128.js';
import { chError } from '../errors.js';

export const Method = { NONE: 0x02, LZ4: 0x82, ZSTD: 0x90 } as const;

/** CompressedWriteBuffer compresses its 1 MiB buffer at a time. */
const MAX_BLOCK = 1024 * 1024;
/** ClickHouse refuses a block above 1 GiB either way (DBMS_MAX_COMPRESSED_SIZE). */
const MAX_SIZE = 0x40000000;
const HEADER = 9;

function checksumInto(out: Buffer, block: Buffer): void {
  const h = cityHash128(block);
  out.writeBigUInt64LE(h.low, 0);
  out.writeBigUInt64LE(h.high, 8);
}

/** `data` as LZ4 blocks of at most 1 MiB each. */
export function compressBlocks(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < data.length; at += MAX_BLOCK) {
    const piece = data.subarray(at, Math.min(data.length, at + MAX_BLOCK));
    const lz4 = compressSync(piece).subarray(4);
    const frame = Buffer.allocUnsafe(16 + HEADER + lz4.length);
    frame[16] = Method.LZ4;
    frame.writeUInt32LE(HEADER + lz4.length, 17);
    frame.writeUInt32LE(piece.length, 21);
    lz4.copy(frame, 16 + HEADER);
    checksumInto(frame, frame.subarray(16));
    parts.push(frame);
  }
  return parts.length === 1 ? parts[0] as Buffer : Buffer.concat(parts);
}

/**
 * A stream that turns ClickHouse compressed blocks back into their bytes, block by block. A wrong checksum is
 * CHECKSUM_DOESNT_MATCH unless `verify` is off (http_native_compression_disable_checksumming_on_decompress); a
 * method it cannot read, a size beyond 1 GiB or a body cut inside a block each get ClickHouse's error.
 */
export function createBlockDecoder(verify: boolean): Transform {
  // Chunks are joined only once a whole block is in (joining at every chunk copied a 1 MiB block a hundred times).
  let pending: Buffer = Buffer.alloc(0);
  const waiting: Buffer[] = [];
  let waitingBytes = 0;
  let need = 16 + HEADER;
  let blocks = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      waiting.push(chunk);
      waitingBytes += chunk.length;
      if (pending.length + waitingBytes < need) { cb(); return; }
      pending = Buffer.concat([pending, ...waiting]);
      waiting.length = 0;
      waitingBytes = 0;
      try {
        while (pending.length >= 16 + HEADER) {
          const size = pending.readUInt32LE(17);
          const raw = pending.readUInt32LE(21);
          if (size < HEADER || size > MAX_SIZE || raw > MAX_SIZE) throw chError('TOO_LARGE_SIZE_COMPRESSED', `Too large size of a compressed block (compressed ${size}, uncompressed ${raw}; at most ${MAX_SIZE}) in block ${blocks}`);
          need = 16 + size;
          if (pending.length < need) break;
          need = 16 + HEADER;
          const block = pending.subarray(16, 16 + size);
          if (verify) {
            const h = cityHash128(block);
            if (h.low !== pending.readBigUInt64LE(0) || h.high !== pending.readBigUInt64LE(8)) {
              throw chError('CHECKSUM_DOESNT_MATCH', `Checksum doesn't match: corrupted data in compressed block ${blocks} of the request body`);
            }
          }
          this.push(decodeBlock(block, raw, blocks));
          pending = pending.subarray(16 + size);
          blocks++;
        }
        cb();
      } catch (error) {
        cb(error as Error);
      }
    },
    flush(cb) {
      if (waitingBytes > 0) pending = Buffer.concat([pending, ...waiting]);
      cb(pending.length > 0 ? chError('CANNOT_DECOMPRESS', `The request body ends inside compressed block ${blocks} (${pending.length} bytes left over)`) : null);
    },
  });
}

function decodeBlock(block: Buffer, raw: number, index: number): Buffer {
  const payload = block.subarray(HEADER);
  const method = block[0];
  if (method === Method.NONE) return Buffer.from(payload);
  if (method === Method.LZ4) {
    const sized = Buffer.allocUnsafe(4 + payload.length);
    sized.writeUInt32LE(raw, 0);
    payload.copy(sized, 4);
    try {
      return uncompressSync(sized);
    } catch (error) {
      throw chError('CANNOT_DECOMPRESS', `Cannot decompress LZ4 block ${index} of the request body: ${(error as Error).message}`);
    }
  }
  throw chError('UNKNOWN_COMPRESSION_METHOD', `Unknown compression method 0x${(method ?? 0).toString(16)} in block ${index} of the request body: this server reads LZ4 (0x82) and uncompressed (0x02) blocks`);
}
