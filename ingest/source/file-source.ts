// A source that follows (or backfills) the files a `discover` function lists: identifies each by
// fingerprint + device/inode, keeps one FileTail per identity, re-scans periodically and reads when
// chokidar hints at a change. chokidar only wakes the loop up; offsets, rotation, truncation and
// deletion are decided with fstat/stat here (tailing.md §0.6).
import { open, stat } from 'node:fs/promises';
import { watch, type FSWatcher } from 'chokidar';
import type { IncrementalParser } from '../../parsers/parser.js';
import type { Family, Segment } from '../bus/bus.js';
import { CheckpointStore } from './checkpoint-store.js';
import { identifyFile, type FileIdentity } from './fingerprint.js';
import type { FileHandle } from 'node:fs/promises';
import { FileTail } from './file-tail.js';
import type { SourceEvents } from './source-events.js';

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
  createParser(path: string, identity: FileIdentity, offset: number): IncrementalParser<unknown>;
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
  publish(segment: Segment): Promise<void>;
  events: SourceEvents;
  mode: 'follow' | 'backfill';
  pollIntervalMs: number;
  segmentBytes: number;
  maxInFlightPerFile: number;
  readChunkBytes: number;
  /** Files read at the same time in backfill mode. */
  backfillConcurrency: number;
}

export interface FileSource {
  start(): Promise<void>;
  /** Backfill: resolves when every file was read to its end and acknowledged. */
  done(): Promise<void>;
  /** Total bytes of the files discovered so far (for progress and ETA). */
  readonly totalBytes: number;
  stop(): Promise<void>;
}

export function createFileSource(o: FileSourceOptions): FileSource {
  const checkpoints = CheckpointStore.open(o.checkpointDir);
  const tails = new Map<string, FileTail>(); // by dev:ino
  const abort = new AbortController();
  let watcher: FSWatcher | null = null;
  let timer: NodeJS.Timeout | null = null;
  let syncTimer: NodeJS.Timeout | null = null;
  let cycle: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let totalBytes = 0;
  let resolveDone: () => void = () => {};
  const donePromise = new Promise<void>((r) => { resolveDone = r; });

  async function openTail(path: string, known: string[]): Promise<void> {
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      o.events.readFailed(path, error as Error);
      return;
    }
    const st = await handle.stat();
    const id = `${st.dev}:${st.ino}`;
    const existing = tails.get(id);
    if (existing) {
      await handle.close();
      if (existing.path !== path) { o.events.fileRotated(existing.path, path, existing.fileKey); existing.path = path; }
      return;
    }
    const whole = o.mode === 'backfill' || o.isSuperseded(path, known, Date.now() - st.mtimeMs);
    const identity = o.identify ? await o.identify(path, handle, st.dev, st.ino, whole) : await identifyFile(handle, st.dev, st.ino, whole);
    if (!identity) { await handle.close(); return; }
    const tail = new FileTail({
      host: o.host, source: o.source, family: o.family, path, handle,
      fileKey: identity.file_key, dev: st.dev, ino: st.ino, checkpoints,
      createParser: (offset) => o.createParser(path, identity, offset),
      publish: o.publish, events: o.events, segmentBytes: o.segmentBytes,
      maxInFlight: o.maxInFlightPerFile, readChunkBytes: o.readChunkBytes, signal: abort.signal,
    });
    tails.set(id, tail);
    o.events.fileAdded(path, identity.file_key, tail.position);
  }

  async function scanOnce(): Promise<void> {
    const paths = await o.discover();
    const seen = new Set<string>();
    let bytes = 0;
    for (const path of paths) {
      if (stopped) return;
      let st;
      try { st = await stat(path); } catch { continue; }
      bytes += st.size;
      const id = `${st.dev}:${st.ino}`;
      seen.add(id);
      const tail = tails.get(id);
      if (tail) {
        if (tail.path !== path) { o.events.fileRotated(tail.path, path, tail.fileKey); tail.path = path; }
        continue;
      }
      await openTail(path, paths);
    }
    totalBytes = Math.max(totalBytes, bytes);
    if (o.mode === 'backfill') {
      await backfill([...tails.values()]);
      return;
    }
    for (const [id, tail] of tails) {
      if (stopped) return;
      const gone = !seen.has(id);
      const idle = Date.now() - tail.lastGrowth;
      const final = gone || o.isSuperseded(tail.path, paths, idle);
      if (gone && !tail.finished) o.events.fileDeleted(tail.path, tail.fileKey);
      await tail.pump(final);
      if (tail.truncated || (tail.finished && (gone || final))) {
        await tail.drain();
        await tail.close();
        tails.delete(id);
        if (gone && !tail.truncated) checkpoints.forget(tail.fileKey);
      }
    }
  }

  async function backfill(all: FileTail[]): Promise<void> {
    const queue = [...all];
    const worker = async (): Promise<void> => {
      for (let tail = queue.shift(); tail && !stopped; tail = queue.shift()) {
        await tail.pump(true);
        await tail.drain();
        await tail.close();
      }
    };
    await Promise.all(Array.from({ length: o.backfillConcurrency }, worker));
  }

  function kick(): void {
    if (stopped) return;
    if (cycle) { again = true; return; }
    cycle = scanOnce()
      .catch((error: Error) => o.events.readFailed('(scan)', error))
      .finally(() => {
        cycle = null;
        if (again) { again = false; kick(); }
      });
  }

  return {
    get totalBytes() { return totalBytes; },
    async start() {
      if (o.mode === 'backfill') {
        void scanOnce()
          .catch((error: Error) => o.events.readFailed('(scan)', error))
          .finally(() => {
            if (!stopped) checkpoints.sync();
            resolveDone();
          });
        return;
      }
      watcher = watch(o.watchRoots, { depth: 6, ignoreInitial: true, persistent: false, atomic: false });
      watcher.on('all', () => kick());
      watcher.on('error', (e) => o.events.readFailed('(watch)', e as Error));
      timer = setInterval(kick, o.pollIntervalMs);
      syncTimer = setInterval(() => checkpoints.sync(), 500);
      kick();
    },
    done: () => donePromise,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearInterval(timer);
      if (syncTimer) clearInterval(syncTimer);
      await watcher?.close();
      if (cycle) await cycle.catch(() => {});
      // Give acknowledgements in flight a moment; whatever is not acked is replayed after restart.
      let timer5s: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...tails.values()].map((t) => t.drain())),
        new Promise((r) => { timer5s = setTimeout(r, 5000); }),
      ]);
      clearTimeout(timer5s);
      abort.abort();
      for (const t of tails.values()) await t.close();
      checkpoints.close();
      resolveDone();
    },
  };
}
