// A worker thread of `parse tj` over a large journal (tj-pieces.ts): reads one piece at a time with a framer of its
// own started at the piece's first byte, and writes its events' lines as the one-thread path does (tj-ndjson.ts).
// A piece is read up to the next cut at which its framer stands between events (TjFramer.betweenEvents). Where it does
// not (the cut fell inside a quoted value that runs over lines, or inside a run of garbage lines), the piece reads on
// to the cut after, and the main thread drops the pieces it covered: their framers started inside an event.
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { TjFramer } from '../../parsers/tj/framing.js';
import type { TjFileContext } from '../../parsers/tj/tj-parser.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { TjNdjsonLines } from './tj-ndjson.js';

export interface TjPieceJob {
  /** The file's context as the one-thread path has it; each piece's framer starts at its own offset. */
  ctx: Omit<TjFileContext, 'offset'>;
  /** Where the pieces begin: 0, then each cut, increasing. The last piece runs to the end of the file. */
  starts: number[];
  /** Bytes per read (and per framer push). */
  chunkBytes: number;
}

export interface ToTjPieceWorker {
  index: number;
}

export interface TjPieceDone {
  index: number;
  /** The lines of the events from the piece's start to `end`. */
  ndjson: Uint8Array;
  errors: IngestError[];
  /** Where this piece's reading stopped: a later cut (between events) or the end of the file. */
  end: number;
}

/** Reads `length` bytes of the file at `position` into `buf`; returns how many it read (0 at the end). */
export type ReadAt = (buf: Buffer, position: number) => number;

/** Reads piece `index` of the file through `lines` (a thread's writer, kept from piece to piece). */
export function readTjPiece(read: ReadAt, lines: TjNdjsonLines, starts: readonly number[], index: number, chunkBytes: number): TjPieceDone {
  const start = starts[index] as number;
  const framer = new TjFramer(start);
  let cut = index + 1;
  let pos = start;
  for (;;) {
    const limit = cut < starts.length ? starts[cut] as number : Number.POSITIVE_INFINITY;
    // A fresh buffer per read: the framer may keep the bytes of an unfinished event.
    const buf = Buffer.allocUnsafe(Math.min(chunkBytes, limit - pos));
    const n = read(buf, pos);
    if (n === 0) {
      framer.end();
      lines.writeFound(framer);
      break;
    }
    pos += n;
    framer.push(n === buf.length ? buf : buf.subarray(0, n));
    lines.writeFound(framer);
    if (pos === limit) {
      if (framer.betweenEvents) break;
      cut++;
    }
  }
  const { ndjson, errors } = lines.take();
  return { index, ndjson, errors, end: pos };
}

if (parentPort !== null) {
  const port = parentPort;
  const job = workerData as TjPieceJob;
  const fd = openSync(job.ctx.file, 'r');
  const lines = new TjNdjsonLines({ ...job.ctx, offset: 0 });
  const read: ReadAt = (buf, position) => readSync(fd, buf, 0, buf.length, position);
  port.on('message', (m: ToTjPieceWorker) => {
    const done = readTjPiece(read, lines, job.starts, m.index, job.chunkBytes);
    // The lines' buffer is handed over, not copied: it is at least 2 MiB, so never one of Buffer's shared pools.
    port.postMessage(done, [done.ndjson.buffer as ArrayBuffer]);
  });
  port.once('close', () => closeSync(fd));
}
