// Counts the messages in Kafka topics from the outside, the same way for every shipper: the sum over partitions of
// each high-water mark minus its low-water mark (kafkajs admin.fetchTopicOffsets). A message is counted once the
// broker has it in the log; with acks=all on a single node that is when the producer's send is acknowledged.
import type { Admin } from 'kafkajs';
import { Kafka, logLevel } from '../ingest/bus/kafkajs.js';

export interface TopicCounter {
  count(topics: string[]): Promise<number>;
  /** Creates the topic when missing: the bench broker does not create topics on first write. */
  ensure(topic: string, partitions: number): Promise<void>;
  close(): Promise<void>;
}

export async function createTopicCounter(brokers: string[]): Promise<TopicCounter> {
  const admin: Admin = new Kafka({ clientId: 'perfpipe-bench-counter', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  return {
    async count(topics) {
      // A loaded broker may answer NOT_LEADER_FOR_PARTITION while it settles a new topic's leaders: ask again.
      for (let attempt = 1; ; attempt++) {
        try {
          const existing = new Set(await admin.listTopics());
          let n = 0;
          for (const topic of topics.filter((t) => existing.has(t))) {
            for (const p of await admin.fetchTopicOffsets(topic)) n += Number(p.high) - Number(p.low);
          }
          return n;
        } catch (error) {
          if ((error as { retriable?: boolean }).retriable !== true || attempt >= 100) throw error;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    },
    async ensure(topic, partitions) {
      if ((await admin.listTopics()).includes(topic)) return;
      await admin.createTopics({ topics: [{ topic, numPartitions: partitions, replicationFactor: 1 }], waitForLeaders: false });
      for (let i = 0; i < 600; i++) {
        try {
          const meta = await admin.fetchTopicMetadata({ topics: [topic] });
          if (meta.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
        } catch {
          // UNKNOWN_TOPIC_OR_PARTITION while a KRaft broker creates it: wait (see ingest/bus/kafka-topics.ts).
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`topic ${topic} has no leader after 60 s`);
    },
    close: () => admin.disconnect(),
  };
}
