// The configured sources, built the same way for every shape (embedded `run`/`ingest` and the agent):
// one Source per `sources[]` entry, checkpoints in the data directory, publishing into a bus.
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../ingest/config/config.js';
import type { Segment } from '../../ingest/bus/bus.js';
import type { Source } from '../../ingest/source/source.js';
import type { FileReadSettings } from '../../ingest/source/source-context.js';
import type { Families } from '../../ingest/families/family-registry.js';
import { ReadAhead } from '../../ingest/source/read-ahead.js';
import type { SourceEvents } from '../../ingest/source/source-events.js';
import { pgActivityTelemetry } from './pg-activity-telemetry.js';
import { fnv1a64Hex } from '../../ingest/source/fingerprint.js';
import type { Metrics } from '../../ingest/observe/metrics.js';
import { sourceTelemetry } from './source-telemetry.js';
import type { StoreDiskWatch } from './store-disk.js';

/** Checkpoints are per source location, so two configs on one data directory do not collide. */
export function checkpointDirFor(data: string, type: string, location: string): string {
  return join(resolve(data), 'checkpoints', `${type}-${fnv1a64Hex(Buffer.from(resolve(location)))}`);
}

export interface SourceSetOptions {
  /** The families whose types `config.sources` may name (ingest/families/registry.ts). */
  families: Families;
  /** Puts bookkeeping (file lag) in front of the telemetry calls. */
  wrapEvents?: (events: SourceEvents) => SourceEvents;
  /** The store's disk watch, when the store shares this process's data directory (the embedded default). */
  disk?: StoreDiskWatch;
}

/** Creates the sources (not started): the caller starts them once the bus is ready. */
export async function createSources(
  config: Config, mode: 'follow' | 'backfill', log: Logger, metrics: Metrics,
  publish: (segment: Segment) => Promise<void>, options: SourceSetOptions,
): Promise<Source[]> {
  const p = config.pipeline;
  const read: FileReadSettings = {
    pollIntervalMs: p.poll_interval_ms,
    segmentBytes: p.segment_bytes,
    segmentDelayMs: p.segment_delay_ms,
    // Its buses and sinks keep no segment past its acknowledgement (bus.ts).
    recycleAcked: true,
    readChunkBytes: p.read_chunk_bytes,
    maxInFlightPerFile: p.max_in_flight_per_file,
    backfillConcurrency: p.backfill_concurrency,
    limits: { maxEventBytes: p.max_event_bytes, maxLineBytes: p.max_line_bytes },
    maxOpenFiles: p.max_open_files,
    rotateWaitMs: p.rotate_wait_ms,
    // One budget for every source of the process: what they read ahead of the store is what they hold in memory.
    readAhead: new ReadAhead(p.read_ahead_bytes ?? 2 * p.segment_bytes),
  };
  const sources: Source[] = [];
  for (const s of config.sources) {
    const events = sourceTelemetry(s.type, log, metrics, options.disk);
    // Each family builds its source from the same context (ingest/families/registry.ts, docs/adding-a-family.md).
    sources.push(await options.families.createSource(s, {
      host: config.host, mode, publish, events: options.wrapEvents ? options.wrapEvents(events) : events,
      checkpointDir: checkpointDirFor(config.data, s.type, s.location), read, activity: pgActivityTelemetry(log, metrics),
    }));
  }
  return sources;
}
