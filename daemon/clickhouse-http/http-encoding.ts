// HTTP compression as ClickHouse speaks it: the answer is compressed only when the request set
// enable_http_compression=1 and sent an Accept-Encoding this server can write; a request body is decompressed by its
// Content-Encoding. gzip, deflate and br come from node:zlib as streams; lz4 is the LZ4 frame format, its blocks
// compressed by lz4-napi (already used by the Kafka bus), a request body decoded whole because lz4-napi has no
// streaming frame decoder. zstd and xz need libraries Node 20 lacks, and no client at its defaults sends them unasked.
import { type Duplex, pipeline, Readable, Transform } from 'node:stream';
import { constants, createBrotliCompress, createBrotliDecompress, createDeflate, createGunzip, createGzip, createInflate } from 'node:zlib';
import { compressSync, decompressFrameSync } from 'lz4-napi';
import { chError } from './errors.js';

/**
 * Encodings this server writes, in the order it prefers them when a client accepts several: the cheapest to write
 * first, since the answer is compressed on the daemon's main thread (lz4 several times faster than gzip at level 3,
 * brotli the slowest).
 */
const WRITABLE = ['lz4', 'gzip', 'deflate', 'br'] as const;
type Writable = (typeof WRITABLE)[number];

/** The encoding to answer in, or null: the first this server prefers among those the client accepts (q=0 refuses). */
export function chooseResponseEncoding(acceptEncoding: string | undefined): Writable | null {
  if (!acceptEncoding) return null;
  const accepted = new Set(acceptEncoding.split(',').map((part) => part.trim().split(';')).filter(([, q]) => !/^\s*q=0(\.0*)?\s*$/.test(q ?? '')).map(([name]) => (name ?? '').trim().toLowerCase()));
  return WRITABLE.find((e) => accepted.has(e) || (e === 'deflate' && accepted.has('zlib'))) ?? null;
}

/** A stream that compresses in `encoding` at ClickHouse's http_zlib_compression_level (1-9, default 3). */
export function createEncoder(encoding: Writable, level: number): Transform {
  if (encoding === 'gzip') return createGzip({ level });
  if (encoding === 'deflate') return createDeflate({ level });
  if (encoding === 'br') return createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: level } });
  return createLz4FrameEncoder();
}

/**
 * One LZ4 frame for the whole answer, written block by block: lz4-napi compresses a whole frame at once only, and
 * some readers (lz4_flex's among them) stop after the first of several concatenated frames. The frame descriptor is
 * fixed: independent blocks of at most 64 KiB, no checksums (FLG 0x60, BD 0x40, and its header checksum 0x82).
 */
function createLz4FrameEncoder(): Transform {
  const BLOCK = 64 * 1024;
  let started = false;
  const header = Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x60, 0x40, 0x82]);
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      const parts: Buffer[] = [];
      if (!started) { parts.push(header); started = true; }
      for (let at = 0; at < chunk.length; at += BLOCK) {
        const piece = chunk.subarray(at, at + BLOCK);
        const packed = compressSync(piece).subarray(4);
        const size = Buffer.allocUnsafe(4);
        // A block that does not shrink goes as it is, its size's top bit set.
        if (packed.length >= piece.length) { size.writeUInt32LE((piece.length | 0x80000000) >>> 0); parts.push(size, piece); } else { size.writeUInt32LE(packed.length); parts.push(size, packed); }
      }
      cb(null, Buffer.concat(parts));
    },
    flush(cb) {
      cb(null, started ? Buffer.alloc(4) : Buffer.concat([header, Buffer.alloc(4)]));
    },
  });
}

/**
 * The request body decoded by its Content-Encoding. An encoding this server cannot read is ClickHouse's
 * UNKNOWN_COMPRESSION_METHOD; an lz4 body above `maxBytes` compressed is refused before it is held.
 */
export function decodeBody(body: Readable, contentEncoding: string | undefined, maxBytes: number): Readable {
  const name = (contentEncoding ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity' || name === 'none') return body;
  if (name === 'gzip' || name === 'x-gzip') return decodedThrough(body, createGunzip());
  if (name === 'deflate' || name === 'zlib') return decodedThrough(body, createInflate());
  if (name === 'br') return decodedThrough(body, createBrotliDecompress());
  if (name === 'lz4') return Readable.from(lz4Frames(body, maxBytes));
  throw chError('UNKNOWN_COMPRESSION_METHOD', `Unknown compression method '${name}' in Content-Encoding: this server reads gzip, deflate, br and lz4`);
}

/**
 * `body` through `decoder`, an error or abort of either ending the other: with `.pipe`, a client killed mid-request
 * left the decoder waiting for bytes that never came, and its query held one of the server's query slots for ever
 * (`npm run chaos` with store kills: after a few sink kills a restarted sink found every slot taken).
 */
export function decodedThrough(body: Readable, decoder: Duplex): Readable {
  return pipeline(body, decoder, () => {});
}

async function* lz4Frames(body: Readable, maxBytes: number): AsyncGenerator<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw chError('TOO_LARGE_SIZE_COMPRESSED', `the lz4 request body is larger than ${maxBytes} bytes`);
    parts.push(chunk as Buffer);
  }
  if (size === 0) return;
  try {
    yield decompressFrameSync(Buffer.concat(parts));
  } catch (error) {
    throw chError('CANNOT_DECOMPRESS', `cannot decompress the lz4 request body: ${(error as Error).message}`);
  }
}
