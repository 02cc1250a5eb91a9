// Configuration of the Kafka bus: every key with its unit and default (this comment block is the user doc).
// Credentials never appear here: they come from PERFPIPE_KAFKA_USERNAME / PERFPIPE_KAFKA_PASSWORD.
import { z } from 'zod';

/**
 * `host:port` with an IPv4 address or a name. kafkajs cannot parse IPv6 literals such as `[::1]:9092`
 * (tulios/kafkajs#1589). Prefer `127.0.0.1` over `localhost`: `localhost` may resolve to `::1` first, where a
 * broker bound to 127.0.0.1 refuses connections (docs/kafka.md §4); `localhost` is accepted.
 */
const BrokerAddress = z
  .string()
  .regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, { message: 'expected host:port with an IPv4 address or a host name, e.g. "127.0.0.1:9092"' });

export const KafkaBusConfigSchema = z.strictObject({
  /** Bootstrap brokers, `host:port`. Default `['127.0.0.1:9092']`. */
  brokers: z.array(BrokerAddress).min(1).default(['127.0.0.1:9092']),
  /** Client id the broker sees in its logs and quotas. Default `perfpipe`. */
  client_id: z.string().min(1).default('perfpipe'),
  /** Prefix of every topic: `<prefix>tj`, `<prefix>pg`, `<prefix>atop`, `<prefix>apdex`, `<prefix>dlq`, `<prefix>alerts`. Default `perfpipe.`. */
  topic_prefix: z.string().regex(/^[A-Za-z0-9._-]*$/, { message: 'expected letters, digits, ".", "_" or "-"' }).default('perfpipe.'),
  /** Partitions of topics this bus creates (existing topics are left as they are). Default 6. */
  partitions: z.number().int().positive().default(6),
  /** Replication factor of topics this bus creates. Default 1 (one broker); use 3 on a real cluster. */
  replication_factor: z.number().int().positive().default(1),
  /** Consumer group of the sinks; sinks in one group share the partitions. Default `perfpipe-sink`. */
  group_id: z.string().min(1).default('perfpipe-sink'),
  /**
   * Compression of what agents send. `lz4` (default): each message of rows is an LZ4 frame, made on the thread pool
   * (~10× smaller for TJ rows; the agent shipped 100 MB of TJ 15–25 % faster than uncompressed, as kafkajs copies,
   * the broker stores and the sinks fetch a tenth of the bytes: bench/tj-kafka-ship.ts). `gzip`: Kafka's batch
   * compression in kafkajs's JavaScript (~30 % more agent CPU per MB). `none`: rows as they are, the form sinks
   * before schema 5 read (segment-codec.ts); upgrade the sinks before the agents.
   */
  compression: z.enum(['lz4', 'gzip', 'none']).default('lz4'),
  /** TLS to the brokers. Default false. */
  ssl: z.boolean().default(false),
  /** SASL mechanism; username and password come from the environment. Default none. */
  sasl_mechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  /** Segments accepted by `publish` and not yet acked by the broker, at most; more publishers wait. Default 32. */
  max_in_flight: z.number().int().positive().default(32),
  /** Queued segments are coalesced into one send up to this many bytes of values; a bigger segment goes in consecutive sends of this size. Default 524288. */
  max_batch_bytes: z.number().int().positive().default(512 * 1024),
  /** First wait before a failed handler sees its segment again, in ms; doubles each time. Default 500. */
  retry_initial_ms: z.number().int().positive().default(500),
  /** Longest wait between handler retries, in ms. Default 30000. */
  retry_max_ms: z.number().int().positive().default(30_000),
  /**
   * Partitions a sink handles at once (kafkajs partitionsConsumedConcurrently). One partition's segments stay
   * in order; several partitions overlap their ClickHouse inserts, whose fixed cost per insert otherwise
   * serializes the sink. Default 4.
   */
  partitions_consumed_concurrently: z.number().int().positive().default(4),
  /** Consumer session timeout, in ms: a sink silent this long loses its partitions. Default 30000. */
  session_timeout_ms: z.number().int().positive().default(30_000),
});
export type KafkaBusConfig = z.infer<typeof KafkaBusConfigSchema>;
export type KafkaBusConfigInput = z.input<typeof KafkaBusConfigSchema>;

export interface KafkaCredentials {
  username: string;
  password: string;
}

/** Reads SASL credentials from the environment; the caller must never log the result. */
export function credentialsFromEnv(env: NodeJS.ProcessEnv = process.env): KafkaCredentials | undefined {
  const username = env.PERFPIPE_KAFKA_USERNAME;
  const password = env.PERFPIPE_KAFKA_PASSWORD;
  if (username === undefined || password === undefined) return undefined;
  return { username, password };
}
