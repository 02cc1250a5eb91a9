// Durable read positions of a source's files (docs/architecture.md §3): an append-only journal of intents
// ("range [s, e) of file K is being published") and acknowledgements, compacted into a snapshot.
//
// An intent is fsync'ed before its segment is published; an ack is written lazily after the segment
// was acknowledged downstream. After a crash, every intent above the acked offset is replayed over
// exactly the same byte range, so the sink sees the same segment id and ClickHouse drops the copy.
// A lost ack therefore costs a deduplicated replay, never a duplicate row.
//
// A write that fails (ENOSPC on a full disk) leaves the journal as it was: the torn tail is cut off, the
// failed intent is taken back (its segment is not published) and lazy entries stay pending for the next
// sync. So a full disk pauses reading; it never loses an offset nor publishes a range without its intent.
import {
  mkdirSync, openSync, readFileSync, renameSync, writeFileSync, existsSync, fsyncSync, closeSync, writeSync, ftruncateSync, fstatSync, rmSync,
} from 'node:fs';
import { join } from 'node:path';

export interface FileCheckpoint {
  file_key: string;
  path: string;
  /** Every byte below this offset is acknowledged downstream. */
  offset: number;
  /** Published but not yet acknowledged ranges above `offset`, in file order. */
  intents: Intent[];
  finished: boolean;
}

export interface Intent {
  start: number;
  end: number;
  /** The range was cut after the file was finished (its last record had no line break). */
  final: boolean;
}

type Entry =
  | { t: 'i'; k: string; p: string; s: number; e: number; f?: 1 }
  | { t: 'a'; k: string; e: number }
  | { t: 'f'; k: string }
  | { t: 'd'; k: string };

const COMPACT_AFTER = 20_000;

export class CheckpointStore {
  private readonly files = new Map<string, FileCheckpoint>();
  private journalFd: number;
  private journalLines = 0;
  /** Bytes of the journal known to be written whole. */
  private journalBytes = 0;
  private pending: string[] = [];

  private constructor(private readonly dir: string) {
    this.load();
    this.journalFd = openSync(this.journalPath, 'a');
    this.journalBytes = fstatSync(this.journalFd).size;
  }

  /** Opens (creating) the store in `dir`; one store per source. */
  static open(dir: string): CheckpointStore {
    mkdirSync(dir, { recursive: true });
    return new CheckpointStore(dir);
  }

  private get journalPath(): string { return join(this.dir, 'journal.jsonl'); }
  private get snapshotPath(): string { return join(this.dir, 'snapshot.json'); }

  get(fileKey: string): FileCheckpoint | undefined {
    return this.files.get(fileKey);
  }

  all(): FileCheckpoint[] {
    return [...this.files.values()];
  }

  /**
   * Durably records that [start, end) of a file is about to be published. Throws when it cannot be
   * written, and then the store is as if it had not been called: the caller must not publish.
   */
  recordIntent(fileKey: string, path: string, start: number, end: number, final: boolean): void {
    const e: Entry = { t: 'i', k: fileKey, p: path, s: start, e: end, ...(final ? { f: 1 as const } : {}) };
    const before = this.files.get(fileKey);
    const saved = before ? { ...before, intents: [...before.intents] } : undefined;
    this.apply(e);
    const line = `${JSON.stringify(e)}\n`;
    this.pending.push(line);
    try {
      this.sync();
    } catch (error) {
      const at = this.pending.lastIndexOf(line);
      if (at >= 0) this.pending.splice(at, 1);
      if (saved) this.files.set(fileKey, saved);
      else this.files.delete(fileKey);
      throw error;
    }
    this.journalLines++;
  }

  /** Records that everything below `end` is acknowledged; durable with the next sync. */
  recordAck(fileKey: string, end: number): void {
    const e: Entry = { t: 'a', k: fileKey, e: end };
    this.apply(e);
    this.append(e);
  }

  recordFinished(fileKey: string): void {
    const e: Entry = { t: 'f', k: fileKey };
    this.apply(e);
    this.append(e);
  }

  /** Forgets a file that is gone and fully acknowledged. */
  forget(fileKey: string): void {
    const e: Entry = { t: 'd', k: fileKey };
    this.apply(e);
    this.append(e);
  }

  /** Writes lazily recorded entries to disk; throws (with nothing torn left behind) when it cannot. */
  sync(): void {
    if (this.pending.length === 0 || this.journalFd < 0) return;
    const bytes = Buffer.from(this.pending.join(''));
    try {
      // writeSync may write part of the buffer (a nearly full disk) and throw on the next call.
      for (let done = 0; done < bytes.length;) done += writeSync(this.journalFd, bytes, done);
      fsyncSync(this.journalFd);
    } catch (error) {
      try { ftruncateSync(this.journalFd, this.journalBytes); } catch { /* the torn tail is skipped on load */ }
      throw error;
    }
    this.journalBytes += bytes.length;
    this.pending = [];
    if (this.journalLines > COMPACT_AFTER) {
      try { this.compact(); } catch { /* the journal holds everything; compaction is tried at the next sync */ }
    }
  }

  /** Saves what is pending; on a full disk what could not be written is lost and replayed from older offsets. */
  close(): void {
    if (this.journalFd < 0) return;
    try {
      this.sync();
      this.compact();
    } finally {
      closeSync(this.journalFd);
      this.journalFd = -1;
    }
  }

  /** Queues a lazy entry for the next sync. */
  private append(e: Entry): void {
    this.pending.push(`${JSON.stringify(e)}\n`);
    this.journalLines++;
  }

  private apply(e: Entry): void {
    let cp = this.files.get(e.k);
    if (e.t === 'd') { this.files.delete(e.k); return; }
    if (!cp) {
      if (e.t !== 'i') return;
      cp = { file_key: e.k, path: e.p, offset: e.s, intents: [], finished: false };
      this.files.set(e.k, cp);
    }
    if (e.t === 'i') {
      cp.path = e.p;
      if (e.e > cp.offset && !cp.intents.some((i) => i.start === e.s && i.end === e.e)) {
        cp.intents.push({ start: e.s, end: e.e, final: e.f === 1 });
      }
    } else if (e.t === 'a') {
      if (e.e > cp.offset) cp.offset = e.e;
      cp.intents = cp.intents.filter((i) => i.end > cp.offset);
    } else if (e.t === 'f') {
      cp.finished = true;
    }
  }

  private load(): void {
    if (existsSync(this.snapshotPath)) {
      const snap = JSON.parse(readFileSync(this.snapshotPath, 'utf8')) as { files: FileCheckpoint[] };
      for (const f of snap.files) this.files.set(f.file_key, f);
    }
    if (existsSync(this.journalPath)) {
      const lines = readFileSync(this.journalPath, 'utf8').split('\n');
      for (const line of lines) {
        if (line === '') continue;
        try {
          this.apply(JSON.parse(line) as Entry);
        } catch {
          // A torn last line from a crash mid-write: everything before it is intact.
        }
        this.journalLines++;
      }
    }
  }

  /**
   * Snapshot first, then truncate the journal: replaying a journal over its snapshot is harmless. A
   * snapshot that cannot be written is removed and the journal kept; compaction is tried again later.
   */
  private compact(): void {
    const tmp = `${this.snapshotPath}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify({ files: this.all() }));
      const fd = openSync(tmp, 'r');
      fsyncSync(fd);
      closeSync(fd);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
    renameSync(tmp, this.snapshotPath);
    ftruncateSync(this.journalFd, 0);
    this.journalBytes = 0;
    this.journalLines = 0;
  }
}
