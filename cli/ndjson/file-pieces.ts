// `parse` of one large file on every core: the file cut into pieces of about a given size, each at a line where a
// record may start, worker threads parsing pieces side by side, and this thread printing their lines in file order.
// What a piece needs from the pieces before it is the format's own business (pg: the lock-wait episode builder's
// state, pg-pieces.ts; TJ: nothing once a cut is known to fall between events, tj-pieces.ts). The output is the
// one-thread path's, byte for byte, which each format's test holds.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Bytes of file per piece: `fallback`, or the environment's `variable` (tests cut small files into many pieces; a
 * size above the file's keeps it on one thread).
 */
export function pieceBytes(variable: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env[variable]);
  return Number.isInteger(n) && n >= 1024 ? n : fallback;
}

/** Below this a file is parsed by one thread: starting the others (~40 ms each) would cost more than they save. */
const MIN_FILE_BYTES = 8 * 1024 * 1024;

/**
 * Threads worth starting for a file of `size` bytes: 0 when one thread should parse it alone. Threads pay only on
 * idle cores: with a load average at or above the cores there is none, and the pieces then cost their extra CPU (a
 * third more than one thread) and gave nothing back (`parse tj` of 200 MB at load 35 on 2 cores: 16.1 s in pieces,
 * 11.9 s on one thread; bench/RESULTS.md). PERFPIPE_PIECE_THREADS sets the count whatever the load (tests).
 */
export function pieceThreads(size: number, bytesPerPiece: number, env: NodeJS.ProcessEnv = process.env, load = loadavg()[0] as number): number {
  if (size < Math.max(MIN_FILE_BYTES, 2 * bytesPerPiece)) return 0;
  const cores = availableParallelism();
  const forced = env.PERFPIPE_PIECE_THREADS === undefined ? Number.NaN : Number(env.PERFPIPE_PIECE_THREADS);
  const threads = Number.isInteger(forced) ? forced : load < cores ? Math.min(cores, 4) : 0;
  return threads >= 2 ? threads : 0;
}

/** Longest stretch searched past a cut's target for a line a piece may start at. */
const SEARCH_BYTES = 1024 * 1024;
/**
 * Bytes read at a time while searching: a piece's first line is most often within a few hundred bytes of its target,
 * and reading SEARCH_BYTES per cut read the whole file once more (200 MB for a 200 MB journal in 1 MiB pieces).
 */
const SEARCH_STEP = 64 * 1024;

/** Whether the line `buf[start, nl)` (`nl` its line feed) may begin a piece. */
export type StartsPiece = (buf: Buffer, start: number, nl: number) => boolean;

/**
 * Offsets after 0 where pieces begin, about `bytesPerPiece` apart: the first byte of a line `startsHere` accepts.
 * A target with no such line within SEARCH_BYTES after it is skipped (its piece grows).
 */
export function pieceStarts(file: string, bytesPerPiece: number, startsHere: StartsPiece): number[] {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const starts: number[] = [];
    const window = Buffer.allocUnsafe(SEARCH_BYTES);
    for (let target = bytesPerPiece; target < size; target += bytesPerPiece) {
      const from = Math.max(target, (starts[starts.length - 1] ?? 0) + 1) - 1; // the byte before: a line may start at target
      const at = firstStart(fd, window, from, startsHere);
      if (at >= 0) starts.push(from + at);
    }
    return starts;
  } finally {
    closeSync(fd);
  }
}

/**
 * Where in the window read at `from` the first line `startsHere` accepts begins, or -1 for none within SEARCH_BYTES:
 * the first line starts after the first line feed, and only a line whose line feed was read counts.
 */
function firstStart(fd: number, window: Buffer, from: number, startsHere: StartsPiece): number {
  let n = 0;
  let ls = -1;
  while (n < window.length) {
    const read = readSync(fd, window, n, Math.min(SEARCH_STEP, window.length - n), from + n);
    if (read === 0) break;
    n += read;
    if (ls < 0) {
      const lf = window.indexOf(10);
      if (lf < 0 || lf >= n) continue;
      ls = lf + 1;
    }
    // Bytes past `n` are an earlier read's: a line feed found there is none.
    for (let nl = window.indexOf(10, ls); ls < n && nl >= 0 && nl < n; nl = window.indexOf(10, ls)) {
      if (startsHere(window, ls, nl)) return ls;
      ls = nl + 1;
    }
  }
  return -1;
}

/**
 * A worker thread running `module` (a file beside this one, named without its extension) with `job` as its
 * workerData. Compiled: the .js; from source (the tests, under tsx): the .ts, loaded through tsx.
 */
function startWorker(module: string, job: unknown): Worker {
  const ext = extname(fileURLToPath(import.meta.url));
  const url = new URL(`./${module}${ext}`, import.meta.url);
  const options = { workerData: job };
  if (ext !== '.ts') return new Worker(url, options);
  // A worker's entry is loaded before hooks of an inherited --import apply: register tsx first, then import it.
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

/** What a worker sends back for a piece. */
export interface PieceResult {
  index: number;
}

export interface PieceRun<Done extends PieceResult> {
  /** The worker's module beside this file (without extension), and its workerData. */
  worker: string;
  job: unknown;
  /** Pieces, and threads to start (fewer when there are fewer pieces). */
  count: number;
  threads: number;
  /**
   * Pieces a thread holds at most, handed out but not yet consumed (1 when not given): with 2 a thread starts its
   * next piece while this thread prints its last, instead of waiting for the print and a message each way.
   */
  ahead?: number;
  /** The message that hands piece `index` to its thread. */
  piece(index: number): unknown;
  /**
   * Said once the threads were started, and of each piece as it arrives (not in order): `post` sends a message to the
   * thread that has or will have piece `index`. Piece `index` goes to thread `index % threads`.
   */
  started?(post: (index: number, message: unknown) => void): void;
  arrived?(done: Done, post: (index: number, message: unknown) => void): void;
  /** Each piece in file order: prints it (or drops it). */
  consume(done: Done): Promise<void>;
}

/**
 * Runs the pieces `threads` at a time and hands each to `consume` in file order. A thread is given a new piece only
 * once one it held was consumed, so a slow reader of stdout holds at most `ahead` pieces per thread in memory, and
 * piece `i` always goes to thread `i % threads`.
 */
export async function runPieces<Done extends PieceResult>(run: PieceRun<Done>): Promise<void> {
  const { count } = run;
  const n = Math.max(1, Math.min(run.threads, count));
  const workers = Array.from({ length: n }, () => startWorker(run.worker, run.job));
  const post = (index: number, message: unknown): void => (workers[index % n] as Worker).postMessage(message);
  let next = 0;
  const assign = (): void => {
    if (next >= count) return;
    post(next, run.piece(next));
    next++;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const waiting = new Map<number, Done>();
      let consumed = 0;
      let consuming = Promise.resolve();
      let finished = false;
      const consumeReady = (): void => {
        for (let done = waiting.get(consumed); done !== undefined; done = waiting.get(consumed)) {
          waiting.delete(consumed);
          const last = ++consumed === count;
          consuming = consuming.then(() => run.consume(done as Done)).then(() => {
            assign(); // piece index + n × ahead, for this piece's thread
            if (last) {
              finished = true;
              resolve();
            }
          });
          consuming.catch(reject);
        }
      };
      for (const w of workers) {
        w.on('message', (done: Done) => {
          run.arrived?.(done, post);
          waiting.set(done.index, done);
          consumeReady();
        });
        w.on('error', reject);
        w.on('exit', (code) => {
          if (!finished) reject(new Error(`parse: a parsing thread stopped (exit code ${code}) before the file was read`));
        });
      }
      for (let i = 0; i < n * Math.max(1, run.ahead ?? 1); i++) assign();
      run.started?.(post);
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
