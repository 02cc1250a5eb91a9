// `parse tj` of a large journal on every core (the threads and the order: file-pieces.ts). The journal is cut at
// lines that start like an event header, and each piece is framed from its cut by a thread of its own
// (tj-piece-worker.ts). Nothing of an event's meaning runs across events, so a piece whose cut falls between events
// prints what one thread prints for those bytes. A header-like line may also sit inside a quoted value that runs over
// lines (docs/tj-format.md §3): the piece before such a cut then reads on past it, and this thread drops the pieces it
// covered. The output is the one-thread path's (tj-ndjson.ts) for any cuts, checked by test/tj-parse-pieces.test.ts.
//
// Why: `parse tj` of the 200 MB bench journal is ~2.7 s of CPU on one core (node --cpu-prof: JSON escaping of values
// 24 %, framing 21 %, the event writer 11 %) against ~1.4 s for the read + decode reference (bench/parse-cli.ts).
import { matchHeader } from '../../parsers/tj/header.js';
import type { NdjsonPiece } from './ndjson-encoder.js';
import { pieceBytes, runPieces, type StartsPiece } from './file-pieces.js';
import type { TjPieceDone, TjPieceJob, ToTjPieceWorker } from './tj-piece-worker.js';

/** Bytes of journal per piece; PERFPIPE_TJ_PIECE_BYTES sets it for tests, which cut small journals into many pieces. */
export function tjPieceBytes(env: NodeJS.ProcessEnv = process.env): number {
  return pieceBytes('PERFPIPE_TJ_PIECE_BYTES', 1024 * 1024, env);
}

/** A piece begins at a line that starts with an event header. */
export const startsEvent: StartsPiece = (buf, start, nl) => matchHeader(buf, start, nl, true) >= 0;

/**
 * Which pieces are printed, in file order: a piece whose start is where the printed ones stopped. Any other began
 * inside bytes an earlier piece read past its cut; its framer started inside an event.
 */
export class PieceChain {
  private printedTo = 0;

  constructor(private readonly starts: readonly number[]) {}

  keeps(done: Pick<TjPieceDone, 'index' | 'end'>): boolean {
    if (this.starts[done.index] !== this.printedTo) return false;
    this.printedTo = done.end;
    return true;
  }
}

/** Parses the journal in the pieces `job.starts` begins, `threads` at a time, and prints them in file order. */
export async function parseTjInPieces(job: TjPieceJob, threads: number, print: (pieces: NdjsonPiece[]) => Promise<void>): Promise<void> {
  const chain = new PieceChain(job.starts);
  await runPieces<TjPieceDone>({
    worker: 'tj-piece-worker', job, count: job.starts.length, threads, ahead: 2,
    piece: (index): ToTjPieceWorker => ({ index }),
    consume: async (done) => {
      if (!chain.keeps(done)) return;
      await print([{ ndjson: Buffer.from(done.ndjson.buffer, done.ndjson.byteOffset, done.ndjson.byteLength), errors: done.errors }]);
    },
  });
}
