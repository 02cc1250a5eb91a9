// The consuming half of the Kafka bus: segments rebuilt per partition, handed to the handler one at a time per
// partition (several partitions at once), and offsets committed only after the handler resolved (acknowledge,
// then checkpoint — bus.ts).
import type { Consumer, EachBatchPayload } from 'kafkajs';
import type { SegmentHandler } from './bus.js';
import type { KafkaBusConfig } from './kafka-config.js';
import type { KafkaLogSink } from './kafka-client.js';
import { PartitionAssembler, type Rejected } from './segment-assembler.js';
import { sleep as pause } from '../retry/sleep.js';
import { backoffMs } from '../retry/backoff.js';

export interface SegmentConsumerOptions {
  consumer: Consumer;
  topics: string[];
  handler: SegmentHandler;
  config: KafkaBusConfig;
  /** Sends rejected messages to the dead-letter topic; resolves once the broker acked them. */
  deadLetter: (rejected: Rejected[], source: { topic: string; partition: number }) => Promise<void>;
  onLog?: KafkaLogSink;
}

const HEARTBEAT_EVERY_MS = 3000;

export async function runSegmentConsumer(options: SegmentConsumerOptions): Promise<void> {
  const { consumer, handler, config } = options;
  const assemblers = new Map<string, PartitionAssembler>();
  // After a rebalance kafkajs restarts every partition from its committed offset: partial state is void.
  consumer.on(consumer.events.GROUP_JOIN, () => {
    for (const assembler of assemblers.values()) assembler.reset();
  });

  /** A pause that ends early (within 100 ms) once the consumer stops running. */
  const sleep = async (ms: number, isRunning: () => boolean) => {
    const until = Date.now() + ms;
    while (isRunning() && Date.now() < until) await pause(Math.min(100, until - Date.now()));
  };

  /** Calls the handler until it resolves (true) or the consumer stops (false). */
  async function handleUntilAcknowledged(payload: EachBatchPayload, segment: Parameters<SegmentHandler>[0]): Promise<boolean> {
    for (let failure = 1; ; failure++) {
      const delay = backoffMs(failure, config.retry_initial_ms, config.retry_max_ms);
      // A long ClickHouse insert must not cost the partitions: keep the session alive meanwhile.
      const beat = setInterval(() => void payload.heartbeat().catch(() => {}), HEARTBEAT_EVERY_MS);
      try {
        await handler(segment);
        return true;
      } catch (error) {
        options.onLog?.({
          level: 'warn', namespace: 'perfpipe.bus', message: 'segment handler failed; the segment will be retried',
          fields: { segment: segment.id, retry_in_ms: delay, error: error instanceof Error ? error.message : String(error) },
        });
      } finally {
        clearInterval(beat);
      }
      if (!payload.isRunning()) return false;
      await sleep(delay, payload.isRunning);
      if (!payload.isRunning()) return false;
    }
  }

  async function eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const where = `${batch.topic}:${batch.partition}`;
    let assembler = assemblers.get(where);
    if (!assembler) assemblers.set(where, (assembler = new PartitionAssembler()));
    const commit = async (offset: bigint) => {
      await payload.commitOffsetsIfNecessary({
        topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: offset.toString() }] }],
      });
    };
    for (const message of batch.messages) {
      if (!payload.isRunning() || payload.isStale()) return;
      for (const output of assembler.push(message)) {
        if (output.type === 'malformed') {
          await options.deadLetter([output.rejected], batch);
          await commit(assembler.commitOffset(output.offset));
          continue;
        }
        if (output.invalid.length > 0) await options.deadLetter(output.invalid, batch);
        if (!(await handleUntilAcknowledged(payload, output.segment))) return;
        await commit(assembler.commitOffset(output.lastOffset));
      }
      // Resolving moves the fetch position only (autoCommit is off): open parts stay buffered here and
      // are not fetched again; the committed offset is what a restart reads from.
      payload.resolveOffset(message.offset);
      await payload.heartbeat();
    }
  }

  await consumer.subscribe({ topics: options.topics, fromBeginning: true });
  await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, partitionsConsumedConcurrently: config.partitions_consumed_concurrently, eachBatch });
}
