// The shared loop of `perfpipe parse <format> FILE…`: each file read in chunks through its NDJSON encoder,
// records as NDJSON on stdout, ingest errors as JSON lines on stderr. Exit 0 when every file was read (even
// with errors found in it), 2 when a file could not be read.
//
// Encoders write lines as bytes (cli/ndjson/ndjson-buffer.ts, json-text.ts) and hand them over a piece per chunk, one
// write each: a write or an await per line cost more than printing it. A slow reader still bounds memory: the loop
// waits for stdout to drain before reading on.
import { once } from 'node:events';
import { readSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { IngestError } from '../../schemas/ingest-error.js';
import { identifyFile } from '../../ingest/source/fingerprint.js';
import { NdjsonBuffer } from '../ndjson/ndjson-buffer.js';
import type { NdjsonEncoder, NdjsonPiece } from '../ndjson/ndjson-encoder.js';

interface FileParsingCommon {
  /** Lines written to stderr before an error's JSON, or null to leave the error out (say it once, not per event). */
  note?(error: IngestError): string[] | null;
  /** Said on stderr once the file was read, when something about the whole file is worth saying. */
  afterFile?(): string | null;
}

/**
 * How one file is parsed: fed to an encoder chunk by chunk, or read by `whole` on its own (several threads:
 * ndjson/file-pieces.ts), which prints through `print`.
 */
export type FileParsing = FileParsingCommon & (
  | { encoder: NdjsonEncoder; whole?: never }
  | { whole(print: (pieces: NdjsonPiece[]) => Promise<void>): Promise<void>; encoder?: never }
);

/** What `start` knows of the file it makes an encoder for. */
export interface FileToParse {
  file: string;
  fileKey: string;
  /** Bytes when it was opened. */
  size: number;
}

/**
 * Read size for an encoder that writes straight from the file's bytes (TJ): fewer, larger reads and writes. At
 * 64 KiB `parse tj` of 200 MB took 2.0-2.7 s against 1.6-1.8 s.
 */
export const BYTE_ENCODER_CHUNK = 1024 * 1024;
/**
 * Read size for an encoder that builds an object per record before writing it (PostgreSQL, atop): a chunk's records
 * are alive together, and perfpipe's young generation is 2 MiB (bin/perfpipe.js). At 1 MiB a chunk's records
 * outlived the young generation and 28 % of `parse pg`'s time was garbage collection (node --cpu-prof); at 64 KiB
 * they die young: `parse pg` of 100 MB 2.96-3.87 s against 3.43-4.43 s (alternating runs; atop unchanged).
 */
export const OBJECT_ENCODER_CHUNK = 64 * 1024;
/** Errors are few and a person may be watching: written in batches of this size at most. */
const STDERR_FLUSH = 64 * 1024;

export async function parseFilesToNdjson(files: string[], start: (file: FileToParse) => FileParsing, chunkBytes: number): Promise<number> {
  let unreadable = 0;
  for (const file of files) {
    try {
      const st = await stat(file);
      if (!st.isFile()) throw new Error('not a regular file');
    } catch (error) {
      process.stderr.write(`perfpipe: cannot read ${file}: ${(error as Error).message}\n`);
      unreadable++;
      continue;
    }
    await parseFile(file, start, chunkBytes);
  }
  return unreadable > 0 ? 2 : 0;
}

async function parseFile(file: string, start: (file: FileToParse) => FileParsing, chunkBytes: number): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const st = await handle.stat();
    const identity = await identifyFile(handle, st.dev, st.ino, true);
    if (!identity) return; // empty (or a BOM only): nothing in it
    const parsing = start({ file, fileKey: identity.file_key, size: st.size });
    const { encoder, note } = parsing;
    const stderr = new NdjsonBuffer(STDERR_FLUSH);
    const print = async (pieces: NdjsonPiece[]): Promise<void> => {
      for (const { ndjson, errors } of pieces) {
        if (ndjson.length > 0 && !process.stdout.write(ndjson)) await once(process.stdout, 'drain');
        for (const e of errors) {
          const before = note ? note(e) : [];
          if (before === null) continue;
          for (const text of before) stderr.utf8(`${text}\n`);
          stderr.record(e);
        }
        if (stderr.pos >= STDERR_FLUSH) await flush(stderr, process.stderr);
      }
    };
    if (encoder === undefined) {
      await parsing.whole(print);
    } else {
      for (let pos = 0; ;) {
        // A fresh buffer per read: an encoder may keep the bytes of an unfinished record.
        const buf = Buffer.allocUnsafe(chunkBytes);
        // Read synchronously: the command has nothing else to do meanwhile, and an awaited read per 64 KiB chunk was
        // a thread-pool round trip each, 0.19 s of idle in a 3.4 s `parse pg` of 100 MB (node --cpu-prof).
        const bytesRead = readSync(handle.fd, buf, 0, chunkBytes, pos);
        if (bytesRead === 0) break;
        pos += bytesRead;
        await print(encoder.push(bytesRead === chunkBytes ? buf : buf.subarray(0, bytesRead)));
      }
      await print(encoder.finish());
    }
    const after = parsing.afterFile?.() ?? null;
    if (after !== null) stderr.utf8(`${after}\n`);
    await flush(stderr, process.stderr);
  } finally {
    await handle.close();
  }
}

async function flush(bytes: NdjsonBuffer, stream: Writable): Promise<void> {
  if (bytes.pos === 0) return;
  if (!stream.write(bytes.take())) await once(stream, 'drain');
}
