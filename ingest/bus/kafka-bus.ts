// The Kafka bus of the distributed shape: agents publish segments to `perfpipe.<family>`, sinks consume them
// in one consumer group. publish resolves once the broker acked (acks=all); offsets move after the handler.
import type { Admin, Consumer, Producer } from 'kafkajs';
import { CompressionTypes, Partitioners, type Kafka } from './kafkajs.js';
import type { Bus, FamilyCatalog, Segment, SegmentHandler } from './bus.js';
import { BusError } from './bus-error.js';
import { KafkaBusConfigSchema, type KafkaBusConfig, type KafkaBusConfigInput } from './kafka-config.js';
import { createKafkaClient, type KafkaLogSink } from './kafka-client.js';
import { ensureTopics, familyTopic, topicNames } from './kafka-topics.js';
import { compressRows, encodeSegment } from './segment-codec.js';
import type { Rejected } from './segment-assembler.js';
import { runSegmentConsumer } from './segment-consumer.js';
import { SendQueue, messageBytes } from './send-queue.js';
import { backoffMs } from '../retry/backoff.js';

export interface KafkaBusContext {
  /** The families (ingest/families/registry.ts `FAMILIES`): a topic each, and their tables' layouts. */
  families: FamilyCatalog;
  /** Receives kafkajs and bus log lines (secrets removed); without it they are dropped. */
  onLog?: KafkaLogSink;
  /** Where SASL credentials are read from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export interface KafkaBus extends Bus {
  readonly config: KafkaBusConfig;
  /**
   * Sends records to the `<prefix>alerts` topic through the bus's idempotent producer (acks=all); resolves
   * once acked. Throws a permanent BusError when the bus is not running. Used by the lock alerter.
   */
  publishAlerts(records: { key: string; value: string }[]): Promise<void>;
}

type State = 'new' | 'starting' | 'running' | 'stopping' | 'stopped';

export function createKafkaBus(input: KafkaBusConfigInput, ctx: KafkaBusContext): KafkaBus {
  const config = KafkaBusConfigSchema.parse(input);
  const topics = topicNames(config.topic_prefix, ctx.families.names);
  let state: State = 'new';
  let kafka: Kafka | undefined;
  let admin: Admin | undefined;
  let producer: Producer | undefined;
  let consumer: Consumer | undefined;
  let queue: SendQueue | undefined;
  let consumerRunning: Promise<void> | undefined;
  /** Consumer crashes since the group was last joined: the next restart's backoff. */
  let crashes = 0;
  let starting: Promise<void> | undefined;
  /** Settles after the last publish's messages were packed (compression lz4). */
  let packedInOrder: Promise<unknown> = Promise.resolve();
  let stopping: Promise<void> | undefined;

  async function connect(): Promise<void> {
    kafka = createKafkaClient(config, { ...(ctx.onLog ? { onLog: ctx.onLog } : {}), ...(ctx.env ? { env: ctx.env } : {}) });
    admin = kafka.admin();
    await admin.connect();
    await ensureTopics(admin, config, ctx.families.names);
    producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // Passing the partitioner silences kafkajs's v2 default-partitioner warning; murmur2 = the Java client's.
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    const send = producer;
    queue = new SendQueue(
      async (topicMessages) => {
        await send.sendBatch({
          topicMessages,
          acks: -1,
          // lz4 packs the rows messages themselves (segment-codec.ts): their sizes are then known before the send.
          compression: config.compression === 'gzip' ? CompressionTypes.GZIP : CompressionTypes.None,
        });
      },
      { maxInFlight: config.max_in_flight, maxBatchBytes: config.max_batch_bytes },
    );
    state = 'running';
  }

  async function publish(segment: Segment): Promise<void> {
    if (state !== 'running' || !queue) {
      const message = state === 'new' || state === 'starting' ? 'kafka bus: publish before start' : 'kafka bus: publish after stop';
      throw new BusError(message, { permanent: true, context: { segment: segment.id } });
    }
    const topic = familyTopic(config.topic_prefix, segment.family);
    const encoded = encodeSegment(segment, { layouts: ctx.families });
    let messages = encoded;
    if (config.compression === 'lz4') {
      // Frames are made in parallel, but handed to the queue in the order of the publishes: a file's segments
      // must reach its partition in order, and a small segment packs sooner than a large one published before it.
      const packed = compressRows(encoded);
      const turn = packedInOrder.then(() => packed);
      packedInOrder = turn.catch(() => undefined);
      messages = await turn;
    }
    const bytes = messages.reduce((sum, m) => sum + messageBytes(m), 0);
    try {
      await queue.submit({ topic, messages, bytes });
    } catch (error) {
      if (error instanceof BusError) throw error;
      const why = error instanceof Error ? error.message : String(error);
      throw new BusError(`kafka bus: sending segment ${segment.id} to ${topic} failed: ${why}`, {
        permanent: false, context: { topic, segment: segment.id }, cause: error,
      });
    }
  }

  async function publishAlerts(records: { key: string; value: string }[]): Promise<void> {
    if (state !== 'running' || !queue) throw new BusError(`kafka bus: alerts published while the bus is ${state}`, { permanent: true });
    if (records.length === 0) return;
    const bytes = records.reduce((sum, r) => sum + messageBytes(r), 0);
    await queue.submit({ topic: topics.alerts, messages: records, bytes });
  }

  async function deadLetter(rejected: Rejected[], source: { topic: string; partition: number }): Promise<void> {
    if (!queue) return;
    const messages = rejected.map(({ message, reason }) => ({
      key: message.key,
      value: message.value,
      headers: {
        ...message.headers,
        reason, source_topic: source.topic, source_partition: String(source.partition), source_offset: message.offset,
      },
    }));
    const bytes = messages.reduce((sum, m) => sum + (m.value?.length ?? 0), 0);
    await queue.submit({ topic: topics.dlq, messages, bytes });
  }

  async function consume(handler: SegmentHandler): Promise<void> {
    if (state !== 'running' || !kafka) throw new BusError('kafka bus: consume needs a running bus', { permanent: true });
    if (consumerRunning) throw new BusError('kafka bus: a consumer is already registered', { permanent: true });
    // A consumer that failed to start may be registered again.
    consumerRunning = runConsumer(kafka, handler).catch((error: unknown) => {
      consumerRunning = undefined;
      throw error;
    });
    await consumerRunning;
  }

  async function runConsumer(client: Kafka, handler: SegmentHandler): Promise<void> {
    const next = client.consumer({
      groupId: config.group_id,
      sessionTimeout: config.session_timeout_ms,
      allowAutoTopicCreation: false,
    });
    consumer = next;
    // kafkajs restarts a crashed consumer only after retriable errors; others (e.g. "Failed to find group
    // coordinator" while a fresh broker still loads __consumer_offsets) leave it stopped for good. A sink
    // must not die quietly, so such a crash gets a new consumer after a backoff, for as long as the bus runs.
    next.on(next.events.CRASH, ({ payload }) => {
      if (payload.restart || state !== 'running') return;
      ctx.onLog?.({
        level: 'error', namespace: 'perfpipe.bus', message: 'kafka consumer crashed; starting a new one',
        fields: { error: payload.error.message, retry_in_ms: backoffMs(crashes + 1, config.retry_initial_ms, config.retry_max_ms) },
      });
      const delay = backoffMs(++crashes, config.retry_initial_ms, config.retry_max_ms);
      setTimeout(() => {
        if (state !== 'running' || consumer !== next) return;
        void next.disconnect().catch(() => {}).then(() => (state === 'running' ? runConsumer(client, handler) : undefined))
          .catch((error: unknown) => ctx.onLog?.({
            level: 'error', namespace: 'perfpipe.bus', message: 'kafka consumer restart failed',
            fields: { error: error instanceof Error ? error.message : String(error) },
          }));
      }, delay);
    });
    next.on(next.events.GROUP_JOIN, () => (crashes = 0));
    await next.connect();
    await runSegmentConsumer({
      consumer: next, topics: topics.families, handler, config, deadLetter, ...(ctx.onLog ? { onLog: ctx.onLog } : {}),
    });
  }

  async function shutdown(): Promise<void> {
    await starting?.catch(() => {});
    state = 'stopping';
    // The consumer goes first: it may still dead-letter through the producer while finishing its batch.
    await consumer?.disconnect();
    await queue?.close();
    await producer?.disconnect();
    await admin?.disconnect();
    state = 'stopped';
  }

  return {
    kind: 'kafka',
    config,
    start() {
      if (state === 'stopping' || state === 'stopped') {
        return Promise.reject(new BusError('kafka bus: cannot start after stop', { permanent: true }));
      }
      if (!starting) {
        state = 'starting';
        starting = connect();
      }
      return starting;
    },
    publish,
    publishAlerts,
    consume,
    stop() {
      if (state === 'new') state = 'stopped';
      stopping ??= state === 'stopped' ? Promise.resolve() : shutdown();
      return stopping;
    },
  };
}
