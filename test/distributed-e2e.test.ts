// The distributed shape end to end on a real broker: TJ files (simulate/) → `perfpipe agent` → Kafka →
// `perfpipe sink` → embedded ClickHouse, with counts checked against what the writer wrote.
import test from 'ava';
import { legacyMessages } from './support/segments.js';
import type { TjEvent } from '../schemas/tj-event.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from '../ingest/bus/kafkajs.js';
import { groupCaughtUp, startBroker, stopBroker, type Broker } from './support/kafka-broker.js';
import type { Admin } from 'kafkajs';
import { freePort, httpGet, sinkQuery, startDaemon, spawnDaemon, storedIn, waitFor, type Daemon } from './support/daemon.js';
import { TjStream } from './support/tj-stream.js';
import { encodeSegment } from '../ingest/bus/segment-codec.js';
import { segmentId } from '../ingest/bus/bus.js';
import { createTjParser } from '../parsers/tj/index.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-distributed-'));
const daemons: Daemon[] = [];
let broker: Broker | undefined;
let kafka: Kafka | undefined;
let admin: Admin | undefined;

test.before(async () => {
  broker = await startBroker();
  kafka = new Kafka({ clientId: 'distributed-test', brokers: broker.brokers, logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  await admin.connect();
});

test.after.always(async () => {
  await admin?.disconnect();
  await Promise.all(daemons.map((d) => d.stop('SIGKILL')));
  await stopBroker();
  rmSync(work, { recursive: true, force: true });
});

/** A config file per scenario: own topics and group on the shared broker, a short session for quick takeovers. */
function configFile(name: string): string {
  const path = join(work, `${name}.yaml`);
  writeFileSync(path, [
    'bus:', '  type: kafka', `  brokers: ["${broker!.brokers[0]}"]`, `  topic_prefix: "${name}."`, `  group_id: "${name}-sink"`,
    '  partitions: 6', '  session_timeout_ms: 8000', '  retry_initial_ms: 200', '  retry_max_ms: 2000',
    'pipeline:', '  poll_interval_ms: 200', '',
  ].join('\n'));
  return path;
}

async function daemon(args: string[]): Promise<Daemon> {
  const d = await startDaemon(args);
  daemons.push(d);
  return d;
}

const agentArgs = (name: string, tj: string) => ['agent', '--config', configFile(name), '--tj', tj, '--tz', 'Europe/Moscow', '--data', join(work, `${name}-agent`)];
const sinkArgs = (name: string, data: string) => ['sink', '--config', configFile(name), '--data', data];

function metric(text: string, name: string): number {
  return text.split('\n').filter((l) => l.startsWith(name)).reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

async function allStored(data: string, written: number, timeoutMs = 90_000): Promise<void> {
  await waitFor(async () => (await storedIn(data)).unique >= written, `${written} events stored in ${data}`, timeoutMs, 1000);
}

/** Until scenario `name`'s sinks have committed all the agent sent: nothing can be delivered again, counts are final. */
async function caughtUp(name: string): Promise<void> {
  await waitFor(() => groupCaughtUp(admin!, `${name}-sink`, `${name}.`), `the ${name} sinks to commit everything`, 60_000, 200);
}

test.serial('every event written reaches ClickHouse exactly once, also across a killed and restarted sink', async (t) => {
  const tj = join(work, 'e2e-tj');
  const stream = new TjStream(tj, { seed: 11, processes: 3 });
  stream.append(6_000);
  const data = join(work, 'e2e-sink');
  let sink = await daemon(sinkArgs('e2e', data));
  const agent = await daemon(agentArgs('e2e', tj));
  for (let i = 0; i < 5; i++) {
    stream.append(1_000);
    await new Promise((r) => setTimeout(r, 300));
  }
  await allStored(data, stream.written);
  await caughtUp('e2e');
  t.deepEqual(await storedIn(data), { count: stream.written, unique: stream.written });
  const agentMetrics = (await httpGet(`${agent.url}/metrics`)).text;
  t.is(metric(agentMetrics, 'perfpipe_events_total'), stream.written);
  t.true(agentMetrics.includes('perfpipe_file_lag_bytes{file="'));
  t.is(metric((await httpGet(`${sink.url}/metrics`)).text, 'perfpipe_sink_events_out_total'), stream.written);

  // ClickHouse "gone": the sink process is killed mid-stream; Kafka keeps what the agent sends meanwhile.
  const before = stream.written;
  stream.append(2_000);
  await waitFor(async () => (await storedIn(data)).unique > before, 'the sink to be storing the new events', 30_000, 50);
  t.is(await sink.stop('SIGKILL'), null);
  stream.append(3_000);
  await waitFor(async () => metric((await httpGet(`${agent.url}/metrics`)).text, 'perfpipe_events_total') >= stream.written, 'the agent to publish everything', 60_000);
  sink = await daemon(sinkArgs('e2e', data));
  await allStored(data, stream.written, 120_000);
  await caughtUp('e2e');
  t.deepEqual(await storedIn(data), { count: stream.written, unique: stream.written });
});

test.serial('two sinks in one group share the 6 partitions and together store every event once', async (t) => {
  const [left, right] = [join(work, 'two-left'), join(work, 'two-right')];
  await Promise.all([daemon(sinkArgs('two', left)), daemon(sinkArgs('two', right))]);
  // Publish only once both hold partitions: a rebalance mid-stream could hand a segment to the other store.
  await waitFor(async () => {
    const { groups } = await admin!.describeGroups(['two-sink']);
    return groups[0]?.state === 'Stable' && groups[0].members.length === 2;
  }, 'a stable group of two sinks', 60_000, 500);
  const tj = join(work, 'two-tj');
  const stream = new TjStream(tj, { seed: 12, processes: 8 });
  stream.append(8_000);
  await daemon(agentArgs('two', tj));
  await waitFor(async () => (await storedIn(left)).unique + (await storedIn(right)).unique >= stream.written, 'both sinks together to store everything', 90_000, 1000);
  await caughtUp('two');
  const keys = async (data: string) => (await sinkQuery<{ k: string }>(data, "SELECT concat(file_key, ':', toString(file_offset)) AS k FROM tj_events")).map((r) => r.k);
  const [l, r] = [await keys(left), await keys(right)];
  t.true(l.length > 0 && r.length > 0, `split ${l.length}/${r.length}`);
  t.is(l.length + r.length, stream.written);
  t.is(new Set([...l, ...r]).size, stream.written);
  const { topics } = await admin!.fetchTopicMetadata({ topics: ['two.tj'] });
  t.is(topics[0]?.partitions.length, 6);
});

test.serial('a sink whose ClickHouse refuses waits without reading; once a sink can write, nothing is lost; bad events are dead-lettered', async (t) => {
  const tj = join(work, 'down-tj');
  const stream = new TjStream(tj, { seed: 13, processes: 2 });
  stream.append(4_000);
  const refusing = await spawnDaemon(['sink', '--config', configFile('down'), '--clickhouse', `http://127.0.0.1:${await freePort()}`]);
  daemons.push(refusing);
  const agent = await daemon(agentArgs('down', tj));
  await waitFor(async () => metric((await httpGet(`${agent.url}/metrics`)).text, 'perfpipe_events_total') >= stream.written, 'the agent to publish everything', 60_000);
  await waitFor(async () => metric((await httpGet(`${refusing.url}/metrics`)).text, 'perfpipe_store_unavailable_total') >= 2, 'the refusing sink to retry', 30_000);
  t.is((await httpGet(`${refusing.url}/health`)).status, 200);
  t.is((await httpGet(`${refusing.url}/ready`)).status, 503);
  t.is(await refusing.stop('SIGTERM'), 0);

  const data = join(work, 'down-sink');
  await daemon(sinkArgs('down', data));
  await allStored(data, stream.written);
  t.deepEqual(await storedIn(data), { count: stream.written, unique: stream.written });

  // A segment whose second event breaks the schema: the good one is stored, the bad one is an ingest error + dead letter.
  const producer = kafka!.producer();
  await producer.connect();
  t.teardown(() => producer.disconnect());
  const id = segmentId('forged', 'forged-key', 0, 10);
  // As an agent older than row encoding would send it (events as NDJSON): the sink checks those against the schema.
  // The good event is one the parser made; the second has a timestamp no schema accepts.
  const parsed = createTjParser({ host: 'forged', source: 'tj', file: '/forged.log', file_key: 'forged-key', offset: 0, hour: '26113014', tz: 'UTC' })
    .push(Buffer.from('00:01.000001-5,CALL,1,Usr=forged\n00:02.000001-5,CALL,1,Usr=forged\n')).events;
  const forged = legacyMessages({ id, family: 'tj', host: 'forged', source: 'tj', file: '/forged.log', file_key: 'forged-key', start: 0, end: 10 },
    [parsed[0]!, { event: 'CALL', ts: 'yesterday' } as unknown as TjEvent]);
  await producer.send({ topic: 'down.tj', messages: forged.map(({ key, value, headers }) => ({ key, value, headers: headers as Record<string, string> })) });
  await waitFor(async () => (await sinkQuery(data, "SELECT 1 FROM ingest_errors WHERE kind = 'invalid_event'")).length === 1, 'the invalid_event row', 30_000);
  const [error] = await sinkQuery<{ reason: string; file: string }>(data, "SELECT reason, file FROM ingest_errors WHERE kind = 'invalid_event'");
  t.is(error?.file, '/forged.log');
  t.regex(error?.reason ?? '', /^event 1 of segment forged\|forged-key\|0-10 does not match the tj event schema: /);
  const dead: string[] = [];
  const reader = kafka!.consumer({ groupId: 'down-dlq-reader' });
  await reader.connect();
  t.teardown(() => reader.disconnect());
  await reader.subscribe({ topic: 'down.dlq', fromBeginning: true });
  await reader.run({ eachMessage: async ({ message }) => void dead.push(String(message.headers?.segment)) });
  await waitFor(() => dead.length >= 1, 'the dead letter', 30_000);
  t.deepEqual(dead, [id]);
  // The good event of the forged segment is stored beside the stream's, once.
  t.deepEqual(await sinkQuery(data, "SELECT user, toString(file_offset) AS file_offset FROM tj_events WHERE file_key = 'forged-key'"), [{ user: 'forged', file_offset: '0' }]);
  t.deepEqual(await storedIn(data), { count: stream.written + 1, unique: stream.written + 1 });
});

test.serial('`run` with bus.type kafka is an agent and a sink in one process, joined through the topics', async (t) => {
  const tj = join(work, 'one-tj');
  const stream = new TjStream(tj, { seed: 14, processes: 2 });
  stream.append(4_000);
  const data = join(work, 'one-run');
  const run = await daemon(['run', '--config', configFile('one'), '--tj', tj, '--tz', 'Europe/Moscow', '--data', data]);
  stream.append(2_000);
  await allStored(data, stream.written);
  t.deepEqual(await storedIn(data), { count: stream.written, unique: stream.written });
  const metrics = (await httpGet(`${run.url}/metrics`)).text;
  t.is(metric(metrics, 'perfpipe_events_total'), stream.written);
  t.is(metric(metrics, 'perfpipe_sink_events_out_total'), stream.written);
  const admin = kafka!.admin();
  await admin.connect();
  t.teardown(() => admin.disconnect());
  const offsets = await admin.fetchTopicOffsets('one.tj');
  // Events travel many per message (segment-codec.ts): far fewer messages than events, and at least one.
  const messages = offsets.reduce((sum, p) => sum + Number(p.high), 0);
  t.true(messages > 0 && messages < stream.written / 10, `${messages} messages carried ${stream.written} events`);
});
