// Starting a Kafka bus when the broker may not be there yet (a host agent boots before the cluster, a sink
// restarts while the broker restarts): a bus whose start failed cannot start again, so each attempt is a new one.
import type { Logger } from 'pino';
import type { FamilyCatalog } from '../../ingest/bus/bus.js';
import { createKafkaBus, type KafkaBus } from '../../ingest/bus/kafka-bus.js';
import type { KafkaBusConfigInput } from '../../ingest/bus/kafka-config.js';
import type { KafkaLogLine } from '../../ingest/bus/kafka-client.js';
import { sleep } from '../../ingest/retry/sleep.js';
import { backoffMs } from '../../ingest/retry/backoff.js';

/** kafkajs is chatty at info (every connect and group join): those become debug lines. */
export function kafkaLog(log: Logger) {
  return (line: KafkaLogLine): void => {
    const level = line.level === 'info' ? 'debug' : line.level;
    log[level]({ namespace: line.namespace, ...line.fields }, line.message);
  };
}

export async function startKafkaBus(config: KafkaBusConfigInput, families: FamilyCatalog, log: Logger, signal: AbortSignal): Promise<KafkaBus> {
  for (let attempt = 1; ; attempt++) {
    const bus = createKafkaBus(config, { families, onLog: kafkaLog(log) });
    try {
      await bus.start();
      return bus;
    } catch (error) {
      await bus.stop().catch(() => {});
      if (signal.aborted || (error as { permanent?: boolean }).permanent === true) throw error;
      const delay = backoffMs(attempt, 500, 10_000);
      log.warn({ brokers: bus.config.brokers, attempt, retry_in_ms: delay, err: (error as Error).message }, 'Kafka unavailable; waiting');
      await sleep(delay, signal);
    }
  }
}
