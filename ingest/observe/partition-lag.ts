// Consumer-group lag per partition for a sink's /metrics: the high watermark minus the group's committed
// offset, read with a Kafka admin client every few seconds (one metadata round trip per topic, cheap).
import type { Admin } from 'kafkajs';
import { createKafkaClient } from '../bus/kafka-client.js';
import type { KafkaBusConfig } from '../bus/kafka-config.js';
import { topicNames } from '../bus/kafka-topics.js';
import { escape } from './file-lag.js';

export class PartitionLag {
  #admin: Admin | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lag = new Map<string, { topic: string; partition: number; lag: number }>();

  /** `families`: the names of the families whose topics the group reads (the registry's). */
  constructor(private readonly config: KafkaBusConfig, private readonly families: readonly string[], private readonly everyMs = 5000) {}

  async start(): Promise<void> {
    this.#admin = createKafkaClient(this.config, {}).admin();
    await this.#admin.connect();
    this.#timer = setInterval(() => void this.refresh().catch(() => {}), this.everyMs);
    this.#timer.unref();
  }

  /** Reads offsets now; failures (broker away) keep the last figures. */
  async refresh(): Promise<void> {
    const admin = this.#admin;
    if (!admin) return;
    const topics = topicNames(this.config.topic_prefix, this.families).families;
    const committed = await admin.fetchOffsets({ groupId: this.config.group_id, topics });
    const next = new Map<string, { topic: string; partition: number; lag: number }>();
    for (const { topic, partitions } of committed) {
      const high = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]));
      for (const p of partitions) {
        const top = high.get(p.partition) ?? 0;
        // -1 = nothing committed yet: everything from the start (the group reads from the beginning) is lag.
        const done = Number(p.offset) < 0 ? 0 : Number(p.offset);
        next.set(`${topic}:${p.partition}`, { topic, partition: p.partition, lag: Math.max(0, top - done) });
      }
    }
    this.#lag = next;
  }

  get total(): number {
    let sum = 0;
    for (const p of this.#lag.values()) sum += p.lag;
    return sum;
  }

  render(): string {
    const lines = ['# HELP perfpipe_partition_lag_messages Messages of a partition not yet committed by the sink group', '# TYPE perfpipe_partition_lag_messages gauge'];
    for (const p of this.#lag.values()) lines.push(`perfpipe_partition_lag_messages{topic="${escape(p.topic)}",partition="${p.partition}"} ${p.lag}`);
    return lines.length > 2 ? `${lines.join('\n')}\n` : '';
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#admin?.disconnect().catch(() => {});
    this.#admin = undefined;
  }
}
