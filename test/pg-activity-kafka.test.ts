// pg_activity samples in the distributed shape on a real broker and a real PostgreSQL 15: `perfpipe agent
// --pg-activity URL` → the `pg_activity` topic → `perfpipe sink` → rows in pg_activity, with a row-lock waiter's
// blocking_pids naming its holder, each sample stored once, and the sampler's own backend left out.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from '../ingest/bus/kafkajs.js';
import { startBroker, stopBroker, type Broker } from './support/kafka-broker.js';
import { sinkQuery, startDaemon, waitFor, type Daemon } from './support/daemon.js';
import { missingPostgres, pgBinDir, testIf } from './support/prerequisites.js';
import { connectSession, removeCluster, startPgCluster, type PgCluster } from './support/pg-cluster.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-pgact-kafka-'));
const daemons: Daemon[] = [];
let broker: Broker | undefined;
let cluster: PgCluster | undefined;
test.after.always(async () => {
  await Promise.all(daemons.map((d) => d.stop('SIGKILL')));
  await stopBroker();
  cluster?.stop();
  removeCluster(cluster);
  rmSync(work, { recursive: true, force: true });
});

async function daemon(args: string[]): Promise<Daemon> {
  const d = await startDaemon(args);
  daemons.push(d);
  return d;
}

testIf(missingPostgres(), { serial: true })('agent --pg-activity → Kafka topic pg_activity → sink: a waiter\'s Lock samples name its holder, each sample once', async (t) => {
  broker = await startBroker();
  cluster = startPgCluster(pgBinDir()!, { listen_addresses: "'127.0.0.1'" });
  await cluster.psql(['CREATE TABLE accounts (id int PRIMARY KEY, balance int)', 'INSERT INTO accounts VALUES (1, 0)']);
  const url = `postgresql://postgres@127.0.0.1:${cluster.port}/postgres`;
  const config = join(work, 'bus.yaml');
  writeFileSync(config, ['bus:', '  type: kafka', `  brokers: ["${broker.brokers[0]}"]`, '  topic_prefix: "pgact."', '  group_id: "pgact-sink"',
    '  partitions: 3', '  retry_initial_ms: 200', '  retry_max_ms: 2000', ''].join('\n'));
  const data = join(work, 'sink');
  await daemon(['sink', '--config', config, '--data', data]);
  await daemon(['agent', '--config', config, '--pg-activity', url, '--data', join(work, 'agent')]);

  const { client: holder, pid: holderPid } = await connectSession(url);
  const { client: waiter, pid: waiterPid } = await connectSession(url);
  try {
    await holder.query('BEGIN');
    await holder.query('UPDATE accounts SET balance = 1 WHERE id = 1');
    const waiting = waiter.query('UPDATE accounts SET balance = 2 WHERE id = 1');
    const lockSamples = async () => Number((await sinkQuery<{ n: string }>(data,
      `SELECT count() AS n FROM pg_activity WHERE pid = ${waiterPid} AND wait_event_type = 'Lock' AND blocking_pids = [${holderPid}]`))[0]?.n);
    await waitFor(async () => await lockSamples() >= 3, 'three Lock samples of the waiter through Kafka', 60_000, 500);
    await holder.query('COMMIT');
    await waiting;

    // The samples came through the topic: the agent published them there, the sink read them from it.
    const kafka = new Kafka({ clientId: 'pgact-test', brokers: broker.brokers, logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    t.teardown(() => admin.disconnect());
    const offsets = await admin.fetchTopicOffsets('pgact.pg_activity');
    const published = offsets.reduce((s, o) => s + Number(o.high), 0);
    const samples = Number((await sinkQuery<{ n: string }>(data, 'SELECT uniqExact(ts) AS n FROM pg_activity'))[0]?.n);
    t.true(published >= samples && samples >= 3, `${published} messages on pgact.pg_activity, ${samples} samples stored`);

    const [row] = await sinkQuery<{ state: string; query: string; server: string; interval_ms: string }>(data,
      `SELECT state, query, server, interval_ms FROM pg_activity WHERE pid = ${waiterPid} AND wait_event_type = 'Lock' LIMIT 1`);
    t.like(row, { state: 'active', query: 'UPDATE accounts SET balance = 2 WHERE id = 1', server: `127.0.0.1:${cluster.port}/postgres` });
    t.is(Number(row?.interval_ms), 1000);
    // Each sample is stored once (one row per backend per sample), and the sampler's own backend never.
    const [dups] = await sinkQuery<{ n: string; u: string }>(data, 'SELECT count() AS n, uniqExact(ts, pid) AS u FROM pg_activity');
    t.is(dups?.n, dups?.u);
    const own = await sinkQuery<{ n: string }>(data, "SELECT count() AS n FROM pg_activity WHERE application = 'perfpipe pg_activity sampler'");
    t.is(Number(own[0]?.n), 0);
  } finally {
    await holder.end().catch(() => {});
    await waiter.end().catch(() => {});
  }
});
