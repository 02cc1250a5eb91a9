// The sink's dead-letter producer: rows and events that failed validation go to `<prefix>dlq` with a reason header,
// beside their ingest_errors rows. Malformed bus messages are dead-lettered by the Kafka bus itself.
import type { Producer } from 'kafkajs';
import { Partitioners } from '../bus/kafkajs.js';
import type { Segment } from '../bus/bus.js';
import { createKafkaClient, type KafkaLogSink } from '../bus/kafka-client.js';
import type { KafkaBusConfig } from '../bus/kafka-config.js';
import { dlqTopic } from '../bus/kafka-topics.js';
import type { InvalidRecord } from './segment-validation.js';

export interface DeadLetters {
  start(): Promise<void>;
  /** Resolves once the broker acked; the caller inserts the segment only after that. */
  send(segment: Segment, invalid: InvalidRecord[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * At least once, not exactly once: a segment replayed after a crash between this send and the offset commit
 * dead-letters its invalid events again (the ingest_errors rows are deduplicated, the DLQ records are not).
 * Readers of the DLQ key on the `segment` and `index` headers.
 */
export function createDeadLetters(config: KafkaBusConfig, onLog?: KafkaLogSink): DeadLetters {
  const topic = dlqTopic(config.topic_prefix);
  let producer: Producer | undefined;
  return {
    async start() {
      producer = createKafkaClient(config, onLog ? { onLog } : {}).producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
      await producer.connect();
    },
    async send(segment, invalid) {
      if (!producer) throw new Error('dead letters: send before start');
      await producer.send({
        topic, acks: -1,
        messages: invalid.map((bad) => ({
          key: `${segment.host}|${segment.file_key}`,
          value: JSON.stringify(bad.value) ?? 'null',
          headers: {
            reason: bad.reason, segment: segment.id, index: String(bad.index), kind: segment.family, failure: bad.kind,
            host: segment.host, file: segment.file, file_key: segment.file_key,
          },
        })),
      });
    },
    async stop() {
      await producer?.disconnect();
      producer = undefined;
    },
  };
}
