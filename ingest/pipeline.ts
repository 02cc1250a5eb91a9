// Assembles the embedded default (ARCHITECTURE §6): sources → in-process bus → ClickHouse sink, with
// checkpoints in the data directory. `ingest` runs it in backfill mode, `run` in follow mode.
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createMemoryBus } from './bus/memory-bus.js';
import type { Bus } from './bus/bus.js';
import { openStore, type Store } from './store/clickhouse.js';
import { migrate } from './store/migrations.js';
import { createClickHouseSink } from './sink/clickhouse-sink.js';
import { createFileSource, type FileSource } from './source/file-source.js';
import { tjSourceParts } from './source/tj-source.js';
import { fnv1a64Hex } from './source/fingerprint.js';
import { Metrics } from './observe/metrics.js';
import { sinkTelemetry, sourceTelemetry } from './observe/source-telemetry.js';

export interface Pipeline {
  store: Store;
  bus: Bus;
  sources: FileSource[];
  metrics: Metrics;
  /** Backfill: resolves when every source read everything and it was stored. */
  done(): Promise<void>;
  stop(): Promise<void>;
}

/** Checkpoints are per source location, so two configs on one data directory do not collide. */
export function checkpointDirFor(data: string, type: string, location: string): string {
  return join(resolve(data), 'checkpoints', `${type}-${fnv1a64Hex(Buffer.from(resolve(location)))}`);
}

export async function startPipeline(config: Config, mode: 'follow' | 'backfill', log: Logger): Promise<Pipeline> {
  const metrics = new Metrics();
  const store = await openStore({ data: config.data, ...(config.clickhouse ? { clickhouse: config.clickhouse } : {}) });
  const applied = await migrate(store.client);
  if (applied.length > 0) log.info({ applied, store: store.where }, 'schema migrations applied');
  const sink = createClickHouseSink({ client: store.client, events: sinkTelemetry(log, metrics) });
  const bus = createMemoryBus({ max_in_flight: config.bus.type === 'memory' ? config.bus.max_in_flight : 4 });
  await bus.start();
  await bus.consume((segment) => sink.write(segment));
  const p = config.pipeline;
  const sources = config.sources.map((s) => createFileSource({
    source: s.type, family: 'tj', host: config.host,
    checkpointDir: checkpointDirFor(config.data, s.type, s.location),
    ...tjSourceParts({ location: s.location, tz: s.tz, hour: s.hour, idle_finish_ms: s.idle_finish_s * 1000 }, config.host),
    publish: (segment) => bus.publish(segment),
    events: sourceTelemetry(s.type, log, metrics),
    mode, pollIntervalMs: p.poll_interval_ms, segmentBytes: p.segment_bytes,
    maxInFlightPerFile: p.max_in_flight_per_file, readChunkBytes: p.read_chunk_bytes,
    backfillConcurrency: p.backfill_concurrency,
  }));
  let stopped: Promise<void> | null = null;
  const pipeline: Pipeline = {
    store, bus, sources, metrics,
    async done() {
      await Promise.all(sources.map((s) => s.done()));
    },
    stop() {
      stopped ??= (async () => {
        for (const s of sources) await s.stop();
        await bus.stop();
        await store.close();
      })();
      return stopped;
    },
  };
  for (const s of sources) await s.start();
  return pipeline;
}
