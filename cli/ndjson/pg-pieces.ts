// `parse pg` of a large stderr log on every core. The file is cut into pieces of about PIECE_BYTES, each beginning at
// a line that starts an entry (the prefix, then a severity word: the framer ends the entry before it there and carries
// nothing past it, stderr-framing.ts), and worker threads parse and write the pieces side by side
// (pg-piece-worker.ts; the threads and the order: file-pieces.ts). Lock-wait episodes are the one thing that runs
// across pieces: the episode builder's state goes from each piece's thread to the next piece's, which feeds its
// events in order and says where the episodes go in its lines. This thread writes the pieces in file order with those patches: the same bytes as the one-thread
// path (pg-lines.ts), checked by test/pg-parse-pieces.test.ts.
//
// Why: over the 100 MB bench log the one-thread `parse pg` spends ~0.9 s building records and ~1.4 s writing their
// JSON on one core while the other waits (node --cpu-prof); pgBadger -j 1 is the reference (bench/parse-cli.ts).
import type { PrefixMatcher } from '../../parsers/pg/prefix.js';
import type { NdjsonPiece } from './ndjson-encoder.js';
import { pieceBytes as bytesPerPiece, runPieces, type StartsPiece } from './file-pieces.js';
import type { PieceDone, PieceJob, ToPieceWorker } from './pg-piece-worker.js';

/**
 * Bytes of log per piece. Over the 100 MB bench log (`parse pg` > /dev/null, two runs each): 0.5 MiB 2.49–2.54 s,
 * 1 MiB 2.24–2.46 s and peak RSS 230–245 MB, 2 MiB 2.46–2.48 s, 4 MiB 2.44–2.66 s (350–365 MB), 8 MiB 2.68–2.70 s
 * (386–408 MB): a piece's NDJSON (~3.7× the log) and what its episode pass keeps wait in memory until written.
 * PERFPIPE_PG_PIECE_BYTES sets it for tests, which cut small logs into many pieces.
 */
export function pieceBytes(env: NodeJS.ProcessEnv = process.env): number {
  return bytesPerPiece('PERFPIPE_PG_PIECE_BYTES', 1024 * 1024, env);
}

/** A piece begins at a line that starts an entry: the prefix, then a severity word. */
export function startsEntry(matcher: PrefixMatcher): StartsPiece {
  return (buf, start, nl) => {
    const first = buf[start];
    if (first === 9 || first === 32 || first === 13 || start === nl) return false; // continuations and blank lines
    const end = buf[nl - 1] === 13 ? nl - 1 : nl;
    const text = buf.toString('utf8', start, end);
    if (text.includes('\uFFFD')) return false; // not plain UTF-8: leave the framer's decoding alone
    return matcher.match(text)?.head.type === 'sev';
  };
}

export interface PiecesResult {
  lines: number;
  entries: number;
}

/** The piece's lines with its episodes in place of their `[]`, in one buffer. */
function patched(done: PieceDone): Buffer {
  const bytes = Buffer.from(done.ndjson.buffer, done.ndjson.byteOffset, done.ndjson.byteLength);
  if (done.patches.length === 0) return bytes;
  const parts: Buffer[] = [];
  let from = 0;
  for (const [at, json] of done.patches) {
    parts.push(bytes.subarray(from, at), Buffer.from(json));
    from = at + 2; // past `[]`
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}

/**
 * Parses `file` in the pieces that `starts` cut it into, `threads` at a time (file-pieces.ts), and prints each piece's
 * lines and ingest errors in file order.
 */
export async function parsePgInPieces(job: PieceJob, size: number, starts: number[], threads: number, print: (pieces: NdjsonPiece[]) => Promise<void>): Promise<PiecesResult> {
  const bounds = [0, ...starts, size];
  const count = bounds.length - 1;
  const result: PiecesResult = { lines: 0, entries: 0 };
  await runPieces<PieceDone>({
    worker: 'pg-piece-worker', job, count, threads,
    piece: (index): ToPieceWorker => ({ type: 'piece', index, start: bounds[index] as number, end: bounds[index + 1] as number }),
    started: (post) => post(0, { type: 'state', index: 0, state: null } satisfies ToPieceWorker),
    // Pieces finish in file order: piece i + 1's builder state is piece i's, sent on at once.
    arrived: (done, post) => {
      if (done.index + 1 < count) post(done.index + 1, { type: 'state', index: done.index + 1, state: done.state } satisfies ToPieceWorker);
    },
    consume: async (done) => {
      result.lines += done.lines;
      result.entries += done.entries;
      await print([{ ndjson: patched(done), errors: done.errors }]);
    },
  });
  return result;
}
