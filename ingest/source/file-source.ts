// A source that follows (or backfills) the files a `discover` function lists: identifies each by
// fingerprint + device/inode, keeps one FileTail per identity, re-scans periodically and reads when
// chokidar hints at a change. chokidar only wakes the loop up; offsets, rotation, truncation and
// deletion are decided with fstat/stat here (docs/tailing.md §6).
//
// At most `maxOpenFiles` files are open at once. A file read to its end and idle is closed ("parked") to
// make room and opened again once its size changes; finished files are parked the same way, so a location
// with thousands of old files is not re-opened on every scan. A file that cannot be opened (permission
// denied) is reported once and retried on every scan; the other files go on.
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { watch, type FSWatcher } from 'chokidar';
import type { IncrementalParser } from '../../parsers/parser.js';
import type { Family, Segment } from '../bus/bus.js';
import type { RowBuilder } from '../rows/row-builder.js';
import { CheckpointStore } from './checkpoint-store.js';
import { identifyFile, type FileIdentity } from './fingerprint.js';
import type { FileHandle } from 'node:fs/promises';
import { FileTail } from './file-tail.js';
import type { SourceEvents } from './source-events.js';
import type { ReadAhead } from './read-ahead.js';
import { anyLine, UNLIMITED, type RecordLimits, type RecordStartTest } from './record-limits.js';
import { sleep, waitAtMost } from '../retry/sleep.js';
import { runSource, type Source } from './source.js';

export interface FileSourceOptions {
  /** Source kind written into every record's origin (`tj`, `pg`, `atop`). */
  source: string;
  family: Family;
  host: string;
  /** Directory of this source's checkpoint journal. */
  checkpointDir: string;
  /** Lists the candidate file paths, oldest first. */
  discover(): Promise<string[]>;
  /** Directories chokidar watches for wake-up hints. */
  watchRoots: string[];
  /** The file's parser from `offset`; one that encodes its records' rows itself writes them into `rows`. */
  createParser(path: string, identity: FileIdentity, offset: number, rows: RowBuilder): IncrementalParser<unknown>;
  /** A file's row builder: the family's (its descriptor's `rows`), one per file. */
  createRows(): RowBuilder;
  /**
   * How a file is identified; default the first-line fingerprint (fingerprint.ts). `whole` says the file is
   * finished. Null: not readable yet, asked again on the next scan. The APDEX source hashes whole exports.
   */
  identify?(path: string, handle: FileHandle, dev: number, ino: number, whole: boolean): Promise<FileIdentity | null>;
  /**
   * Follow mode only: whether a file that has not grown for `idleMs` will never grow again (a TJ
   * hour file once a newer hour file exists). Such files are finished and closed.
   */
  isSuperseded(path: string, allPaths: string[], idleMs: number): boolean;
  /** Whether a line starts a record: where reading resumes after an oversized record. Default: any line. */
  isRecordStart?: RecordStartTest;
  publish(segment: Segment): Promise<void>;
  events: SourceEvents;
  mode: 'follow' | 'backfill';
  pollIntervalMs: number;
  segmentBytes: number;
  /** Reuse the buffers of acknowledged segments (file-tail.ts `recycleAcked`); default false. */
  recycleAcked?: boolean;
  /** How long a short segment waits for more bytes before it is cut (file-tail.ts); default 0. */
  segmentDelayMs?: number;
  maxInFlightPerFile: number;
  readChunkBytes: number;
  /** Files read at the same time in backfill mode. */
  backfillConcurrency: number;
  /**
   * Files with the same key form one stream, read in discovery order one after another (in backfill, by one worker):
   * a TJ process folder's hour files, whose server calls may begin in one file and end in the next. Default: none.
   */
  sequenceOf?(path: string): string;
  /** Bytes read ahead of what is stored, over every tail of the process (read-ahead.ts); absent: no bound. */
  readAhead?: ReadAhead;
  /** Record size limits (the config's `pipeline.max_event_bytes` / `max_line_bytes`); absent: none. */
  limits?: RecordLimits;
  /** Files open at once, at most (the config's `pipeline.max_open_files`); absent: no limit. */
  maxOpenFiles?: number;
  /** A renamed-away or deleted file is read until it has not grown for this long (the config's `pipeline.rotate_wait_ms`). Default 0. */
  rotateWaitMs?: number;
}

/** A closed file and the size it had: opened again when the size differs. */
interface Parked {
  size: number;
  fileKey: string;
}

export function createFileSource(o: FileSourceOptions): Source {
  const checkpoints = CheckpointStore.open(o.checkpointDir);
  const tails = new Map<string, FileTail>(); // by dev:ino
  const parked = new Map<string, Parked>(); // by dev:ino
  const failing = new Map<string, string>(); // path → error code last reported
  const goneSince = new Map<string, number>(); // dev:ino → monotonic time it was first found gone
  const limits = o.limits ?? UNLIMITED;
  const maxOpen = o.maxOpenFiles ?? Number.POSITIVE_INFINITY;
  /** Aborts as a stop begins: scans end between files. */
  const stopping = new AbortController();
  /** Aborts once acknowledgements in flight had their moment: tails stop waiting and publishing. */
  const abort = new AbortController();
  let watcher: FSWatcher | null = null;
  let timer: NodeJS.Timeout | null = null;
  let syncTimer: NodeJS.Timeout | null = null;
  let cycle: Promise<void> | null = null;
  let again = false;
  let totalBytes = 0;

  function reportFailure(path: string, error: Error): void {
    const code = (error as NodeJS.ErrnoException).code ?? error.message;
    if (failing.get(path) === code) return; // reported already; retried quietly on every scan
    failing.set(path, code);
    o.events.readFailed(path, error);
  }

  function syncCheckpoints(): void {
    try {
      checkpoints.sync();
    } catch (error) {
      o.events.checkpointFailed('(checkpoints)', error as Error);
    }
  }

  async function openTail(path: string, known: string[]): Promise<FileTail | null> {
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      reportFailure(path, error as Error);
      return null;
    }
    try {
      const st = await handle.stat();
      const id = `${st.dev}:${st.ino}`;
      const existing = tails.get(id);
      if (existing) {
        await handle.close();
        if (existing.path !== path) { o.events.fileRotated(existing.path, path, existing.fileKey); existing.path = path; }
        return null;
      }
      const whole = o.mode === 'backfill' || o.isSuperseded(path, known, Date.now() - st.mtimeMs);
      const identity = o.identify ? await o.identify(path, handle, st.dev, st.ino, whole) : await identifyFile(handle, st.dev, st.ino, whole);
      if (!identity) { await handle.close(); return null; }
      // Only a fingerprint of a complete first line can be compared later; one of a partial line changes as it grows.
      const complete = !o.identify && (await identifyFile(handle, st.dev, st.ino, false))?.fingerprint === identity.fingerprint;
      const tail = new FileTail({
        host: o.host, source: o.source, family: o.family, path, handle,
        fileKey: identity.file_key, dev: st.dev, ino: st.ino, checkpoints,
        createParser: (offset, rows) => o.createParser(path, identity, offset, rows),
        rows: o.createRows(),
        publish: o.publish, events: o.events, segmentBytes: o.segmentBytes, segmentDelayMs: o.segmentDelayMs ?? 0, recycleAcked: o.recycleAcked ?? false,
        maxInFlight: o.maxInFlightPerFile, readChunkBytes: o.readChunkBytes, signal: abort.signal,
        ...(o.readAhead ? { readAhead: o.readAhead } : {}),
        limits, isRecordStart: o.isRecordStart ?? anyLine,
        ...(complete ? { stillSame: async () => (await identifyFile(handle, st.dev, st.ino, false))?.fingerprint === identity.fingerprint } : {}),
      });
      failing.delete(path);
      tails.set(id, tail);
      parked.delete(id);
      o.events.fileAdded(path, identity.file_key, tail.position);
      return tail;
    } catch (error) {
      await handle.close().catch(() => {});
      reportFailure(path, error as Error);
      return null;
    }
  }

  async function retire(id: string, tail: FileTail): Promise<void> {
    await tail.drain();
    await tail.close();
    tails.delete(id);
  }

  async function scanOnce(): Promise<void> {
    const paths = await o.discover();
    if (o.mode === 'backfill') return backfill(paths);
    const seen = new Map<string, Stats>();
    const toOpen: string[] = [];
    let bytes = 0;
    for (const path of paths) {
      if (stopping.signal.aborted) return;
      let st;
      try { st = await stat(path); } catch { continue; }
      bytes += st.size;
      const id = `${st.dev}:${st.ino}`;
      if (seen.has(id)) continue; // a second path to the same file (a link)
      seen.set(id, st);
      const tail = tails.get(id);
      if (tail) {
        goneSince.delete(id);
        if (tail.path !== path) { o.events.fileRotated(tail.path, path, tail.fileKey); tail.path = path; }
        continue;
      }
      if (parked.get(id)?.size === st.size) continue;
      toOpen.push(path);
    }
    totalBytes = Math.max(totalBytes, bytes);
    for (const [id, p] of parked) {
      // A parked file that is gone was read to its end: its checkpoint is no longer needed.
      if (!seen.has(id)) { parked.delete(id); checkpoints.forget(p.fileKey); }
    }
    await openWithinLimit(toOpen, paths, seen);
    for (const [id, tail] of tails) {
      if (stopping.signal.aborted) return;
      const gone = !seen.has(id);
      const now = performance.now();
      if (gone && !goneSince.has(id)) {
        goneSince.set(id, now);
        if (!tail.finished) o.events.fileDeleted(tail.path, tail.fileKey);
      }
      // A renamed-away or deleted file may still be written by a process holding it open: read on until it rests.
      const goneFinal = gone && now - Math.max(goneSince.get(id) ?? now, tail.lastGrowth) >= (o.rotateWaitMs ?? 0);
      const final = goneFinal || (!gone && o.isSuperseded(tail.path, paths, now - tail.lastGrowth));
      try {
        await tail.pump(final);
      } catch (error) {
        reportFailure(tail.path, error as Error);
        continue;
      }
      if (tail.truncated) {
        await retire(id, tail);
        // The bytes behind its offset are gone: read the file anew from 0, under whatever key its head gives now.
        checkpoints.forget(tail.fileKey);
      } else if (tail.finished && final) {
        await retire(id, tail);
        goneSince.delete(id);
        if (gone) checkpoints.forget(tail.fileKey);
        else parked.set(id, { size: tail.position, fileKey: tail.fileKey });
      }
    }
  }

  /** Opens what fits under maxOpenFiles, closing files that are read to their end and idle to make room. */
  async function openWithinLimit(toOpen: string[], paths: string[], seen: Map<string, Stats>): Promise<void> {
    let waiting = 0;
    const idle = [...tails.entries()]
      .filter(([id, t]) => t.idleAtEnd && seen.get(id)?.size === t.lastSize)
      .sort(([, a], [, b]) => a.lastGrowth - b.lastGrowth);
    for (const path of toOpen) {
      if (stopping.signal.aborted) return;
      if (tails.size >= maxOpen) {
        const victim = idle.shift();
        if (!victim) { waiting++; continue; }
        const [id, tail] = victim;
        await retire(id, tail);
        parked.set(id, { size: tail.lastSize, fileKey: tail.fileKey });
      }
      await openTail(path, paths);
    }
    if (waiting > 0) o.events.openFilesLimited(tails.size, waiting);
  }

  /** Reads every listed file once to its end, `backfillConcurrency` at a time (so that many open at once). */
  async function backfill(paths: string[]): Promise<void> {
    let bytes = 0;
    for (const path of paths) bytes += (await stat(path).catch(() => null))?.size ?? 0;
    totalBytes = bytes;
    const streams = new Map<string, string[]>();
    paths.forEach((path, i) => {
      const key = o.sequenceOf?.(path) ?? `#${i}`;
      const list = streams.get(key);
      if (list === undefined) streams.set(key, [path]);
      else list.push(path);
    });
    const queue = [...streams.values()];
    const done = new Set<string>();
    const readOne = async (path: string): Promise<void> => {
      const st = await stat(path).catch(() => null);
      if (!st || done.has(`${st.dev}:${st.ino}`)) return;
      done.add(`${st.dev}:${st.ino}`);
      const tail = await openTail(path, paths);
      if (!tail) return;
      try {
        await tail.pump(true);
        // Not finished: its checkpoint could not be written (a full disk). Wait and try again.
        while (tail.checkpointBlocked && !stopping.signal.aborted) {
          await sleep(o.pollIntervalMs);
          await tail.pump(true);
        }
      } catch (error) {
        reportFailure(path, error as Error);
      }
      await retire(`${st.dev}:${st.ino}`, tail);
    };
    const worker = async (): Promise<void> => {
      for (let stream = queue.shift(); stream !== undefined && !stopping.signal.aborted; stream = queue.shift()) {
        for (const path of stream) {
          if (stopping.signal.aborted) return;
          await readOne(path);
        }
      }
    };
    await Promise.all(Array.from({ length: o.backfillConcurrency }, worker));
  }

  function kick(): void {
    if (stopping.signal.aborted) return;
    if (cycle) { again = true; return; }
    cycle = scanOnce()
      .catch((error: Error) => o.events.readFailed('(scan)', error))
      .finally(() => {
        cycle = null;
        if (again) { again = false; kick(); }
      });
  }

  return runSource(stopping, {
    totalBytes: () => totalBytes,
    begin() {
      if (o.mode === 'backfill') {
        return scanOnce()
          .catch((error: Error) => o.events.readFailed('(scan)', error))
          .finally(() => { if (!stopping.signal.aborted) syncCheckpoints(); });
      }
      watcher = watch(o.watchRoots, { depth: 6, ignoreInitial: true, persistent: false, atomic: false });
      watcher.on('all', () => kick());
      watcher.on('error', (e) => o.events.readFailed('(watch)', e as Error));
      timer = setInterval(kick, o.pollIntervalMs);
      syncTimer = setInterval(syncCheckpoints, 500);
      kick();
      return null;
    },
    async end() {
      if (timer) clearInterval(timer);
      if (syncTimer) clearInterval(syncTimer);
      await watcher?.close();
      if (cycle) await cycle.catch(() => {});
      // Give acknowledgements in flight a moment; whatever is not acked is replayed after restart.
      await waitAtMost(Promise.all([...tails.values()].map((t) => t.drain())), 5000);
      abort.abort();
      for (const t of tails.values()) await t.close();
      try {
        checkpoints.close();
      } catch (error) {
        o.events.checkpointFailed('(checkpoints)', error as Error);
      }
    },
  });
}
