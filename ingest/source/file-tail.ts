// Reads one file from its checkpoint to its end, again and again as it grows, through an incremental
// parser, and hands out segments (byte ranges with their records) to publish.
//
// The offset only moves forward after the bus acknowledged a segment (acknowledge, then checkpoint).
// Intents left by a crash are replayed first over exactly their byte ranges, so replays carry the same
// segment ids as the originals. The handle stays open after the path is renamed or deleted, so the
// rest of a rotated file is still read (docs/tailing.md §3). A record over the size limits is dropped as an
// IngestError and reading resumes at the next record (record-limits.ts). When the intent of a segment
// cannot be written (a full disk), nothing is published and nothing more is read until it can.
import type { FileHandle } from 'node:fs/promises';
import type { IncrementalParser } from '../../parsers/parser.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { type Family, type Segment, segmentId } from '../bus/bus.js';
import type { RowBuilder } from '../rows/row-builder.js';
import type { CheckpointStore, Intent } from './checkpoint-store.js';
import type { SourceEvents } from './source-events.js';
import { publishUntilAcked } from './publish-until-acked.js';
import type { ReadAhead } from './read-ahead.js';
import {
  lineBudget, oversizeError, RECORD_HEAD_BYTES, type LimitKind, type Oversize, type RecordLimits, type RecordStartTest,
} from './record-limits.js';

export interface FileTailOptions {
  host: string;
  source: string;
  family: Family;
  path: string;
  handle: FileHandle;
  fileKey: string;
  dev: number;
  ino: number;
  checkpoints: CheckpointStore;
  /** A parser from `offset`; a parser that encodes rows itself writes them into `rows` and returns no events. */
  createParser(offset: number, rows: RowBuilder): IncrementalParser<unknown>;
  /** Where the records' rows are encoded as they arrive (meaning decided at the edge: the family's <family>-rows.ts). */
  rows: RowBuilder;
  /**
   * Hand an acknowledged segment's buffers back to `rows` for later segments. Only where whoever `publish` hands
   * segments to keeps no reference past the acknowledgement: the pipeline's buses and sinks (bus.ts), not a test
   * that collects segments.
   */
  recycleAcked?: boolean;
  publish(segment: Segment): Promise<void>;
  events: SourceEvents;
  /** Cut a segment once it holds this many bytes. */
  segmentBytes: number;
  /**
   * A segment shorter than segmentBytes waits this long after its first byte was read for more to come before it
   * is cut at the file's end (0: cut at once). Fewer, larger inserts when a file grows a little at a time.
   */
  segmentDelayMs?: number;
  /** Segments of this file published but not yet acknowledged, at most. */
  maxInFlight: number;
  /** The bytes read ahead of what is stored, shared by every tail of the process (read-ahead.ts); absent: no bound. */
  readAhead?: ReadAhead;
  readChunkBytes: number;
  limits: RecordLimits;
  isRecordStart: RecordStartTest;
  /**
   * Whether the file still starts as it did when it was identified. A copytruncate followed by a rewrite
   * longer than our offset between two reads leaves the size above the offset; only the head tells.
   */
  stillSame?: () => Promise<boolean>;
  signal: AbortSignal;
}

interface InFlight {
  end: number;
  done: boolean;
  promise: Promise<void>;
}

const LF = 0x0a;
const EXCERPT_BYTES = 200;
const NO_BYTES = Buffer.alloc(0);

/**
 * Read buffers of the tails not reading right now. A daemon follows dozens of files (one per rphost and hour) and
 * reads one or two at a time: a buffer per tail kept a megabyte per file resident (docs/write-path.md §7).
 */
const readBuffers = {
  idle: [] as Buffer[],
  take(bytes: number): Buffer {
    const i = this.idle.findIndex((b) => b.length === bytes);
    return i < 0 ? Buffer.allocUnsafe(bytes) : (this.idle.splice(i, 1)[0] as Buffer);
  },
  give(buf: Buffer): void {
    if (buf.length > 0 && this.idle.length < 4) this.idle.push(buf);
  },
};

export class FileTail {
  path: string;
  readonly fileKey: string;
  readonly dev: number;
  readonly ino: number;
  finished = false;
  closed = false;
  /** The file was truncated (or rewritten) under us: the source forgets this tail and identifies the file anew. */
  truncated = false;
  /** When the file's size last changed, on the monotonic clock: a wall clock stepped back must not keep files open. */
  lastGrowth = performance.now();
  /** File size at the last read. */
  lastSize = -1;
  private readPos: number;
  private segStart: number;
  private parser: IncrementalParser<unknown> | null;
  private parserFinished = false;
  private lineStart: number;
  private over: Oversize | null = null;
  /** The last cut could not record its intent; it is retried before anything more is read. */
  private blocked: { final: boolean } | null = null;
  /** Records handed to the row builder since the last cut. */
  private pendingRecords = 0;
  private errors: IngestError[] = [];
  private readonly replay: Intent[];
  private readonly inFlight: InFlight[] = [];
  private pumping: Promise<void> | null = null;
  /** The read buffer, held only while a pump runs (readBuffers). */
  private buf: Buffer = NO_BYTES;
  /** When the first byte of the segment being gathered was read (monotonic ms), or -1 while it is empty. */
  private segmentOpenedAt = -1;
  /** The wake-up that cuts a waiting segment once its delay is over. */
  private cutTimer: NodeJS.Timeout | null = null;
  /** Everything below this offset is acknowledged. */
  private ackedEnd: number;
  /** What the segment being gathered was let in for by the read-ahead budget (0 once it is cut). */
  private letIn = 0;
  /** What this tail holds of the read-ahead budget, as last told. */
  private held = 0;

  constructor(private readonly o: FileTailOptions) {
    this.path = o.path;
    this.fileKey = o.fileKey;
    this.dev = o.dev;
    this.ino = o.ino;
    const cp = o.checkpoints.get(o.fileKey);
    this.readPos = cp?.offset ?? 0;
    this.ackedEnd = this.readPos;
    this.segStart = this.readPos;
    this.lineStart = this.readPos;
    this.replay = cp ? [...cp.intents] : [];
    this.finished = (cp?.finished ?? false) && this.replay.length === 0;
    this.parser = o.createParser(this.readPos, o.rows);
  }

  /** Acknowledged offset plus what is read but not yet acknowledged. */
  get position(): number {
    return this.readPos;
  }

  /** Read to the end seen last, nothing in flight, nothing held: closing it now loses nothing. */
  get idleAtEnd(): boolean {
    return this.lastSize >= 0 && !this.pumping && this.inFlight.length === 0 && !this.over && !this.blocked && this.segmentOpenedAt < 0
      && this.replay.length === 0 && this.readPos >= this.lastSize;
  }

  /** A segment's intent could not be written (a full disk): nothing more is read until it can. */
  get checkpointBlocked(): boolean {
    return this.blocked !== null;
  }

  /** Everything below this offset is accounted for by an emitted record or error. */
  private get settled(): number {
    return this.over ? this.over.start : (this.parser as IncrementalParser<unknown>).settled;
  }

  /** Reads what is there; `final` says the file will not grow any more (finish the parser). */
  pump(final = false): Promise<void> {
    const run = async (): Promise<void> => {
      this.buf = readBuffers.take(this.o.readChunkBytes);
      try {
        await this.pumpOnce(final);
      } finally {
        readBuffers.give(this.buf);
        this.buf = NO_BYTES;
        this.parser?.idle?.();
        // Let in for a segment that found nothing to read: give it back.
        if (this.segmentOpenedAt < 0) this.letIn = 0;
        this.tellReadAhead();
        // Only the last pump asked for clears the chain: clearing it while a later one waited let the next call start a
        // second pump beside that one, both reading at the same offset into the same buffer, so a range was parsed
        // twice and every offset after it was off by that range's length (the hour soak's pg_log, bench/memory-and-soak.md).
        if (this.pumping === next) this.pumping = null;
      }
    };
    const next: Promise<void> = (this.pumping ?? Promise.resolve()).then(run);
    this.pumping = next;
    return next;
  }

  /** Waits until every published segment of this file was acknowledged. */
  async drain(): Promise<void> {
    if (this.pumping) await this.pumping;
    await Promise.all(this.inFlight.map((f) => f.promise));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.cutTimer) clearTimeout(this.cutTimer);
    this.tellReadAhead();
    await this.o.handle.close().catch(() => {});
  }

  private async pumpOnce(final: boolean): Promise<void> {
    if (this.closed) return;
    if (this.blocked) {
      const { final: wasFinal } = this.blocked;
      if (!(await this.cut(wasFinal))) return;
      if (wasFinal) { this.markFinished(); return; }
    }
    let size = (await this.o.handle.stat()).size;
    if (this.finished && this.replay.length === 0) {
      // A file finished earlier (by `ingest`, or as superseded) that grew since: read on from where it ended,
      // with a fresh parser (the old one was finished).
      if (size <= this.readPos) return;
      this.finished = false;
      this.restartParser(this.readPos);
    }
    if (size < this.readPos || (size !== this.lastSize && this.o.stillSame && !(await this.o.stillSame()))) {
      this.o.events.fileTruncated(this.path, this.fileKey, size, this.readPos);
      this.truncated = true;
      // The bytes we knew are gone; what is there now is another file's content under a known identity.
      // This tail ends here; the source forgets its checkpoint and identifies the file anew from 0.
      this.finished = true;
      return;
    }
    // Growth is a size change, not bytes read: a tail that re-reads while skipping an oversized record is idle.
    if (size !== this.lastSize) this.lastGrowth = performance.now();
    this.lastSize = size;
    for (;;) {
      if (this.o.signal.aborted) return;
      const replay = this.replay[0];
      const limit = replay ? Math.min(replay.end, size) : size;
      const ended = replay ? replay.final : final;
      while (this.readPos < limit) {
        if (this.o.signal.aborted) return;
        if (this.over) {
          if (!(await this.skipOversized(limit, ended))) break;
          continue;
        }
        if (this.segmentOpenedAt < 0 && this.letIn === 0 && this.o.readAhead) {
          // A segment starts: only once what it may hold fits the process's read-ahead (read-ahead.ts).
          const bytes = Math.min(this.o.segmentBytes, limit - this.readPos);
          if (!(await this.o.readAhead.admit(bytes, this.o.signal))) return;
          this.letIn = bytes;
          this.held += bytes;
        }
        const parser = this.parser as IncrementalParser<unknown>;
        // Never hand the parser more than one byte past the event limit, so the check below is exact
        // whatever the read size: a replay drops exactly what the original run dropped.
        const room = parser.settled + this.o.limits.maxEventBytes + 1 - this.readPos;
        const n = Math.min(this.buf.length, limit - this.readPos, room);
        const { bytesRead } = await this.o.handle.read(this.buf, 0, n, this.readPos);
        if (bytesRead === 0) break;
        const budget = lineBudget(this.buf.subarray(0, bytesRead), this.readPos, this.lineStart, this.o.limits.maxLineBytes);
        this.lineStart = budget.lineStart;
        if (budget.cut > 0) {
          if (this.segmentOpenedAt < 0) this.segmentOpenedAt = performance.now();
          // A fresh buffer per read unless the parser copies what it keeps: 1 MiB allocated and freed per read left
          // the process's malloc heap fragmented (peak RSS of a 1 GB ingest ~60 MiB higher, docs/write-path.md).
          const chunk = this.buf.subarray(0, budget.cut);
          const out = parser.push(parser.copiesInput ? chunk : Buffer.from(chunk));
          this.readPos += budget.cut;
          this.tellReadAhead();
          this.o.events.bytesRead(this.path, budget.cut);
          this.collect(out.events, out.errors);
        }
        if (budget.longLineStart !== null) this.trip('line_too_long', budget.longLineStart, budget.longLineStart + this.o.limits.maxLineBytes);
        else if (this.readPos - parser.settled > this.o.limits.maxEventBytes) this.trip('event_too_large', parser.settled, parser.settled + this.o.limits.maxEventBytes);
        if (!replay && this.settled - this.segStart >= this.o.segmentBytes && !(await this.cut(false))) return;
      }
      if (replay) {
        if (this.readPos < replay.end) return; // the file is shorter than the intent: wait for it
        if (replay.final) this.collectFinish();
        this.o.events.replayed(this.path, replay.start, replay.end);
        await this.cut(replay.final, replay.end);
        this.replay.shift();
        if (replay.final) { this.markFinished(); return; }
        size = (await this.o.handle.stat()).size;
        this.lastSize = size;
        continue;
      }
      break;
    }
    // A finished file that ends inside an oversized record: that record runs to the end of the file.
    if (final && this.over && !this.o.signal.aborted) await this.skipOversized(this.readPos, true);
    if (final && !this.over) {
      this.collectFinish();
      if (!(await this.cut(true))) return;
      this.markFinished();
    } else if (this.settled > this.segStart || this.pendingRecords > 0 || this.errors.length > 0) {
      const wait = (this.o.segmentDelayMs ?? 0) - (performance.now() - this.segmentOpenedAt);
      if (wait <= 0 || this.o.signal.aborted) await this.cut(false);
      else this.cutLater(wait);
    }
  }

  /** Pumps again once a waiting segment's delay is over, so it is cut even if the file does not grow meanwhile. */
  private cutLater(ms: number): void {
    if (this.cutTimer) return;
    this.cutTimer = setTimeout(() => {
      this.cutTimer = null;
      if (!this.closed) void this.pump(false).catch(() => {});
    }, Math.ceil(ms));
  }

  /** The record at the parser's settled offset is over a limit: drop the parser, look for the next record from `scanFrom`. */
  private trip(kind: LimitKind, lineStart: number, scanFrom: number): void {
    this.over = { kind, start: (this.parser as IncrementalParser<unknown>).settled, lineStart, scanFrom };
    this.parser = null; // lets the bytes it held go
    this.readPos = scanFrom;
  }

  /**
   * Reads on from `readPos` up to `limit` looking for a line feed followed by a line that starts a record.
   * True once reading resumed there (or at the end of a finished file); false to wait for more bytes.
   */
  private async skipOversized(limit: number, final: boolean): Promise<boolean> {
    while (this.readPos < limit) {
      const n = Math.min(this.buf.length, limit - this.readPos);
      const { bytesRead } = await this.o.handle.read(this.buf, 0, n, this.readPos);
      if (bytesRead === 0) break;
      const chunk = this.buf.subarray(0, bytesRead);
      for (let p = 0; ;) {
        const nl = chunk.indexOf(LF, p);
        if (nl < 0) {
          this.o.events.bytesRead(this.path, bytesRead);
          this.readPos += bytesRead;
          break;
        }
        const at = this.readPos + nl + 1;
        const head = await this.lineHead(chunk, nl + 1, at, final);
        if (head === null) {
          // The next line is not complete enough to judge: look at this line feed again on the next read.
          this.o.events.bytesRead(this.path, nl);
          this.readPos += nl;
          return false;
        }
        if (head.length > 0 && this.o.isRecordStart(head)) {
          this.o.events.bytesRead(this.path, nl + 1);
          await this.resume(at, false);
          return true;
        }
        p = nl + 1;
      }
    }
    if (final && this.readPos >= limit) {
      await this.resume(limit, true);
      return true;
    }
    return false;
  }

  /**
   * Up to RECORD_HEAD_BYTES of the line at `at`, read past the current limit when needed (a replay ends at
   * the record start the original run judged by these same bytes); null while that line is too short to
   * judge and may still grow.
   */
  private async lineHead(chunk: Buffer, rel: number, at: number, final: boolean): Promise<Buffer | null> {
    let head = chunk.subarray(rel, rel + RECORD_HEAD_BYTES);
    if (head.length < RECORD_HEAD_BYTES) {
      const more = Buffer.alloc(RECORD_HEAD_BYTES);
      const { bytesRead } = await this.o.handle.read(more, 0, more.length, at);
      head = more.subarray(0, bytesRead);
    }
    if (head.length < RECORD_HEAD_BYTES && !head.includes(LF) && !final) return null;
    return head;
  }

  private async resume(at: number, atEnd: boolean): Promise<void> {
    const over = this.over as Oversize;
    const excerpt = Buffer.alloc(Math.min(EXCERPT_BYTES, at - over.start));
    await this.o.handle.read(excerpt, 0, excerpt.length, over.start);
    this.errors.push(oversizeError(
      { host: this.o.host, source: this.o.source, file: this.path, file_key: this.fileKey, limits: this.o.limits },
      over, at, excerpt, atEnd,
    ));
    this.o.events.recordDropped(this.path, over.kind, over.start, at - over.start);
    this.over = null;
    this.restartParser(at);
  }

  private restartParser(at: number): void {
    this.parser = this.o.createParser(at, this.o.rows);
    this.parserFinished = false;
    this.readPos = at;
    this.lineStart = at;
  }

  private collect(events: unknown[], errors: IngestError[]): void {
    // Encoded now, not held to the cut: no per-record object lives longer than this call (docs/write-path.md).
    if (events.length > 0) this.o.rows.add(events);
    this.pendingRecords += events.length;
    for (const e of errors) this.errors.push(e);
  }

  private collectFinish(): void {
    if (this.parserFinished || !this.parser) return;
    this.parserFinished = true;
    const out = this.parser.finish();
    this.collect(out.events, out.errors);
  }

  private markFinished(): void {
    this.finished = true;
    this.o.checkpoints.recordFinished(this.fileKey);
    this.o.events.fileFinished(this.path, this.fileKey, this.readPos);
  }

  /**
   * Cuts [segStart, end) into a segment, records the intent (unless replaying one) and publishes it.
   * False when the intent could not be written: nothing was published and the cut is retried later.
   */
  private async cut(final: boolean, forcedEnd?: number): Promise<boolean> {
    const end = forcedEnd ?? (final ? this.readPos : this.settled);
    if (end <= this.segStart && this.pendingRecords === 0 && this.errors.length === 0 && !this.rowsPending()) { this.blocked = null; return true; }
    while (this.inFlight.length >= this.o.maxInFlight && !this.o.signal.aborted) await this.inFlight[0]?.promise;
    if (forcedEnd === undefined) {
      try {
        this.o.checkpoints.recordIntent(this.fileKey, this.path, this.segStart, end, final);
      } catch (error) {
        this.o.events.checkpointFailed(this.path, error as Error);
        this.blocked = { final };
        return false;
      }
    }
    const { records, tables } = this.o.rows.take();
    const segment: Segment = {
      id: segmentId(this.o.host, this.fileKey, this.segStart, end),
      family: this.o.family,
      host: this.o.host,
      source: this.o.source,
      file: this.path,
      file_key: this.fileKey,
      start: this.segStart,
      end,
      records,
      tables,
      errors: this.errors,
    };
    this.blocked = null;
    this.pendingRecords = 0;
    this.errors = [];
    this.segmentOpenedAt = this.settled > end ? performance.now() : -1;
    this.segStart = end;
    this.letIn = 0;
    this.tellReadAhead();
    const entry: InFlight = { end, done: false, promise: Promise.resolve() };
    // Retried with backoff while running (publish-until-acked.ts).
    entry.promise = publishUntilAcked(this.o.publish, segment, this.o.events, this.o.signal, segment.end - segment.start, this.path).then((acked) => {
      entry.done = acked;
      // Acknowledged: the pipeline reads the segment's bytes no more, its buffers may be written again.
      if (acked && this.o.recycleAcked) this.o.rows.recycle?.(segment.tables);
      if (acked) this.ackInOrder();
      else this.inFlight.splice(this.inFlight.indexOf(entry)); // stopping: this and later ones replay after restart
    });
    this.inFlight.push(entry);
    return true;
  }

  /** Whether a parser that encodes its own rows wrote some since the last cut (it hands out no events to count). */
  private rowsPending(): boolean {
    return this.o.rows.pending?.() ?? false;
  }

  /**
   * Tells the read-ahead budget what this tail holds now: the segments cut and not acknowledged, and the one being
   * gathered (at least what it was let in for); nothing once closed.
   */
  private tellReadAhead(): void {
    if (!this.o.readAhead) return;
    const held = this.closed ? 0 : this.segStart - this.ackedEnd + Math.max(this.letIn, this.readPos - this.segStart, 0);
    if (held === this.held) return;
    this.o.readAhead.change(held - this.held);
    this.held = held;
  }

  private ackInOrder(): void {
    while (this.inFlight[0]?.done) {
      const head = this.inFlight.shift() as InFlight;
      this.o.checkpoints.recordAck(this.fileKey, head.end);
      this.ackedEnd = head.end;
      this.tellReadAhead();
    }
  }
}
