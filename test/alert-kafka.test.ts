// The alerts topic on a real broker (scripts/kafka.sh): an alerter wired like `perfpipe sink` wires it
// (publishAlerts = KafkaBus.publishAlerts) puts a PostgreSQL lock-timeout notice on `<prefix>alerts`.
import test from 'ava';
import { Kafka, logLevel } from '../ingest/bus/kafkajs.js';
import { startBroker, stopBroker, type Broker } from './support/kafka-broker.js';
import { createKafkaBus } from '../ingest/bus/kafka-bus.js';
import { FAMILIES } from '../ingest/families/registry.js';
import { eventually } from './support/bus-contract.js';
import { Metrics } from '../ingest/observe/metrics.js';
import { createAlerter } from '../ingest/alert/index.js';
import { pgSegment } from './support/alert-receiver.js';

let broker: Broker | undefined;
test.before(async () => { broker = await startBroker(); });
test.after.always(async () => { await stopBroker(); });

test('a notice published through the Kafka bus arrives on the alerts topic keyed by its fingerprint', async (t) => {
  const shared = `alk${process.pid}`;
  const bus = createKafkaBus({ brokers: broker!.brokers, topic_prefix: `${shared}.`, group_id: `${shared}-sink`, retry_initial_ms: 100, retry_max_ms: 1000 }, { families: FAMILIES });
  const kafka = new Kafka({ clientId: 'alert-kafka-test', brokers: broker!.brokers, logLevel: logLevel.NOTHING });
  const reader = kafka.consumer({ groupId: `${shared}-alerts-reader` });
  t.teardown(async () => {
    await reader.disconnect();
    await bus.stop();
  });
  await bus.start();
  let now = Date.parse('2026-11-30T15:00:00Z');
  const alerter = createAlerter({ group_wait_ms: 1000, channels: { log: false } },
    { metrics: new Metrics(), now: () => now, manual: true, publishAlerts: (records) => bus.publishAlerts(records) });
  alerter.observe(pgSegment([
    '2026-11-30 14:09:49.948 UTC [16065] 1CV8 app@erp ERROR:  canceling statement due to lock timeout',
    '2026-11-30 14:09:49.948 UTC [16065] 1CV8 app@erp STATEMENT:  UPDATE _accrg SET _fld1 = 0 WHERE _id = 4;',
  ].join('\n')));
  now += 1000;
  await alerter.stop();

  const got: Array<{ key: string; value: Record<string, unknown> }> = [];
  await reader.connect();
  await reader.subscribe({ topic: `${shared}.alerts`, fromBeginning: true });
  await reader.run({ eachMessage: async ({ message }) => void got.push({ key: String(message.key), value: JSON.parse(String(message.value)) }) });
  await eventually(() => got.length >= 1, 30_000, 'the alert record');
  t.is(got.length, 1);
  t.is(got[0]!.key, String(got[0]!.value.fingerprint));
  t.like(got[0]!.value, { source: 'perfpipe', status: 'firing', labels: { alertname: 'PostgresLockTimeout', sqlstate: '55P03' } });
});
