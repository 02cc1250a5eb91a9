// The configured sources, built the same way for every shape (embedded `run`/`ingest` and the agent):
// one FileSource per `sources[]` entry, checkpoints in the data directory, publishing into a bus.
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Segment } from '../bus/bus.js';
import { createFileSource, type FileSource } from '../source/file-source.js';
import type { SourceEvents } from '../source/source-events.js';
import { pgActivityTelemetry } from './pg-activity-telemetry.js';
import { fnv1a64Hex } from '../source/fingerprint.js';
import type { Metrics } from '../observe/metrics.js';
import { sourceTelemetry } from './source-telemetry.js';

/** Checkpoints are per source location, so two configs on one data directory do not collide. */
export function checkpointDirFor(data: string, type: string, location: string): string {
  return join(resolve(data), 'checkpoints', `${type}-${fnv1a64Hex(Buffer.from(resolve(location)))}`);
}

export interface SourceSetOptions {
  /** Puts bookkeeping (file lag) in front of the telemetry calls. */
  wrapEvents?: (events: SourceEvents) => SourceEvents;
}

/**
 * Each family's source module, loaded only when a source of the family is configured: an agent that tails the
 * technological journal does not load the PostgreSQL client, the XML reader, the atop parsers and their tables
 * (importing `perfpipe agent` took 490 ms with every family, ~300 ms with TJ alone; the agent's start-up is part
 * of what bench/tj-kafka-ship.ts times against rsyslog).
 */
const family = {
  tj: () => import('../source/tj/tj-source.js'),
  pg: () => import('../source/pg/pg-source.js'),
  apdex: () => import('../source/apdex/apdex-source.js'),
  atop: () => import('../source/atop/atop-source.js'),
  atopCommand: () => import('../source/atop/atop-command-sources.js'),
  pgActivity: () => import('../source/pg-activity/pg-activity-source.js'),
};

/** Creates the sources (not started): the caller starts them once the bus is ready. */
export async function createSources(
  config: Config, mode: 'follow' | 'backfill', log: Logger, metrics: Metrics,
  publish: (segment: Segment) => Promise<void>, options: SourceSetOptions = {},
): Promise<FileSource[]> {
  const p = config.pipeline;
  const modules = {
    tj: config.sources.some((s) => s.type === 'tj') ? await family.tj() : null,
    pg: config.sources.some((s) => s.type === 'pg') ? await family.pg() : null,
    apdex: config.sources.some((s) => s.type === 'apdex') ? await family.apdex() : null,
    atop: config.sources.some((s) => s.type === 'atop') ? await family.atop() : null,
    atopCommand: config.sources.some((s) => s.type === 'atop_raw' || s.type === 'atop_spawn') ? await family.atopCommand() : null,
    pgActivity: config.sources.some((s) => s.type === 'pg_activity') ? await family.pgActivity() : null,
  };
  const loaded = <T>(m: T | null): T => {
    if (m === null) throw new Error('a source family module was not loaded'); // cannot happen: loaded above for each type present
    return m;
  };
  return config.sources.map((s) => {
    const events = sourceTelemetry(s.type, log, metrics);
    if (s.type === 'pg_activity') {
      // Samples a server; no file, no checkpoint (ingest/source/pg-activity/).
      return loaded(modules.pgActivity).createPgActivitySource({
        config: s, host: config.host, mode, publish, activity: pgActivityTelemetry(log, metrics),
        events: options.wrapEvents ? options.wrapEvents(events) : events,
      });
    }
    if (s.type === 'atop_raw' || s.type === 'atop_spawn') {
      // These run atop themselves and read no file directly (ingest/source/atop/atop-command-sources.ts).
      return loaded(modules.atopCommand).createAtopCommandSource(s, {
        host: config.host, mode, publish, events: options.wrapEvents ? options.wrapEvents(events) : events,
        checkpointDir: checkpointDirFor(config.data, s.type, s.location), pollIntervalMs: p.poll_interval_ms,
        segmentBytes: p.segment_bytes,
      });
    }
    return createFileSource({
      source: s.type, family: s.type, host: config.host,
      checkpointDir: checkpointDirFor(config.data, s.type, s.location),
      ...(s.type === 'pg'
        ? loaded(modules.pg).pgSourceParts({ ...s, idle_finish_ms: s.idle_finish_s * 1000 }, config.host)
        : s.type === 'apdex'
          ? loaded(modules.apdex).apdexSourceParts({ location: s.location, pattern: s.pattern, idle_finish_ms: s.idle_finish_s * 1000 }, config.host, mode)
          : s.type === 'atop'
            ? loaded(modules.atop).atopSourceParts({ location: s.location, pattern: s.pattern, idle_finish_ms: s.idle_finish_s * 1000 }, config.host)
            : loaded(modules.tj).tjSourceParts({ location: s.location, tz: s.tz, hour: s.hour, idle_finish_ms: s.idle_finish_s * 1000 }, config.host)),
      publish,
      events: options.wrapEvents ? options.wrapEvents(events) : events,
      mode, pollIntervalMs: p.poll_interval_ms,
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
    });
  });
}
