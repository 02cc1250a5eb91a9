// The Kafka bus config: defaults from an empty object, and each kind of mistake with its message.
import test from 'ava';
import { credentialsFromEnv, KafkaBusConfigSchema } from './kafka-config.js';
import { createKafkaClient } from './kafka-client.js';

test('an empty config gives the documented defaults', (t) => {
  t.deepEqual(KafkaBusConfigSchema.parse({}), {
    brokers: ['127.0.0.1:9092'], client_id: 'perfpipe', topic_prefix: 'perfpipe.', partitions: 6,
    replication_factor: 1, group_id: 'perfpipe-sink', compression: 'lz4', ssl: false, max_in_flight: 32,
    max_batch_bytes: 524288, retry_initial_ms: 500, retry_max_ms: 30000, partitions_consumed_concurrently: 4, session_timeout_ms: 30000,
  });
});

test('a misspelt key is an error naming it', (t) => {
  const result = KafkaBusConfigSchema.safeParse({ broker: ['127.0.0.1:9092'] });
  t.false(result.success);
  t.deepEqual(result.error?.issues.map((i) => [i.code, (i as { keys?: string[] }).keys]), [['unrecognized_keys', ['broker']]]);
});

test('an IPv6 broker literal is refused with the expected form', (t) => {
  const result = KafkaBusConfigSchema.safeParse({ brokers: ['[::1]:9092'] });
  t.deepEqual(result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`), [
    'brokers.0: expected host:port with an IPv4 address or a host name, e.g. "127.0.0.1:9092"',
  ]);
});

test('compression is lz4, gzip or none', (t) => {
  for (const c of ['lz4', 'gzip', 'none']) t.true(KafkaBusConfigSchema.safeParse({ compression: c }).success, c);
  t.false(KafkaBusConfigSchema.safeParse({ compression: 'zstd' }).success);
});

test('credentials come from the environment only when both are set', (t) => {
  t.is(credentialsFromEnv({ PERFPIPE_KAFKA_USERNAME: 'u' }), undefined);
  t.deepEqual(credentialsFromEnv({ PERFPIPE_KAFKA_USERNAME: 'u', PERFPIPE_KAFKA_PASSWORD: 'p' }), { username: 'u', password: 'p' });
});

test('a SASL mechanism without credentials in the environment is a permanent error naming the variables', (t) => {
  const config = KafkaBusConfigSchema.parse({ sasl_mechanism: 'scram-sha-512' });
  t.throws(() => createKafkaClient(config, { env: {} }), {
    message: 'kafka bus: sasl_mechanism "scram-sha-512" needs PERFPIPE_KAFKA_USERNAME and PERFPIPE_KAFKA_PASSWORD in the environment',
  });
});
