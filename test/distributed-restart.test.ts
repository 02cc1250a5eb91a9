// The distributed shape through outages on a real broker: the broker stopped and started again mid-stream,
// and the agent killed with SIGKILL mid-stream; ClickHouse counts must still equal what was written.
import test from 'ava';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBroker, stopBroker, type Broker } from './support/kafka-broker.js';
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

/**
 * Ranges an agent published whose acknowledgement it has not recorded, across its sources' checkpoint journals
 * (ingest/source/checkpoint-store.ts: `i` intent lines, `a` ack lines up to an end offset, per file key), read
 * here from the files so that the count does not rest on the store's own reading of them.
 */
function openIntents(checkpoints: string): number {
  if (!existsSync(checkpoints)) return 0;
  let open = 0;
  for (const dir of readdirSync(checkpoints)) {
    const acked = new Map<string, number>();
    const intents: Array<{ k: string; e: number }> = [];
    const snapshot = join(checkpoints, dir, 'snapshot.json');
    if (existsSync(snapshot)) {
      for (const f of (JSON.parse(readFileSync(snapshot, 'utf8')) as { files: Array<{ file_key: string; offset: number; intents: Array<{ end: number }> }> }).files) {
        acked.set(f.file_key, f.offset);
        for (const i of f.intents) intents.push({ k: f.file_key, e: i.end });
      }
    }
    const journal = join(checkpoints, dir, 'journal.jsonl');
    for (const line of existsSync(journal) ? readFileSync(journal, 'utf8').split('\n') : []) {
      if (!line.endsWith('}')) continue; // empty, or torn by the kill
      const e = JSON.parse(line) as { t: string; k: string; e?: number };
      if (e.t === 'i') intents.push({ k: e.k, e: e.e! });
      else if (e.t === 'a') acked.set(e.k, Math.max(acked.get(e.k) ?? 0, e.e!));
    }
    open += new Set(intents.filter((i) => i.e > (acked.get(i.k) ?? 0)).map((i) => `${i.k}@${i.e}`)).size;
  }
  return open;
}

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
  await new Promise((r) => setTimeout(r, 1_500)); // a duplicate, were there one, would land within a poll or two
  t.deepEqual(await storedIn(data), { count: stream.written, unique: stream.written });
  t.is(replayed((await httpGet(`${agent.url}/metrics`)).text), open, 'each range left open at the kill replayed once');
});
