// A worker thread of `parse pg` over a large stderr log (pg-pieces.ts): parses one piece of the file at a time, each
// piece beginning at an entry's first line, and writes its lines as pg-lines.ts does, with `"lock_episodes":[]`
// where the episodes go. Lock-wait episodes run across pieces, so they are found afterwards: once the thread that
// holds the previous piece hands over the episode builder's state, this one feeds its piece's events to the builder
// in order and returns, with the lines, where each non-empty `lock_episodes` goes and what it holds, and the state
// for the next piece. The lines are written while the other thread parses; only the builder pass waits its turn.
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { createPgParser, type PgParserOptions } from '../../parsers/pg/index.js';
import { activityOf, createLockEpisodeBuilder, type LockEpisodeState } from '../../parsers/pg/lock-episodes.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import type { PgEvent } from '../../schemas/pg-event.js';
import type { PgStreamEvent } from '../../schemas/pg-stream-event.js';
import { NdjsonBuffer } from './ndjson-buffer.js';
import { RecordJsonWriter } from './record-json.js';

export interface PieceJob {
  /** The stderr parser's options, as the one-thread path has them; each piece sets its own `offset`. */
  parser: Omit<PgParserOptions, 'offset' | 'format'>;
  /** Bytes per read (and per parser push), as the single-thread path reads. */
  chunkBytes: number;
}

export type ToPieceWorker =
  | { type: 'piece'; index: number; start: number; end: number }
  | { type: 'state'; index: number; state: LockEpisodeState | null };

export interface PieceDone {
  type: 'done';
  index: number;
  /** The piece's lines, `lock_episodes` empty in each. */
  ndjson: Uint8Array;
  /** Where a line's `[]` of `lock_episodes` starts in `ndjson`, and the JSON that replaces it, in order. */
  patches: Array<[number, string]>;
  errors: IngestError[];
  /** Records handed out (each a line), and those of them that began with the prefix. */
  lines: number;
  entries: number;
  state: LockEpisodeState;
}

/** `,"lock_episodes":[]}\n` ends every line: the `[]` starts this many bytes before the line's end. */
const EMPTY_EPISODES_FROM_END = 4;
const NONE: never[] = [];

/**
 * What the episode pass needs of a piece's events, kept instead of the events (which die young as on one thread):
 * a lock wait whole, any other event by its pid, kind, time and activity; where its line ends; nothing for an event
 * without a pid, which the builder skips.
 */
interface Parsed {
  index: number;
  waits: (PgEvent | null)[];
  pids: number[];
  kinds: PgEvent['kind'][];
  times: (string | null)[];
  activities: (string | null)[];
  ends: number[];
  out: NdjsonBuffer;
  errors: IngestError[];
  lines: number;
  entries: number;
}

function parsePiece(job: PieceJob, fd: number, index: number, start: number, end: number): Parsed {
  const parser = createPgParser({ ...job.parser, offset: start, format: 'stderr' });
  const writer = new RecordJsonWriter();
  // About 3.7 bytes of NDJSON per byte of log: one buffer for the piece, grown rarely.
  const out = new NdjsonBuffer(Math.max(1 << 20, (end - start) * 4));
  const p: Parsed = { index, waits: [], pids: [], kinds: [], times: [], activities: [], ends: [], out, errors: [], lines: 0, entries: 0 };
  const take = ({ events, errors }: { events: PgEvent[]; errors: IngestError[] }): void => {
    for (const e of events) {
      (e as PgStreamEvent).lock_episodes = NONE;
      writer.line(e, out);
      p.lines++;
      if (e.severity !== null) p.entries++;
      const pid = e.lock?.pid ?? e.pid;
      if (pid === null) continue;
      const wait = e.kind === 'lock_wait' && e.lock !== null;
      p.waits.push(wait ? e : null);
      p.pids.push(pid);
      p.kinds.push(e.kind);
      p.times.push(e.ts);
      p.activities.push(wait ? null : activityOf(e));
      p.ends.push(out.pos);
    }
    for (const error of errors) p.errors.push(error);
  };
  for (let pos = start; pos < end;) {
    // A fresh buffer per read: the parser may keep the bytes of an unfinished entry.
    const buf = Buffer.allocUnsafe(Math.min(job.chunkBytes, end - pos));
    const n = readSync(fd, buf, 0, buf.length, pos);
    if (n === 0) break; // the file shrank under us: what was read is all there is
    pos += n;
    take(parser.push(n === buf.length ? buf : buf.subarray(0, n)));
  }
  take(parser.finish());
  return p;
}

function episodesOf(p: Parsed, state: LockEpisodeState | null): PieceDone {
  const builder = createLockEpisodeBuilder(state ?? undefined);
  const patches: Array<[number, string]> = [];
  const bytes = p.out.buf;
  for (let i = 0; i < p.pids.length; i++) {
    const wait = p.waits[i] as PgEvent | null;
    const closed = wait !== null ? builder.push([wait])
      : builder.pushActivity(p.pids[i] as number, p.kinds[i] as PgEvent['kind'], p.times[i] as string | null, p.activities[i] as string | null);
    if (closed.length === 0) continue;
    const at = (p.ends[i] as number) - EMPTY_EPISODES_FROM_END;
    if (bytes[at] !== 0x5b || bytes[at + 1] !== 0x5d || bytes[at + 2] !== 0x7d || bytes[at + 3] !== 0x0a) {
      throw new Error(`parse pg: a line of piece ${p.index} does not end with an empty lock_episodes`);
    }
    patches.push([at, JSON.stringify(closed)]);
  }
  const ndjson = bytes.subarray(0, p.out.pos);
  return { type: 'done', index: p.index, ndjson, patches, errors: p.errors, lines: p.lines, entries: p.entries, state: builder.state() };
}

if (parentPort !== null) {
  const port = parentPort;
  const job = workerData as PieceJob;
  const fd = openSync(job.parser.file, 'r');
  let parsed: Parsed | null = null;
  // The state may come first: the main thread hands this thread its next piece only once its last one was printed.
  let early: { index: number; state: LockEpisodeState | null } | null = null;
  const finish = (p: Parsed, state: LockEpisodeState | null): void => {
    const done = episodesOf(p, state);
    // The piece's buffer is handed over, not copied: it is at least 1 MiB, so never one of Buffer's shared pools.
    port.postMessage(done, [done.ndjson.buffer as ArrayBuffer]);
  };
  port.on('message', (m: ToPieceWorker) => {
    if (m.type === 'piece') {
      const p = parsePiece(job, fd, m.index, m.start, m.end);
      if (early?.index === m.index) {
        const { state } = early;
        early = null;
        finish(p, state);
      } else {
        parsed = p;
      }
      return;
    }
    if (parsed?.index === m.index) {
      const p = parsed;
      parsed = null;
      finish(p, m.state);
    } else {
      early = { index: m.index, state: m.state };
    }
  });
  port.once('close', () => closeSync(fd));
}
