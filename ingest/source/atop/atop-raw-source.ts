// The `atop_raw` source: follows (or backfills) a directory of atop raw logs (`/var/log/atop/atop_YYYYMMDD`, written
// by `atop -w`), reading each through the installed `atop -r … -P` (atop-replay.ts) into the same parser, segments
// and tables as the text source. A poll lists the files, skips those whose size has not changed since they were
// last read, and reads the others from their checkpoints (atop-raw-reader.ts). New daily files are found at the
// next poll; a file that is gone has its checkpoint forgotten, and so has any checkpoint whose file is not there.
import { stat } from 'node:fs/promises';
import type { Family, Segment } from '../../bus/bus.js';
import type { RowBuilder } from '../../rows/row-builder.js';
import { SourceError } from '../../errors/errors.js';
import { CheckpointStore } from '../checkpoint-store.js';
import { runSource, type Source } from '../source.js';
import type { SourceContext } from '../source-context.js';
import type { AtopRawSourceConfig } from './atop-raw-source-config.js';
import type { SourceEvents } from '../source-events.js';
import { listAtopFiles } from './atop-source.js';
import { identifyRawLog } from './atop-raw-files.js';
import { readRawLog } from './atop-raw-reader.js';
import { publishUntilAcked } from '../publish-until-acked.js';
import { waitAtMost } from '../../retry/sleep.js';

export interface AtopRawSourceOptions {
  location: string;
  pattern: string;
  command: string;
  labels: string[];
  host: string;
  /** Written into every record's origin and error: `atop_raw`. */
  source: string;
  /** The family its segments carry, and a builder of its rows (its descriptor's). */
  family: Family;
  createRows(): RowBuilder;
  checkpointDir: string;
  publish(segment: Segment): Promise<void>;
  events: SourceEvents;
  /** `backfill` reads every file once and then is done; `follow` polls until stopped. */
  mode: 'follow' | 'backfill';
  pollIntervalMs: number;
  segmentBytes: number;
}

interface Known {
  /** Empty for a file that is not a raw log. */
  fileKey: string;
  /** Size when last read (or found unreadable): an unchanged size holds nothing new. */
  size: number;
}

export function createAtopRawSource(o: AtopRawSourceOptions): Source {
  const checkpoints = CheckpointStore.open(o.checkpointDir);
  /** Stops a running `atop -r` and any publish retry. */
  const abort = new AbortController();
  const known = new Map<string, Known>();
  let timer: NodeJS.Timeout | null = null;
  let cycle: Promise<void> | null = null;
  let totalBytes = 0;

  async function readFile(path: string, size: number): Promise<void> {
    const prev = known.get(path);
    const id = await identifyRawLog(path);
    if (id.kind === 'short') return; // atop has not written its first sample whole: next poll
    if (id.kind === 'not_raw') {
      if (prev === undefined) o.events.readFailed(path, new SourceError(`${path} is not an atop raw log (no 0xfeedbeef magic at its start); skipped`, path, { permanent: true }));
      known.set(path, { fileKey: '', size: id.size });
      return;
    }
    // Byte counts (bytesRead, the lag an agent reports) are in raw-log bytes, and what a file grew goes with the
    // first segment of the read. Not exact: the checkpoint is in epochs, so a file with a checkpoint counts as read
    // up to its size when this process first sees it, and a read may end before a new sample is whole.
    let growth = size;
    if (prev?.fileKey === id.file_key) growth = size - prev.size;
    else {
      const seen = checkpoints.get(id.file_key) !== undefined;
      o.events.fileAdded(path, id.file_key, seen ? size : 0);
      if (seen) growth = 0;
    }
    o.events.bytesRead(path, Math.max(0, growth));
    const result = await readRawLog({
      host: o.host, source: o.source, family: o.family, createRows: o.createRows, path, fileKey: id.file_key,
      command: o.command, labels: o.labels, checkpoints,
      segmentBytes: o.segmentBytes, signal: abort.signal, replayed: (start, end) => o.events.replayed(path, start, end),
      publish: (segment) => {
        const bytes = Math.max(0, growth);
        growth = 0;
        return publishUntilAcked(o.publish, segment, o.events, abort.signal, bytes);
      },
    });
    checkpoints.sync();
    if (result.kind === 'stopped') return; // read again from the checkpoint after the restart
    known.set(path, { fileKey: id.file_key, size });
    if (result.kind === 'failed') o.events.readFailed(path, new SourceError(result.reason, path));
  }

  async function poll(): Promise<void> {
    const paths = await listAtopFiles(o.location, o.pattern);
    let bytes = 0;
    for (const path of paths) {
      if (abort.signal.aborted) return;
      const st = await stat(path).catch(() => null);
      if (st === null) continue;
      bytes += st.size;
      if (known.get(path)?.size === st.size) continue;
      try {
        await readFile(path, st.size);
      } catch (error) {
        o.events.readFailed(path, error as Error);
      }
    }
    totalBytes = bytes;
    if (abort.signal.aborted) return;
    const present = new Set(paths);
    for (const [path, k] of known) {
      if (present.has(path)) continue;
      known.delete(path);
      if (k.fileKey !== '') o.events.fileDeleted(path, k.fileKey);
    }
    // A daily log deleted (atop keeps 28 days), also while perfpipe was down: its checkpoint has nothing left to do.
    const keys = new Set([...known.values()].map((k) => k.fileKey));
    for (const cp of checkpoints.all()) if (!keys.has(cp.file_key)) checkpoints.forget(cp.file_key);
    checkpoints.sync();
  }

  function kick(): void {
    if (abort.signal.aborted || cycle) return;
    cycle = poll()
      .catch((error: Error) => o.events.readFailed(o.location, error))
      .finally(() => { cycle = null; });
  }

  return runSource(abort, {
    totalBytes: () => totalBytes,
    begin() {
      if (o.mode === 'backfill') {
        cycle = poll()
          .catch((error: Error) => o.events.readFailed(o.location, error))
          .finally(() => { cycle = null; });
        return cycle;
      }
      timer = setInterval(kick, o.pollIntervalMs);
      kick();
      return null;
    },
    async end() {
      if (timer) clearInterval(timer);
      // A publish already with the bus gets 5 s to be acknowledged.
      await waitAtMost(cycle ?? undefined, 5000);
      checkpoints.close();
    },
  });
}

/** An `atop_raw` entry's source: what atop-family.ts loads once one is configured. */
export function createSource(s: AtopRawSourceConfig, ctx: SourceContext): Source {
  return createAtopRawSource({
    ...ctx, source: s.type, location: s.location, pattern: s.pattern, command: s.command, labels: s.labels,
    pollIntervalMs: ctx.read.pollIntervalMs, segmentBytes: ctx.read.segmentBytes,
  });
}
