// Reads what is new in one atop raw log into segments, with the guarantees of the file sources (docs/architecture.md §3)
// restated in sample epochs instead of byte offsets:
//
// - A segment covers the samples of one file whose epochs lie in [start, end); its id, and so the ClickHouse
//   insert_deduplication_token, is `<host>|<file_key>|<start>-<end>` (bus.ts segmentId).
// - `start` is the first epoch not covered yet (0 for a file never read), `end` the last sample's epoch + 1.
// - The range is recorded as an intent (fsync'ed) before the segment is published and acknowledged after the bus
//   acknowledged it; the acknowledged `offset` of checkpoint-store.ts is then the epoch after the last stored sample.
// - After a crash, every unacknowledged intent is read again over exactly its epochs: the raw log only grows, so
//   the samples and the id are the same and ClickHouse drops the copy. Then reading goes on after the last intent.
// - A read re-prints the checkpoint's minute (`-b` takes minutes, atop-replay.ts); samples before `start` are dropped.
//
// Samples are taken as atop prints them, RESET (since-boot) ones included: the row builder makes no rows of those
// (schemas/atop-row.ts, atopSampleToRows), and counting them as covered keeps an atop restart mid-file from being read
// twice. Falls short when the clock steps back: samples are assumed to grow in epoch along the file, and those
// with epochs below the checkpoint are skipped until time passes it again.
import type { Family, Segment } from '../../bus/bus.js';
import { buildRows, type RowBuilder } from '../../rows/row-builder.js';
import { segmentId } from '../../bus/bus.js';
import type { IngestError } from '../../../schemas/ingest-error.js';
import type { CheckpointStore } from '../checkpoint-store.js';
import { replayRawLog, type RawSample, type ReplayEnd } from './atop-replay.js';

export interface RawReadOptions {
  host: string;
  source: string;
  family: Family;
  createRows(): RowBuilder;
  path: string;
  fileKey: string;
  command: string;
  labels: string[];
  checkpoints: CheckpointStore;
  /** Resolves true once the bus acknowledged the segment, false when the source is stopping. */
  publish(segment: Segment): Promise<boolean>;
  /** Cut a segment once its samples took this many bytes of `-P` text. */
  segmentBytes: number;
  signal: AbortSignal;
  /** An unacknowledged range left by a crash is about to be published again. */
  replayed(start: number, end: number): void;
}

/** How the read ended; `samples` counts the samples published (replayed ones included). */
export type RawReadResult = ReplayEnd & { samples: number };

export async function readRawLog(o: RawReadOptions): Promise<RawReadResult> {
  const replay = { command: o.command, file: o.path, fileKey: o.fileKey, host: o.host, source: o.source, labels: o.labels, signal: o.signal };
  let published = 0;
  const send = async (start: number, end: number, samples: RawSample[], extra: IngestError[], replayed: boolean): Promise<boolean> => {
    if (!replayed) o.checkpoints.recordIntent(o.fileKey, o.path, start, end, false);
    // `sample` counts from this segment's first sample, not from where `atop -r` began: a replay begins at
    // another minute (-b takes minutes), and the replayed segment must carry the same records.
    const records = samples.flatMap((s, i) => s.records.map((r) => ({ ...r, sample: i })));
    const segment: Segment = {
      id: segmentId(o.host, o.fileKey, start, end), family: o.family, host: o.host, source: o.source,
      file: o.path, file_key: o.fileKey, start, end,
      ...buildRows(o.createRows, records), errors: [...samples.flatMap((s) => s.errors), ...extra],
    };
    if (!(await o.publish(segment))) return false;
    o.checkpoints.recordAck(o.fileKey, end);
    published += samples.length;
    return true;
  };

  for (const intent of [...(o.checkpoints.get(o.fileKey)?.intents ?? [])]) {
    const samples: RawSample[] = [];
    const end = await replayRawLog({ ...replay, fromEpoch: intent.start > 0 ? intent.start : null }, async (s) => {
      if (s.epoch >= intent.end) return false;
      if (s.epoch >= intent.start) samples.push(s);
      return true;
    });
    if (end.kind === 'failed' || o.signal.aborted) return { ...end, samples: published };
    o.replayed(intent.start, intent.end);
    if (!(await send(intent.start, intent.end, samples, [], true))) return { kind: 'stopped', errors: [], samples: published };
  }

  const checkpoint = o.checkpoints.get(o.fileKey);
  let next = checkpoint?.offset ?? 0;
  let held: RawSample[] = [];
  let bytes = 0;
  const cut = async (extra: IngestError[]): Promise<boolean> => {
    // Errors of a sample with no readable line have no epoch and no range to be replayed in: they are not stored.
    // atop -r prints its own format, so this takes a damaged atop binary, not a damaged raw log.
    if (held.length === 0) return true;
    const end = Math.max(...held.map((s) => s.epoch)) + 1;
    const ok = await send(next, end, held, extra, false);
    next = end;
    held = [];
    bytes = 0;
    return ok;
  };
  const end = await replayRawLog({ ...replay, fromEpoch: next > 0 ? next : null }, async (s) => {
    if (s.epoch < next) return true; // stored already: the minute -b re-prints, or a sample of an older read
    held.push(s);
    bytes += s.bytes;
    return bytes >= o.segmentBytes ? cut([]) : true;
  });
  if (o.signal.aborted) return { kind: 'stopped', errors: [], samples: published };
  if (!(await cut(end.errors))) return { kind: 'stopped', errors: [], samples: published };
  return { ...end, samples: published };
}
