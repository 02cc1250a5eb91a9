// What the tailer torture tests share (issue #8): a TJ location in a temp dir, a TJ file source over it
// with small intervals, a collector of what was published, and a recorder of what the source reported.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Segment } from '../../ingest/bus/bus.js';
import { rowsOf } from './segments.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { createFileSource, type FileSourceOptions } from '../../ingest/source/file-source.js';
import type { Source } from '../../ingest/source/source.js';
import { silentSourceEvents, type SourceEvents } from '../../ingest/source/source-events.js';
import { tjSourceParts } from '../../ingest/source/tj/tj-source.js';
import { scanCounter, type ScanCounter } from './source-scans.js';

/** One complete TJ event line: `mm:ss` from `sec`, the user name marks it. */
export const tjLine = (sec: number, usr: string): string =>
  `${String(Math.floor(sec / 60) % 60).padStart(2, '0')}:${String(sec % 60).padStart(2, '0')}.000000-5,CALL,1,Usr=${usr}\n`;

/** `n` event lines marked `${prefix}0` … `${prefix}${n - 1}`. */
export const tjLines = (prefix: string, n: number, from = 0): string =>
  Array.from({ length: n }, (_, i) => tjLine(from + i, `${prefix}${from + i}`)).join('');

export interface Workspace {
  root: string;
  /** The TJ location. */
  loc: string;
  /** The checkpoint directory. */
  cp: string;
  /** `<loc>/<proc>/`, created. */
  proc(name?: string): string;
}

export function workspace(t: { teardown(fn: () => void): void }): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'perfpipe-torture-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const loc = join(root, 'tj');
  mkdirSync(loc);
  return {
    root, loc, cp: join(root, 'checkpoints'),
    proc(name = 'rphost_1') {
      const dir = join(loc, name);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
  };
}

/** What a torture test reads of a published event: its stored row's place and user. */
export interface SeenEvent {
  origin: { file_key: string; offset: number };
  user: string;
  context: string;
  sql: string;
}

export interface Collector {
  segments: Segment[];
  events(): SeenEvent[];
  errors(): IngestError[];
  /** The `Usr` of every event, sorted. */
  users(): string[];
  publish(s: Segment): Promise<void>;
}

export function collector(): Collector {
  const segments: Segment[] = [];
  // Decoded once per segment: tests poll events() every 20 ms while tens of thousands arrive.
  const decoded = new WeakMap<Segment, SeenEvent[]>();
  const seen = (s: Segment): SeenEvent[] => {
    let list = decoded.get(s);
    if (!list) {
      list = rowsOf(s, 'tj_events').map((r) => ({
        origin: { file_key: r.file_key as string, offset: r.file_offset as number }, user: r.user as string, context: r.context as string, sql: r.sql as string,
      }));
      decoded.set(s, list);
    }
    return list;
  };
  const events = (): SeenEvent[] => segments.flatMap(seen);
  return {
    segments,
    events,
    errors: () => segments.flatMap((s) => s.errors),
    users: () => events().map((e) => usr(e)).sort(),
    publish: async (s) => { segments.push(s); },
  };
}

export function usr(e: SeenEvent): string {
  return e.user;
}

/** Every call the source made, by name, with its arguments. */
export interface Recorder {
  events: SourceEvents;
  calls: Array<{ name: keyof SourceEvents; args: unknown[] }>;
  count(name: keyof SourceEvents): number;
}

export function recorder(): Recorder {
  const calls: Recorder['calls'] = [];
  const events = Object.fromEntries(Object.keys(silentSourceEvents).map((name) => [
    name, (...args: unknown[]) => { calls.push({ name: name as keyof SourceEvents, args }); },
  ])) as unknown as SourceEvents;
  return { events, calls, count: (name) => calls.filter((c) => c.name === name).length };
}

export type SourceOverrides = Partial<Omit<FileSourceOptions, 'discover' | 'watchRoots' | 'createParser' | 'isSuperseded'>>;

/** A source whose scans are counted: `scanned()` waits for it to have looked at the files again. */
export type CountedSource = Source & Pick<ScanCounter, 'scanned'>;

/**
 * A TJ source over `loc` with short intervals: 50 ms polls, files finished after 200 ms idle. `onScan` hears the
 * number of each scan as it begins.
 */
export function tjSource(ws: Workspace, publish: (s: Segment) => Promise<void>, o: SourceOverrides = {}, onScan?: (n: number) => void): CountedSource {
  const parts = tjSourceParts({ location: ws.loc, tz: 'UTC', hour: null, idle_finish_ms: 200 }, 'h');
  const scans = scanCounter(onScan);
  const source = createFileSource({
    source: 'tj', family: 'tj', host: 'h', checkpointDir: ws.cp,
    ...parts, discover: scans.counting(parts.discover),
    publish, events: silentSourceEvents, mode: 'follow', pollIntervalMs: 50, segmentBytes: 1 << 20,
    maxInFlightPerFile: 2, readChunkBytes: 64 * 1024, backfillConcurrency: 2,
    ...o,
  });
  return Object.assign(source, { scanned: scans.scanned });
}

export async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Bytes the source said it read of `path` (its `bytesRead` calls), to wait until it has seen a whole file. */
export const bytesReadOf = (r: Recorder, path: string): number =>
  r.calls.filter((c) => c.name === 'bytesRead' && c.args[0] === path).reduce((n, c) => n + (c.args[1] as number), 0);

/** `file_key@offset` of every event: equal sizes of the list and its set mean nothing was read twice. */
export const eventIds = (c: Collector): string[] => c.events().map((e) => `${e.origin.file_key}@${e.origin.offset}`);
