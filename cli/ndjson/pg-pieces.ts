// `parse pg` of a large stderr log on every core. The file is cut into pieces of about PIECE_BYTES, each beginning at
// a line that starts an entry (the prefix, then a severity word: the framer ends the entry before it there and carries
// nothing past it, stderr-framing.ts), and worker threads parse and write the pieces side by side
// (pg-piece-worker.ts). Lock-wait episodes are the one thing that runs across pieces: the episode builder's state
// goes from each piece's thread to the next piece's, which feeds its events in order and says where the episodes go
// in its lines. This thread writes the pieces in file order with those patches: the same bytes as the one-thread
// path (pg-lines.ts), checked by test/pg-parse-pieces.test.ts.
//
// Why: over the 100 MB bench log the one-thread `parse pg` spends ~0.9 s building records and ~1.4 s writing their
// JSON on one core while the other waits (node --cpu-prof); pgBadger -j 1 is the reference (bench/parse-cli.ts).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PrefixMatcher } from '../../parsers/pg/prefix.js';
import type { NdjsonPiece } from './ndjson-encoder.js';
import type { PieceDone, PieceJob, ToPieceWorker } from './pg-piece-worker.js';

/**
 * Bytes of log per piece. Over the 100 MB bench log (`parse pg` > /dev/null, two runs each): 0.5 MiB 2.49–2.54 s,
 * 1 MiB 2.24–2.46 s and peak RSS 230–245 MB, 2 MiB 2.46–2.48 s, 4 MiB 2.44–2.66 s (350–365 MB), 8 MiB 2.68–2.70 s
 * (386–408 MB): a piece's NDJSON (~3.7× the log) and what its episode pass keeps wait in memory until written.
 * PERFPIPE_PG_PIECE_BYTES sets it for tests, which cut small logs into many pieces.
 */
export function pieceBytes(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.PERFPIPE_PG_PIECE_BYTES);
  return Number.isInteger(n) && n >= 1024 ? n : 1024 * 1024;
}

/** Below this a file is parsed by one thread: starting the others (~40 ms each) would cost more than they save. */
const MIN_FILE_BYTES = 8 * 1024 * 1024;

/** Threads worth starting for a file of `size` bytes: 0 when one thread should parse it alone. */
export function pieceThreads(size: number, bytesPerPiece: number): number {
  const threads = Math.min(availableParallelism(), 4);
  return threads >= 2 && size >= Math.max(MIN_FILE_BYTES, 2 * bytesPerPiece) ? threads : 0;
}

/** Longest stretch searched past a cut's target for a line that starts an entry. */
const SEARCH_BYTES = 1024 * 1024;

/**
 * Offsets after 0 where pieces begin, about `bytesPerPiece` apart: the first byte of a line that starts an entry.
 * A target with no such line within SEARCH_BYTES after it is skipped (its piece grows).
 */
export function pieceStarts(file: string, bytesPerPiece: number, matcher: PrefixMatcher): number[] {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const starts: number[] = [];
    const window = Buffer.allocUnsafe(SEARCH_BYTES);
    for (let target = bytesPerPiece; target < size; target += bytesPerPiece) {
      const from = Math.max(target, (starts[starts.length - 1] ?? 0) + 1) - 1; // the byte before: a line may start at target
      const n = readSync(fd, window, 0, window.length, from);
      let ls = window.indexOf(10) + 1; // lines start after a line feed
      while (ls > 0 && ls < n) {
        const nl = window.indexOf(10, ls);
        if (nl < 0) break; // a line that does not end within the window is no place to cut
        if (startsEntry(window, ls, nl, matcher)) {
          starts.push(from + ls);
          break;
        }
        ls = nl + 1;
      }
    }
    return starts;
  } finally {
    closeSync(fd);
  }
}

function startsEntry(buf: Buffer, start: number, nl: number, matcher: PrefixMatcher): boolean {
  const first = buf[start];
  if (first === 9 || first === 32 || first === 13 || start === nl) return false; // continuations and blank lines
  const end = buf[nl - 1] === 13 ? nl - 1 : nl;
  const text = buf.toString('utf8', start, end);
  if (text.includes('\uFFFD')) return false; // not plain UTF-8: leave the framer's decoding alone
  return matcher.match(text)?.head.type === 'sev';
}

export interface PiecesResult {
  lines: number;
  entries: number;
}

/** Compiled: pg-piece-worker.js beside this file; from source (the tests, under tsx): the .ts, loaded through tsx. */
function startWorker(job: PieceJob): Worker {
  const ext = extname(fileURLToPath(import.meta.url));
  const url = new URL(`./pg-piece-worker${ext}`, import.meta.url);
  const options = { workerData: job };
  if (ext !== '.ts') return new Worker(url, options);
  // A worker's entry is loaded before hooks of an inherited --import apply: register tsx first, then import it.
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
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
 * Parses `file` in the pieces that `starts` cut it into, `threads` at a time, and prints each piece's lines and ingest
 * errors in file order. A piece is handed to a thread only once the piece that thread wrote before was printed, so a
 * slow reader of stdout holds at most one piece per thread in memory.
 */
export async function parsePgInPieces(job: PieceJob, size: number, starts: number[], threads: number, print: (pieces: NdjsonPiece[]) => Promise<void>): Promise<PiecesResult> {
  const bounds = [0, ...starts, size];
  const count = bounds.length - 1;
  const n = Math.max(1, Math.min(threads, count));
  const workers = Array.from({ length: n }, () => startWorker(job));
  const result: PiecesResult = { lines: 0, entries: 0 };
  let next = 0;
  const assign = (w: Worker): void => {
    if (next >= count) return;
    const message: ToPieceWorker = { type: 'piece', index: next, start: bounds[next] as number, end: bounds[next + 1] as number };
    w.postMessage(message);
    next++;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      let printed = Promise.resolve();
      let finished = false;
      for (const w of workers) {
        w.on('message', (done: PieceDone) => {
          // Pieces finish in file order: piece i + 1's builder state is this message's, sent on at once.
          const following = done.index + 1;
          if (following < count) {
            const message: ToPieceWorker = { type: 'state', index: following, state: done.state };
            (workers[following % n] as Worker).postMessage(message);
          }
          result.lines += done.lines;
          result.entries += done.entries;
          printed = printed.then(() => print([{ ndjson: patched(done), errors: done.errors }])).then(() => {
            assign(w); // piece index + n: this thread's next, since pieces go round the threads in order
            if (done.index === count - 1) {
              finished = true;
              resolve();
            }
          });
          printed.catch(reject);
        });
        w.on('error', reject);
        w.on('exit', (code) => {
          if (!finished) reject(new Error(`parse pg: a parsing thread stopped (exit code ${code}) before the file was read`));
        });
      }
      for (const w of workers) assign(w);
      (workers[0] as Worker).postMessage({ type: 'state', index: 0, state: null } satisfies ToPieceWorker);
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return result;
}
