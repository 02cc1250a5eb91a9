// `npm run chaos`: the distributed shape under kill -9 (docs/architecture.md §3 "Prove it"). TJ files grow while one
// agent and one sink run as child processes; each is SIGKILLed at random moments and restarted, the broker is
// restarted once. With --store-kills N (default 2) the sink writes over HTTP to a second perfpipe serving the store
// (`perfpipe serve`, ClickHouse's HTTP interface, its write user), and that store is SIGKILLed and restarted N times
// mid-ingest: the server-down case. After the pipeline drained, ClickHouse is compared with what the writer wrote. The last
// line is `chaos: written=N stored=N lost=0 duplicated=0 episodes=N lost_episodes=0 doubled_episodes=0` (the lock
// episodes the sinks' resolver completed under the same kills: one row per victim event, docs/write-path.md §11);
// exit 1 when anything was lost or duplicated, 2 when the run broke.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPrng } from '../simulate/prng.js';
import { startBroker, stopBroker, type Broker } from '../test/support/kafka-broker.js';
import { pauseBroker, resumeBroker } from '../test/support/broker-restart.js';
import { runCli } from '../test/support/cli.js';
import { DaemonStartTimeout, freePort, sinkQuery, startDaemon, storedIn, waitFor, type Daemon } from '../test/support/daemon.js';
import { TjStream } from '../test/support/tj-stream.js';
import { ask, PASSWORD_ENV, serveSection, WRITER } from '../test/support/clickhouse-serve.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '100000' },
    kills: { type: 'string', default: '10' },
    'write-seconds': { type: 'string', default: '120' },
    'store-kills': { type: 'string', default: '2' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    keep: { type: 'boolean', default: false },
  },
});
const EVENTS = Number(values.events);
const KILLS = Number(values.kills);
const STORE_KILLS = Number(values['store-kills']);
const WRITE_MS = Number(values['write-seconds']) * 1000;
const SEED = Number(values.seed);
const rng = createPrng(SEED);
const began = Date.now();
const say = (text: string): void => void process.stdout.write(`[${((Date.now() - began) / 1000).toFixed(1).padStart(6)} s] ${text}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const work = mkdtempSync(join(tmpdir(), 'perfpipe-chaos-'));
const tj = join(work, 'tj');
const sinkData = join(work, 'sink');
const storeData = join(work, 'store');
/** The store's ClickHouse interface when the sink writes over HTTP (--store-kills > 0). */
let storeUrl: string | null = null;
let broker: Broker | undefined;
const live = new Set<Daemon>();
/** Daemons this run is stopping: their exit is expected. */
const stopping = new Set<Daemon>();
let keep = values.keep;

function configFile(b: Broker): string {
  const path = join(work, 'chaos.yaml');
  // 6 s is the broker's smallest session timeout: a killed sink's partitions move on soon after.
  writeFileSync(path, [
    'bus:', '  type: kafka', `  brokers: ["${b.brokers[0]}"]`, '  session_timeout_ms: 6000', '  retry_initial_ms: 200', '  retry_max_ms: 3000',
    'pipeline:', '  poll_interval_ms: 250', '',
  ].join('\n'));
  return path;
}

async function start(role: 'agent' | 'sink' | 'store', config: string): Promise<Daemon> {
  const store = storeUrl ? ['--clickhouse', storeUrl.replace('http://', `http://${WRITER.user}@`)] : [];
  const args = role === 'agent'
    ? ['agent', '--config', config, '--tj', tj, '--tz', 'Europe/Moscow', '--data', join(work, 'agent')]
    : role === 'sink' ? ['sink', '--config', config, '--data', sinkData, ...store] : ['serve', '--data', storeData, '--config', config];
  try {
    const daemon = await startDaemon(args, 180_000, { ...PASSWORD_ENV, PERFPIPE_CLICKHOUSE_PASSWORD: WRITER.password });
    live.add(daemon);
    // A daemon that ends without being killed is a finding of its own (the store crashing left only a sink that
    // could not get ready to show for it): said at once, its log kept.
    void daemon.exited.then((code) => {
      if (!live.has(daemon) || stopping.has(daemon)) return;
      live.delete(daemon);
      saveLog(daemon, 'died');
      say(`${role} exited on its own (code ${code}): ${daemon.log().trim().split('\n').slice(-12).join(' | ')}`);
    });
    return daemon;
  } catch (error) {
    if (error instanceof DaemonStartTimeout) saveLog(error.daemon, 'never-ready');
    throw error;
  }
}

let logNumber = 0;
/** Keeps each process's stderr beside the data, for the post-mortem of a failed run (--keep or a failure). */
function saveLog(daemon: Daemon, note = ''): void {
  mkdirSync(join(work, 'logs'), { recursive: true });
  const role = daemon.child.spawnargs.find((arg) => ['agent', 'sink', 'serve'].includes(arg)) ?? 'daemon';
  writeFileSync(join(work, 'logs', `${String(++logNumber).padStart(3, '0')}-${role}${note ? `-${note}` : ''}.log`), daemon.log());
}

/** The store-outage lines the sinks logged (daemon/assembly/source-telemetry.ts logs each outage once). */
const sinkOutages = { began: 0, ended: 0 };

async function kill(daemon: Daemon, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  stopping.add(daemon);
  await daemon.stop(signal);
  live.delete(daemon);
  saveLog(daemon);
  if (daemon.child.spawnargs.includes('sink')) {
    sinkOutages.began += (daemon.log().match(/ClickHouse is not taking inserts/g) ?? []).length;
    sinkOutages.ended += (daemon.log().match(/ClickHouse takes inserts again/g) ?? []).length;
  }
}

/** count() and uniqExact(file_key, file_offset) of tj_events where the sink stores them. */
async function storedNow(): Promise<{ count: number; unique: number }> {
  if (!storeUrl) return storedIn(sinkData);
  const answer = await ask(storeUrl, { user: WRITER, body: 'SELECT count() AS c, uniqExact(file_key, file_offset) AS u FROM tj_events FORMAT JSONEachRow' });
  if (answer.status !== 200) return { count: 0, unique: 0 };
  const row = JSON.parse(answer.text.trim()) as { c: string; u: string };
  return { count: Number(row.c), unique: Number(row.u) };
}

/** Writes EVENTS events evenly over WRITE_MS, in batches every 200 ms. */
async function write(stream: TjStream): Promise<void> {
  const t0 = Date.now();
  while (stream.written < EVENTS) {
    const due = Math.min(EVENTS, Math.ceil((EVENTS * (Date.now() - t0)) / WRITE_MS));
    if (due > stream.written) stream.append(due - stream.written);
    await sleep(200);
  }
}

async function main(): Promise<{ line: string; ok: boolean }> {
  say(`seed ${SEED}, ${EVENTS} events over ${WRITE_MS / 1000} s, ${KILLS} kills each of agent and sink, ${STORE_KILLS} of the store, work dir ${work}`);
  broker = await startBroker();
  say(`broker on ${broker.brokers[0]} (${broker.startMs} ms)`);
  const config = configFile(broker);
  let store: Daemon | null = null;
  const storeConfig = join(work, 'store.yaml');
  if (STORE_KILLS > 0) {
    const port = await freePort();
    storeUrl = `http://127.0.0.1:${port}`;
    writeFileSync(storeConfig, serveSection(`127.0.0.1:${port}`));
    store = await start('store', storeConfig);
    say(`store: perfpipe serve on ${storeUrl}; the sink writes to it over HTTP`);
  }
  const stream = new TjStream(tj, { seed: SEED, processes: 4 });
  let sink = await start('sink', config);
  let agent = await start('agent', config);
  say('agent and sink ready; writing');
  const writing = write(stream);
  const kills = { agent: 0, sink: 0, store: 0 };
  const storeRounds = new Set(Array.from({ length: STORE_KILLS }, (_, i) => Math.floor(((i + 1) * KILLS) / (STORE_KILLS + 1))));
  for (let round = 0; round < KILLS; round++) {
    if (store && storeRounds.has(round)) {
      await kill(store);
      kills.store++;
      say(`SIGKILL store #${kills.store} (written ${stream.written})`);
      await sleep(rng.int(500, 4000));
      store = await start('store', storeConfig);
      say('store: started again on its data');
    }
    for (const role of ['agent', 'sink'] as const) {
      await sleep(rng.int(300, 3000));
      await kill(role === 'agent' ? agent : sink);
      kills[role]++;
      say(`SIGKILL ${role} #${kills[role]} (written ${stream.written})`);
      if (rng.chance(0.5)) await sleep(rng.int(0, 3000));
      if (role === 'agent') agent = await start('agent', config);
      else sink = await start('sink', config);
    }
    // Early enough that the writer is still going: the restart lands mid-stream.
    if (round === Math.floor(KILLS / 3)) {
      say('broker: stop');
      await pauseBroker(broker);
      await sleep(rng.int(1000, 4000));
      await resumeBroker(broker);
      say('broker: started again on its data');
    }
  }
  await writing;
  say(`writer done: ${stream.written} events, ${(stream.bytes / 1e6).toFixed(1)} MB in ${stream.files.length} files; draining`);
  await waitFor(async () => (await storedNow()).unique >= stream.written, 'the pipeline to drain', 600_000, 2000)
    .catch((error: Error) => say(error.message));
  await sleep(2000); // a late replay would show up as a duplicate now, not after the count
  // Every victim's row worked out at least once by the (restarted) sink's resolver before it stops.
  await waitFor(async () => Number((await storeRows("SELECT countIf(status = 'pending') AS p FROM tj_lock_episodes FINAL", true))[0]?.p ?? 1) === 0,
    'the lock episodes to be worked out', 300_000, 2000).catch((error: Error) => say(error.message));
  await Promise.all([kill(agent, 'SIGTERM'), kill(sink, 'SIGTERM')]);
  if (storeUrl) say(`sinks logged ${sinkOutages.began} store outage(s) and ${sinkOutages.ended} recovery(ies), one line each, for ${kills.store} store kill(s)`);
  const [row] = await storeRows('SELECT count() AS c, uniqExact(file_key, file_offset) AS u FROM tj_events', false);
  if (row === undefined) throw new Error('counting the stored events returned no row');
  const stored = Number(row.c);
  const unique = Number(row.u);
  const lost = stream.written - unique;
  const duplicated = stored - unique;
  const episodes = await lockEpisodes();
  if (store) await kill(store, 'SIGTERM');
  say(`done in ${((Date.now() - began) / 1000).toFixed(0)} s; kills agent=${kills.agent} sink=${kills.sink} store=${kills.store}, broker restarts=1; episodes by status ${episodes.statuses}`);
  const ok = lost === 0 && duplicated === 0 && episodes.lost === 0 && episodes.doubled === 0;
  if (!ok) keep = true;
  return {
    line: `chaos: written=${stream.written} stored=${stored} lost=${lost} duplicated=${duplicated} episodes=${episodes.rows} lost_episodes=${episodes.lost} doubled_episodes=${episodes.doubled}`,
    ok,
  };
}

/**
 * The lock episodes against the victim events stored: lost = a victim event without its row, doubled = more rows than
 * episodes as a report reads them (FINAL) or an episode kind/key stored twice.
 */
async function lockEpisodes(): Promise<{ rows: number; lost: number; doubled: number; statuses: string }> {
  const [r] = await storeRows(`SELECT
      (SELECT uniqExact(file_key, file_offset) FROM tj_events WHERE (event = 'TLOCK' AND notEmpty(wait_connections)) OR event IN ('TTIMEOUT', 'TDEADLOCK')) AS victims,
      (SELECT count() FROM tj_lock_episodes FINAL) AS rows,
      (SELECT uniqExact(file_key, file_offset) FROM tj_lock_episodes) AS keys,
      (SELECT uniqExact(kind, file_key, file_offset) FROM tj_lock_episodes) AS kind_keys,
      (SELECT toJSONString(CAST(sumMap(map(status, 1)) AS Map(String, UInt64))) FROM tj_lock_episodes FINAL) AS statuses`, false);
  if (r === undefined) throw new Error('reading the lock episodes returned no row');
  const [victims, rows, keys, kindKeys] = ['victims', 'rows', 'keys', 'kind_keys'].map((k) => Number(r[k]));
  return { rows: rows!, lost: victims! - keys!, doubled: rows! - keys! + kindKeys! - keys!, statuses: r.statuses ?? '' };
}

/** A query's rows from the store the sinks write to: the served store over HTTP, else the sink's own data directory
 * (through its daemon while it runs, through `perfpipe sql` once it stopped). */
async function storeRows(query: string, sinkRunning: boolean): Promise<Record<string, string>[]> {
  let text: string;
  if (storeUrl) {
    const answer = await ask(storeUrl, { user: WRITER, body: `${query} FORMAT JSONEachRow` });
    if (answer.status !== 200) throw new Error(`the store answered ${answer.status}: ${answer.text}`);
    text = answer.text;
  } else if (sinkRunning) {
    return sinkQuery<Record<string, string>>(sinkData, query);
  } else {
    const read = await runCli(['sql', query, '--data', sinkData, '--format', 'json']);
    if (read.code !== 0) throw new Error(`reading the sink's store failed: ${read.stderr}`);
    text = read.stdout;
  }
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, string>);
}

async function cleanup(): Promise<void> {
  // Whatever still runs after a broken run (the store a sink could not get ready against, say) keeps its log too.
  await Promise.all([...live].map(async (d) => { stopping.add(d); await d.stop('SIGKILL'); saveLog(d, 'at-cleanup'); }));
  await stopBroker().catch(() => {});
  if (keep) say(`work dir kept: ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
let result: { line: string; ok: boolean } | undefined;
try {
  result = await main();
} catch (error) {
  say(`chaos failed: ${(error as Error).stack ?? String(error)}`);
  keep = true;
} finally {
  await cleanup();
}
// The verdict is the last line, after the clean-up messages.
if (result) process.stdout.write(`${result.line}\n`);
process.exitCode = result?.ok ? 0 : result ? 1 : 2;
