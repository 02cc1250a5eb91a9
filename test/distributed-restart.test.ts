// The distributed shape through outages on a real broker: the broker stopped and started again mid-stream,
// and the agent killed with SIGKILL mid-stream; ClickHouse counts must still equal what was written.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from '../ingest/bus/kafkajs.js';
import { readCheckpoints } from './support/checkpoints.js';
import { groupCaughtUp, startBroker, stopBroker, type Broker } from './support/kafka-broker.js';
import { pauseBroker, resumeBroker } from './support/broker-restart.js';
import { httpGet, startDaemon, storedIn, waitFor, type Daemon } from './support/daemon.js';
import { TjStream } from './support/tj-stream.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-restart-'));
const daemons: Daemon[] = [];
let broker: Broker | undefined;

test.before(async () => {
  broker = await startBroker();
});

/** On failure the daemons' last log lines say which side stalled. */
test.afterEach.always((t) => {
  if (t.passed) return;
  for (const d of daemons) t.log(`--- ${d.child.spawnargs.slice(4, 5).join(' ')} (pid ${d.child.pid})\n${d.log().split('\n').filter((l) => !l.includes('ECONNREFUSED')).slice(-15).join('\n')}`);
});

test.after.always(async () => {
  await Promise.all(daemons.map((d) => d.stop('SIGKILL')));
  await stopBroker();
  rmSync(work, { recursive: true, force: true });
});

function configFile(): string {
  const path = join(work, 'restart.yaml');
  writeFileSync(path, [
    'bus:', '  type: kafka', `  brokers: ["${broker!.brokers[0]}"]`, '  session_timeout_ms: 8000', '  retry_initial_ms: 200', '  retry_max_ms: 2000',
    'pipeline:', '  poll_interval_ms: 200', '',
  ].join('\n'));
  return path;
}

async function daemon(args: string[]): Promise<Daemon> {
  const d = await startDaemon(args);
  daemons.push(d);
  return d;
}

/** Ranges an agent published whose acknowledgement it has not recorded, across its sources' checkpoint journals. */
const openIntents = (checkpoints: string): number => readCheckpoints(checkpoints).open.length;

const replayed = (metrics: string): number => Number(/^perfpipe_replayed_segments_total\{source="tj"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);

/** Appends a batch every 250 ms until stopped: the stream keeps flowing through every outage. */
function keepWriting(stream: TjStream, batch: number) {
  let on = true;
  const running = (async () => {
    while (on) {
      stream.append(batch);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return async () => { on = false; await running; };
}

test.serial('a broker stopped and started again mid-stream, and an agent killed mid-stream, lose nothing and duplicate nothing', async (t) => {
  const config = configFile();
  const tj = join(work, 'tj');
  const stream = new TjStream(tj, { seed: 21, processes: 3 });
  stream.append(3_000);
  const data = join(work, 'sink');
  const agentArgs = ['agent', '--config', config, '--tj', tj, '--tz', 'Europe/Moscow', '--data', join(work, 'agent')];
  await daemon(['sink', '--config', config, '--data', data]);
  let agent = await daemon(agentArgs);
  const stopWriting = keepWriting(stream, 100);
  t.teardown(stopWriting);
  await waitFor(async () => (await storedIn(data)).unique > 1_500, 'the first events stored', 60_000, 500);

  const paused = Date.now();
  await pauseBroker(broker!);
  await new Promise((r) => setTimeout(r, 3_000));
  await resumeBroker(broker!);
  const before = stream.written;
  t.log(`broker away for ${Date.now() - paused} ms; ${before} events written so far`);
  // Progress, not catching up with a writer that keeps going: everything written before the restart arrives.
  await waitFor(async () => (await storedIn(data)).unique >= before, 'the events written before the broker restart', 90_000, 1000);

  // SIGKILL with a range in flight, for certain: with the broker away again the agent's publish of what the writer
  // adds cannot be acknowledged, and its intent is in the journal before the publish starts. The restarted agent
  // must replay exactly the ranges left open, and the sink must drop nothing and store nothing twice.
  const checkpoints = join(work, 'agent', 'checkpoints');
  await pauseBroker(broker!);
  await waitFor(() => openIntents(checkpoints) > 0, 'a range published but not acknowledged', 60_000, 100);
  t.is(await agent.stop('SIGKILL'), null);
  const open = openIntents(checkpoints);
  await resumeBroker(broker!);
  agent = await daemon(agentArgs);
  await waitFor(async () => replayed((await httpGet(`${agent.url}/metrics`)).text) >= open, `the ${open} open ranges replayed`, 60_000, 200);
  await stopWriting();
  await waitFor(async () => (await storedIn(data)).unique >= stream.written, `all ${stream.written} events stored`, 120_000, 1000);
  // Nothing in flight on either side: the agent holds no unacknowledged range, and the sinks committed all it sent.
  await waitFor(() => openIntents(checkpoints) === 0, 'the agent to hold no range unacknowledged', 60_000, 200);
  const admin = new Kafka({ clientId: 'restart-test', brokers: broker!.brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  t.teardown(() => admin.disconnect());
  await waitFor(() => groupCaughtUp(admin, 'perfpipe-sink', 'perfpipe.'), 'the sink to commit everything', 60_000, 200);
  t.deepEqual(await storedIn(data), { count: stream.written, unique: stream.written });
  t.is(replayed((await httpGet(`${agent.url}/metrics`)).text), open, 'each range left open at the kill replayed once');
});
