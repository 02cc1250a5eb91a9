// The host agent of the distributed shape (docs/architecture.md §6): sources → Kafka bus, no ClickHouse. A file
// checkpoint advances only after the broker acked the segment (bus.publish resolves on acks=all).
import type { Logger } from 'pino';
import type { Config } from '../../ingest/config/config.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import type { KafkaBus } from '../../ingest/bus/kafka-bus.js';
import type { Source } from '../../ingest/source/source.js';
import { FAMILIES } from '../../ingest/families/registry.js';
import type { Families } from '../../ingest/families/family-registry.js';
import { FileLag } from '../../ingest/observe/file-lag.js';
import { LiveMetrics } from '../../ingest/observe/live-metrics.js';
import { createSources } from '../assembly/pipeline-sources.js';
import { startKafkaBus } from './kafka-start.js';

export interface Agent {
  bus: KafkaBus;
  sources: Source[];
  metrics: LiveMetrics;
  fileLag: FileLag;
  stop(): Promise<void>;
}

export function kafkaBusConfig(config: Config) {
  if (config.bus.type !== 'kafka') throw new ConfigError('the distributed shape needs a Kafka bus: give --kafka BROKERS or set bus.type: kafka');
  const { type: _type, ...kafka } = config.bus;
  return kafka;
}

export async function startAgent(
  config: Config, log: Logger, metrics = new LiveMetrics(), signal = new AbortController().signal, families: Families = FAMILIES,
): Promise<Agent> {
  // The bus connects (metadata, topics, the idempotent producer's id: 0.2-0.5 s on a local broker) while the
  // sources open their files and parse their first segments; a segment ready before the bus waits for it. Started
  // one after the other, that time was a tenth of shipping 100 MB (bench/tj-kafka-ship.ts).
  const starting = startKafkaBus(kafkaBusConfig(config), families, log, signal);
  starting.catch(() => {}); // awaited below; a failure is thrown from there
  const fileLag = new FileLag();
  metrics.add(() => fileLag.render());
  const publish = async (segment: Parameters<KafkaBus['publish']>[0]): Promise<void> => {
    const bus = await starting;
    const t0 = performance.now();
    const bytes = segment.end - segment.start;
    await bus.publish(segment);
    metrics.observe('perfpipe_publish_seconds', 'Time from a segment handed to the bus to the broker ack', {}, (performance.now() - t0) / 1000);
    metrics.inc('perfpipe_bytes_acked_total', 'Source bytes whose segments the bus acknowledged', {}, bytes);
  };
  // Segments are as large as `pipeline.segment_bytes`: each is one insert per table at the sink, whose cost is
  // mostly per insert (bench/engine-doors.ts); its rows travel in messages of at most 900 KiB (segment-codec.ts).
  const sources = await createSources(config, 'follow', log, metrics, publish, { families, wrapEvents: (events) => fileLag.wrap(events) });
  let bus: KafkaBus;
  try {
    for (const s of sources) await s.start();
    bus = await starting;
  } catch (error) {
    for (const s of sources) await s.stop().catch(() => {});
    throw error;
  }
  const lagTimer = setInterval(() => {
    void fileLag.refresh().then(() => metrics.set('perfpipe_lag_bytes', 'Bytes of followed files not yet acknowledged, all files', {}, fileLag.total));
  }, 1000);
  let stopped: Promise<void> | undefined;
  return {
    bus, sources, metrics, fileLag,
    stop() {
      stopped ??= (async () => {
        clearInterval(lagTimer);
        for (const s of sources) await s.stop();
        await bus.stop();
      })();
      return stopped;
    },
  };
}
