// Topic names per family and their creation: created when missing, an "already exists" race is fine.
import type { Admin } from 'kafkajs';
import type { Family } from './bus.js';
import { BusError } from './bus-error.js';
import type { KafkaBusConfig } from './kafka-config.js';
import { sleep } from '../retry/sleep.js';

export function familyTopic(prefix: string, family: Family): string {
  return `${prefix}${family}`;
}

/** Where dead letters go, whatever their family. */
export function dlqTopic(prefix: string): string {
  return `${prefix}dlq`;
}

/** The topics of a bus: one per family (`families`, the registry's names), the dead letters and the alerts. */
export function topicNames(prefix: string, families: readonly Family[]) {
  return {
    families: families.map((family) => familyTopic(prefix, family)),
    dlq: dlqTopic(prefix),
    alerts: `${prefix}alerts`,
  };
}

/** Creates the missing topics; returns the names it created. */
export async function ensureTopics(admin: Admin, config: KafkaBusConfig, families: readonly Family[]): Promise<string[]> {
  const names = topicNames(config.topic_prefix, families);
  const wanted = [...names.families, names.dlq, names.alerts];
  const existing = new Set(await admin.listTopics());
  const missing = wanted.filter((topic) => !existing.has(topic));
  if (missing.length === 0) return [];
  // kafkajs resolves false instead of throwing when every topic already exists (a second agent won the
  // race), so concurrent start-ups of several agents need no extra handling here.
  await admin.createTopics({
    // kafkajs's own wait retries only LEADER_NOT_AVAILABLE, but a KRaft broker (4.x) first answers
    // UNKNOWN_TOPIC_OR_PARTITION for a just-created topic, which kafkajs treats as fatal: wait ourselves.
    waitForLeaders: false,
    topics: missing.map((topic) => ({
      topic,
      numPartitions: config.partitions,
      replicationFactor: config.replication_factor,
    })),
  });
  await waitForLeaders(admin, wanted);
  return missing;
}

const METADATA_NOT_READY = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE']);

// Generous: on a loaded 2-core machine a KRaft broker took over 30 s to elect leaders for six new topics.
async function waitForLeaders(admin: Admin, topics: string[], timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const metadata = await admin.fetchTopicMetadata({ topics });
      if (metadata.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
    } catch (error) {
      const type = (error as { type?: string }).type;
      if (!type || !METADATA_NOT_READY.has(type)) throw error;
    }
    if (Date.now() > deadline) {
      throw new BusError(`kafka bus: topics ${topics.join(', ')} have no leader after ${timeoutMs} ms`, { permanent: false });
    }
    await sleep(100);
  }
}
