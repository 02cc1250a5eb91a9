// Reads one file from its checkpoint to its end, again and again as it grows, through an incremental
// parser, and hands out segments (byte ranges with their records) to publish.
//
// The offset only moves forward after the bus acknowledged a segment (acknowledge, then checkpoint).
// Intents left by a crash are replayed first over exactly their byte ranges, so replays carry the same
// segment ids as the originals. The handle stays open after the path is renamed or deleted, so the
// rest of a rotated file is still read (tailing.md §0.3).
import type { FileHandle } from 'node:fs/promises';
import type { IncrementalParser } from '../../parsers/parser.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { type Family, type Segment, segmentId } from '../bus/bus.js';
import type { CheckpointStore, Intent } from './checkpoint-store.js';
import type { SourceEvents } from './source-events.js';

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
  createParser(offset: number): IncrementalParser<unknown>;
  publish(segment: Segment): Promise<void>;
  events: SourceEvents;
  /** Cut a segment once it holds this many bytes. */
  segmentBytes: number;
  /** Segments of this file published but not yet acknowledged, at most. */
  maxInFlight: number;
  readChunkBytes: number;
  signal: AbortSignal;
}

interface InFlight {
  end: number;
  done: boolean;
  promise: Promise<void>;
}

export class FileTail {
  path: string;
  readonly fileKey: string;
  readonly dev: number;
  readonly ino: number;
  finished = false;
  closed = false;
  lastGrowth = Date.now();
  private readPos: number;
  private segStart: number;
  private parser: IncrementalParser<unknown>;
  private events: unknown[] = [];
  private errors: IngestError[] = [];
  private readonly replay: Intent[];
  private readonly inFlight: InFlight[] = [];
  private pumping: Promise<void> | null = null;
  private readonly buf: Buffer;

  constructor(private readonly o: FileTailOptions) {
    this.path = o.path;
    this.fileKey = o.fileKey;
    this.dev = o.dev;
    this.ino = o.ino;
    const cp = o.checkpoints.get(o.fileKey);
    this.readPos = cp?.offset ?? 0;
    this.segStart = this.readPos;
    this.replay = cp ? [...cp.intents] : [];
    this.finished = (cp?.finished ?? false) && this.replay.length === 0;
    this.parser = o.createParser(this.readPos);
    this.buf = Buffer.allocUnsafe(o.readChunkBytes);
  }

  /** Acknowledged offset plus what is read but not yet acknowledged. */
  get position(): number {
    return this.readPos;
  }

  /** Reads what is there; `final` says the file will not grow any more (finish the parser). */
  pump(final = false): Promise<void> {
    const run = async (): Promise<void> => {
      try {
        await this.pumpOnce(final);
      } finally {
        this.pumping = null;
      }
    };
    this.pumping = (this.pumping ?? Promise.resolve()).then(run);
    return this.pumping;
  }

  /** Waits until every published segment of this file was acknowledged. */
  async drain(): Promise<void> {
    if (this.pumping) await this.pumping;
    await Promise.all(this.inFlight.map((f) => f.promise));
  }

  /** The file was truncated under us: the source forgets this tail and identifies the file anew. */
  truncated = false;

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.o.handle.close().catch(() => {});
  }

  private async pumpOnce(final: boolean): Promise<void> {
    if (this.closed) return;
    let size = (await this.o.handle.stat()).size;
    if (this.finished && this.replay.length === 0) {
      // A file finished earlier (by `ingest`, or as superseded) that grew since: read on from where it ended.
      if (size <= this.readPos) return;
      this.finished = false;
    }
    if (size < this.readPos) {
      this.o.events.fileTruncated(this.path, this.fileKey, size, this.readPos);
      this.truncated = true;
      // The bytes we knew are gone; what is there now is another file's content under a known
      // identity. Start over from 0 with a fresh parser: a new first line gives a new file key
      // on the next discovery, and this tail ends here.
      this.finished = true;
      return;
    }
    for (;;) {
      if (this.o.signal.aborted) return;
      const replay = this.replay[0];
      const limit = replay ? Math.min(replay.end, size) : size;
      while (this.readPos < limit) {
        if (this.o.signal.aborted) return;
        const n = Math.min(this.buf.length, limit - this.readPos);
        const { bytesRead } = await this.o.handle.read(this.buf, 0, n, this.readPos);
        if (bytesRead === 0) break;
        const out = this.parser.push(Buffer.from(this.buf.subarray(0, bytesRead)));
        this.readPos += bytesRead;
        this.lastGrowth = Date.now();
        this.o.events.bytesRead(this.path, bytesRead);
        this.collect(out.events, out.errors);
        if (!replay && this.parser.settled - this.segStart >= this.o.segmentBytes) await this.cut(false);
      }
      if (replay) {
        if (this.readPos < replay.end) return; // the file is shorter than the intent: wait for it
        if (replay.final) this.collectFinish();
        this.o.events.replayed(this.path, replay.start, replay.end);
        await this.cut(replay.final, replay.end);
        this.replay.shift();
        if (replay.final) { this.markFinished(); return; }
        size = (await this.o.handle.stat()).size;
        continue;
      }
      break;
    }
    if (final) {
      this.collectFinish();
      await this.cut(true);
      this.markFinished();
    } else if (this.parser.settled > this.segStart || this.events.length > 0 || this.errors.length > 0) {
      await this.cut(false);
    }
  }

  private collect(events: unknown[], errors: IngestError[]): void {
    for (const e of events) this.events.push(e);
    for (const e of errors) this.errors.push(e);
  }

  private collectFinish(): void {
    const out = this.parser.finish();
    this.collect(out.events, out.errors);
  }

  private markFinished(): void {
    this.finished = true;
    this.o.checkpoints.recordFinished(this.fileKey);
    this.o.events.fileFinished(this.path, this.fileKey, this.readPos);
  }

  /** Cuts [segStart, end) into a segment, records the intent (unless replaying one) and publishes it. */
  private async cut(final: boolean, forcedEnd?: number): Promise<void> {
    const end = forcedEnd ?? (final ? this.readPos : this.parser.settled);
    if (end <= this.segStart && this.events.length === 0 && this.errors.length === 0) return;
    while (this.inFlight.length >= this.o.maxInFlight && !this.o.signal.aborted) await this.inFlight[0]?.promise;
    const segment: Segment = {
      id: segmentId(this.o.host, this.fileKey, this.segStart, end),
      family: this.o.family,
      host: this.o.host,
      source: this.o.source,
      file: this.path,
      file_key: this.fileKey,
      start: this.segStart,
      end,
      events: this.events,
      errors: this.errors,
    };
    if (forcedEnd === undefined) this.o.checkpoints.recordIntent(this.fileKey, this.path, segment.start, end, final);
    this.events = [];
    this.errors = [];
    this.segStart = end;
    const entry: InFlight = { end, done: false, promise: Promise.resolve() };
    entry.promise = this.publishUntilAcked(segment).then((acked) => {
      entry.done = acked;
      if (acked) this.ackInOrder();
      else this.inFlight.splice(this.inFlight.indexOf(entry)); // stopping: this and later ones replay after restart
    });
    this.inFlight.push(entry);
  }

  /** Retries a failed publish of the same segment with capped exponential backoff while running. */
  private async publishUntilAcked(segment: Segment): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.o.publish(segment);
        this.o.events.segmentPublished(this.path, segment.events.length, segment.errors.length, segment.end - segment.start);
        return true;
      } catch (error) {
        this.o.events.publishFailed(this.path, error as Error, attempt);
        if (this.o.signal.aborted) return false; // its intent stays: replayed after restart
        await sleep(Math.min(30_000, 200 * 2 ** Math.min(attempt, 8)), this.o.signal);
      }
    }
  }

  private ackInOrder(): void {
    while (this.inFlight[0]?.done) {
      const head = this.inFlight.shift() as InFlight;
      this.o.checkpoints.recordAck(this.fileKey, head.end);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}
