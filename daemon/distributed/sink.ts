// The central sink of the distributed shape: one member of a Kafka consumer group → ClickHouse. Offsets are
// committed only after the handler resolved (the Kafka bus); replays of a segment id are dropped by
// ClickHouse through the insert dedup token; several sinks in one group share the partitions.
import type { Logger } from 'pino';
import type { Config } from '../../ingest/config/config.js';
import type { KafkaBus } from '../../ingest/bus/kafka-bus.js';
import { KafkaBusConfigSchema } from '../../ingest/bus/kafka-config.js';
import { createDeadLetters } from '../../ingest/sink/dead-letters.js';
import { openSinkService, type SinkService } from '../assembly/sink-service.js';
import { LiveMetrics } from '../../ingest/observe/live-metrics.js';
import { PartitionLag } from '../../ingest/observe/partition-lag.js';
import { kafkaBusConfig } from './agent.js';
import { kafkaLog, startKafkaBus } from './kafka-start.js';
import { createAlerter } from '../../ingest/alert/index.js';
import { FAMILIES } from '../../ingest/families/registry.js';
import type { Families } from '../../ingest/families/family-registry.js';

export interface Sink {
  service: SinkService;
  bus: KafkaBus;
  metrics: LiveMetrics;
  /** Sends the alert notices still waiting and stops alerting (the pipeline's stopAlerts). Safe before stop(). */
  stopAlerts(): Promise<void>;
  stop(): Promise<void>;
}

/** Store first (waiting for ClickHouse), then Kafka: a sink joins the group only once it can write. */
export async function startSink(
  config: Config, log: Logger, metrics = new LiveMetrics(), outer?: AbortSignal, families: Families = FAMILIES,
): Promise<Sink> {
  const kafka = KafkaBusConfigSchema.parse(kafkaBusConfig(config));
  const abort = new AbortController();
  outer?.addEventListener('abort', () => abort.abort(), { once: true });
  const deadLetters = createDeadLetters(kafka, kafkaLog(log));
  let alerterRef: ReturnType<typeof createAlerter> | undefined;
  const service = await openSinkService({
    data: config.data, clickhouse: config.clickhouse, cluster: config.clickhouse_cluster, retention: config.retention, families, log, metrics, deadLetters, signal: abort.signal,
    observe: (segment) => alerterRef?.observe(segment),
  });
  let bus: KafkaBus | undefined;
  // Redelivered segments are recognised by id inside the alerter, so a replay does not alert twice.
  // Notices go to the alerts table through the sink's store, and to `<prefix>alerts` through the bus's producer
  // (bound late: the bus starts after the alerter; a notice due before that waits in its queue and retries).
  const alerter = createAlerter(config.alerts, {
    metrics, log: (line) => log.warn(line), store: service.store.client,
    publishAlerts: (records) => {
      if (!bus) return Promise.reject(new Error('kafka bus not started yet'));
      return bus.publishAlerts(records);
    },
  });
  alerterRef = alerter;
  try {
    bus = await startKafkaBus(kafka, families, log, abort.signal);
    await deadLetters.start();
    await bus.consume((segment) => service.handle(segment));
  } catch (error) {
    await alerter.stop().catch(() => {});
    await service.locks.stop();
    await bus?.stop().catch(() => {});
    await deadLetters.stop().catch(() => {});
    await service.store.close();
    throw error;
  }
  const lag = new PartitionLag(kafka, families.names);
  // Lag is an aid, not a duty: a broker that refuses the admin calls must not stop the sink.
  await lag.start().then(() => lag.refresh()).catch((error: Error) => log.warn({ err: error.message }, 'partition lag unavailable'));
  metrics.add(() => lag.render());
  const running = bus;
  let stopped: Promise<void> | undefined;
  return {
    service, bus: running, metrics,
    stopAlerts: () => alerter.stop(),
    stop() {
      stopped ??= (async () => {
        // Ends insert retries: the segment in hand stays uncommitted and is read again by the next member.
        abort.abort();
        // The alerter's last notices need the producer: it stops first (segments consumed meanwhile are stored,
        // not alerted on — a window of one flush).
        await alerter.stop();
        await running.stop();
        await deadLetters.stop();
        await lag.stop();
        await service.locks.stop();
        await service.store.close();
      })();
      return stopped;
    },
  };
}
