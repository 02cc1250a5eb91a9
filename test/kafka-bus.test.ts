// The Kafka bus on a real broker (scripts/kafka.sh): the shared bus contract, then what only Kafka does —
// topics, consumer groups, redelivery of uncommitted segments, replayed partial segments, dead letters.
import test from 'ava';
import type { Admin } from 'kafkajs';
import { Kafka, logLevel } from '../ingest/bus/kafkajs.js';
import { groupCaughtUp, startBroker, stopBroker, type Broker } from './support/kafka-broker.js';
import { eventually, makeSegment, runBusContract } from './support/bus-contract.js';
import { createKafkaBus } from '../ingest/bus/kafka-bus.js';
import type { KafkaBusConfigInput } from '../ingest/bus/kafka-config.js';
import { topicNames } from '../ingest/bus/kafka-topics.js';
import { FAMILIES } from '../ingest/families/registry.js';
import { encodeSegment } from '../ingest/bus/segment-codec.js';
import type { Bus, Segment } from '../ingest/bus/bus.js';

let broker: Broker | undefined;
let admin: Admin | undefined;
let kafka: Kafka | undefined;
let counter = 0;

test.before(async () => {
  broker = await startBroker();
  kafka = new Kafka({ clientId: 'kafka-bus-test', brokers: broker.brokers, logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  await admin.connect();
});

test.after.always(async () => {
  await admin?.disconnect();
  await stopBroker();
});

const verbose = process.env.PERFPIPE_TEST_KAFKA_LOG === '1';

function busFor(shared: string, extra: KafkaBusConfigInput = {}): Bus {
  return createKafkaBus(
    {
      brokers: broker!.brokers, topic_prefix: `${shared}.`, group_id: `${shared}-sink`,
      retry_initial_ms: 100, retry_max_ms: 1000, session_timeout_ms: 10_000, ...extra,
    },
    { families: FAMILIES, ...(verbose ? { onLog: (line) => console.error(`[${line.level}] ${line.namespace}: ${line.message}`, line.fields) } : {}) },
  );
}

const unique = () => `kb${process.pid}n${++counter}`;

runBusContract(test, {
  name: 'kafka',
  acknowledges: 'broker',
  create: ({ shared, maxInFlight }) => busFor(shared, { max_in_flight: maxInFlight }),
  timeoutMs: 30_000,
});

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function committed(groupId: string, topic: string): Promise<Map<number, string>> {
  // The group coordinator may move or still be loading (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS):
  // retriable answers, asked again.
  for (let attempt = 1; ; attempt++) {
    try {
      const [offsets] = await admin!.fetchOffsets({ groupId, topics: [topic] });
      return new Map(offsets!.partitions.map((p) => [p.partition, p.offset]));
    } catch (error) {
      if (!(error as { retriable?: boolean }).retriable || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

test('kafka bus: topics are created with the configured partitions, and a second start finds them', async (t) => {
  const shared = unique();
  const first = busFor(shared, { partitions: 3 });
  const second = busFor(shared, { partitions: 3 });
  t.teardown(async () => void (await Promise.all([first.stop(), second.stop()])));
  await Promise.all([first.start(), second.start()]);
  const names = topicNames(`${shared}.`, FAMILIES.names);
  const { topics } = await admin!.fetchTopicMetadata({ topics: [...names.families, names.dlq, names.alerts] });
  t.deepEqual(topics.map((topic) => topic.name).sort(), [`${shared}.alerts`, `${shared}.apdex`, `${shared}.atop`, `${shared}.dlq`, `${shared}.pg`, `${shared}.pg_activity`, `${shared}.tj`]);
  for (const topic of topics) t.is(topic.partitions.length, 3, topic.name);
});

test('kafka bus: two consumers in one group split the partitions and together see every segment once', async (t) => {
  const shared = unique();
  const [producer, left, right] = [busFor(shared), busFor(shared), busFor(shared)];
  t.teardown(async () => void (await Promise.all([producer.stop(), left.stop(), right.stop()])));
  await Promise.all([producer.start(), left.start(), right.start()]);
  const seen = { left: [] as string[], right: [] as string[] };
  await left.consume(async (segment) => void seen.left.push(segment.id));
  await right.consume(async (segment) => void seen.right.push(segment.id));
  // Publish only once both hold their partitions, so no rebalance replays a handled segment.
  await until(async () => {
    const { groups } = await admin!.describeGroups([`${shared}-sink`]);
    return groups[0]?.state === 'Stable' && groups[0].members.length === 2;
  }, 'a stable group of two members');
  const segments = Array.from({ length: 30 }, (_, i) => makeSegment(`file-${i % 12}`, Math.floor(i / 12) * 100, 2));
  await Promise.all(segments.map((segment) => producer.publish(segment)));
  await eventually(() => seen.left.length + seen.right.length >= segments.length, 30_000, 'all 30 segments');
  await until(() => groupCaughtUp(admin!, `${shared}-sink`, `${shared}.`), 'the group to commit every segment');
  const all = [...seen.left, ...seen.right];
  t.is(all.length, segments.length);
  t.deepEqual([...all].sort(), segments.map((s) => s.id).sort());
  t.true(seen.left.length > 0 && seen.right.length > 0, `split ${seen.left.length}/${seen.right.length}`);
});

test('kafka bus: a consumer stopped before acknowledging leaves exactly the unacknowledged segments for the next', async (t) => {
  const shared = unique();
  const [producer, first, second] = [busFor(shared), busFor(shared), busFor(shared)];
  t.teardown(async () => void (await Promise.all([producer.stop(), first.stop(), second.stop()])));
  await Promise.all([producer.start(), first.start()]);
  const segments = Array.from({ length: 5 }, (_, i) => makeSegment('crashy', i * 100, 1));
  for (const segment of segments) await producer.publish(segment);
  const firstSeen: string[] = [];
  await first.consume(async (segment) => {
    firstSeen.push(segment.id);
    if (segment.start >= 200) throw new Error('sink down');
  });
  await eventually(() => firstSeen.includes(segments[2]!.id), 30_000, 'the first consumer to reach segment 2');
  await first.stop();
  await second.start();
  const secondSeen: Segment[] = [];
  await second.consume(async (segment) => void secondSeen.push(segment));
  await eventually(() => secondSeen.length >= 3, 30_000, 'the redelivered segments');
  await until(() => groupCaughtUp(admin!, `${shared}-sink`, `${shared}.`), 'the second consumer to commit them');
  t.deepEqual(secondSeen.map((s) => s.start), [200, 300, 400]);
  t.deepEqual([...new Set(firstSeen)], segments.slice(0, 3).map((s) => s.id));
});

test('kafka bus: a replayed segment after a partial copy is delivered once, complete, and commits wait for it', async (t) => {
  const shared = unique();
  const bus = busFor(shared);
  const raw = kafka!.producer();
  t.teardown(async () => {
    await raw.disconnect();
    await bus.stop();
  });
  await Promise.all([bus.start(), raw.connect()]);
  const topic = `${shared}.tj`;
  const seen: Segment[] = [];
  await bus.consume(async (segment) => void seen.push(segment));
  const replayed = makeSegment('replayed', 0, 4, 1);
  // Another segment of the same file (same key, so the same partition), sent whole after the partial copy: once it
  // is delivered the consumer has read past the partial copy's messages.
  const probe = makeSegment('replayed', 50, 1);
  const after = makeSegment('replayed', 100, 1);
  // One row per message, so that the segment spans several messages and a partial copy exists.
  const messages = encodeSegment(replayed, { messageBytes: 1, layouts: FAMILIES });
  await raw.send({ topic, messages: messages.slice(0, 2) });
  await raw.send({ topic, messages: encodeSegment(probe, { layouts: FAMILIES }) });
  await eventually(() => seen.length >= 1, 30_000, 'the segment sent after the partial copy');
  t.deepEqual(seen, [probe], 'the partial copy is not delivered');
  // The consumer commits after each segment it handled: here at most the partial copy's first offset.
  await until(async () => [...(await committed(`${shared}-sink`, topic)).values()].some((offset) => Number(offset) >= 0), 'the commit after the probe');
  t.true([...(await committed(`${shared}-sink`, topic)).values()].every((offset) => Number(offset) <= 0), 'nothing committed past the partial copy');
  const probeMessages = encodeSegment(probe, { layouts: FAMILIES }).length;
  const afterMessages = encodeSegment(after, { layouts: FAMILIES });
  await raw.send({ topic, messages });
  await raw.send({ topic, messages: afterMessages });
  // 2 partial + the probe + the replayed segment whole + the following segment: once the next offset to read is
  // committed, nothing sent can be delivered again. (A CALL travels as its event and its call split: count them.)
  const next = String(2 + probeMessages + messages.length + afterMessages.length);
  await until(async () => [...(await committed(`${shared}-sink`, topic)).values()].includes(next), `offset ${next} committed`);
  t.deepEqual(seen, [probe, replayed, after]);
});

test('kafka bus: a malformed message goes to the dead-letter topic with its reason and is skipped', async (t) => {
  const shared = unique();
  const bus = busFor(shared);
  const raw = kafka!.producer();
  const dlq = kafka!.consumer({ groupId: `${shared}-dlq-reader` });
  t.teardown(async () => {
    await Promise.all([raw.disconnect(), dlq.disconnect()]);
    await bus.stop();
  });
  await Promise.all([bus.start(), raw.connect(), dlq.connect()]);
  const seen: Segment[] = [];
  await bus.consume(async (segment) => void seen.push(segment));
  const good = makeSegment('after-garbage', 0, 1);
  await raw.send({ topic: `${shared}.tj`, messages: [{ key: 'db1|after-garbage', value: 'not json' }] });
  await raw.send({ topic: `${shared}.tj`, messages: encodeSegment(good, { layouts: FAMILIES }) });
  await eventually(() => seen.length >= 1, 30_000, 'the good segment');
  t.deepEqual(seen, [good]);
  const dead: Array<{ value: string; reason: string; offset: string }> = [];
  await dlq.subscribe({ topic: `${shared}.dlq`, fromBeginning: true });
  await dlq.run({
    eachMessage: async ({ message }) =>
      void dead.push({ value: String(message.value), reason: String(message.headers?.reason), offset: String(message.headers?.source_offset) }),
  });
  await eventually(() => dead.length >= 1, 30_000, 'the dead letter');
  t.is(dead.length, 1);
  t.is(dead[0]!.value, 'not json');
  t.is(dead[0]!.offset, '0');
  t.regex(dead[0]!.reason, /^not a perfpipe segment message \(header kind: /);
});
