// `perfpipe sink --clickhouse http://writer@…` on the server path: agent → Kafka → sink → a second perfpipe's
// ClickHouse HTTP interface (`perfpipe serve`), every event stored once; the sink's own store kept across a restart
// of the sink (its inserts carry deduplication tokens). The store killed and restarted mid-ingest is `npm run chaos`.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBroker, stopBroker, type Broker } from './support/kafka-broker.js';
import { startDaemon, waitFor, type Daemon } from './support/daemon.js';
import { TjStream } from './support/tj-stream.js';
import { ask, startServe, WRITER, type Served } from './support/clickhouse-serve.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-server-path-sink-'));
const daemons: Daemon[] = [];
let broker: Broker | undefined;
let served: Served | undefined;

test.after.always(async () => {
  await Promise.all(daemons.map((d) => d.stop('SIGKILL')));
  await served?.stop();
  await stopBroker();
  rmSync(work, { recursive: true, force: true });
});

test.serial('agent → Kafka → sink → perfpipe serve over HTTP stores every event once, across a sink restart', async (t) => {
  broker = await startBroker();
  served = await startServe();
  const config = join(work, 'bus.yaml');
  writeFileSync(config, ['bus:', '  type: kafka', `  brokers: ["${broker.brokers[0]}"]`, '  session_timeout_ms: 6000', 'pipeline:', '  poll_interval_ms: 200', ''].join('\n'));
  const env = { PERFPIPE_CLICKHOUSE_PASSWORD: WRITER.password };
  const store = ['--clickhouse', served.url.replace('http://', `http://${WRITER.user}@`)];
  const sinkArgs = ['sink', '--config', config, '--data', join(work, 'sink'), ...store];
  const stream = new TjStream(join(work, 'tj'), { seed: 3, processes: 2 });
  let sink = await startDaemon(sinkArgs, 120_000, env);
  daemons.push(sink, await startDaemon(['agent', '--config', config, '--tj', join(work, 'tj'), '--tz', 'Europe/Moscow', '--data', join(work, 'agent')]));
  const stored = async (): Promise<{ c: number; u: number }> => {
    const r = await ask(served!.url, { user: WRITER, body: 'SELECT count() AS c, uniqExact(file_key, file_offset) AS u FROM tj_events FORMAT JSONEachRow' });
    const row = JSON.parse(r.status === 200 ? r.text : '{"c":0,"u":0}') as { c: string; u: string };
    return { c: Number(row.c), u: Number(row.u) };
  };
  stream.append(3000);
  await waitFor(async () => (await stored()).u >= 1000, 'the first events on the server', 120_000, 500);
  await sink.stop('SIGKILL');
  stream.append(3000);
  sink = await startDaemon(sinkArgs, 120_000, env);
  daemons.push(sink);
  await waitFor(async () => (await stored()).u >= stream.written, `${stream.written} events on the server`, 180_000, 1000);
  t.deepEqual(await stored(), { c: stream.written, u: stream.written });
});
