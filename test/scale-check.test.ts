// The scale check of issue 26 (docs/deploy.md §7), on one machine: 4 simulated hosts (`perfpipe simulate --hosts 4`)
// each with its own `perfpipe agent` → a real broker with 8 partitions per topic → 2 sinks in one group → one store
// (`perfpipe serve`, ClickHouse's HTTP interface, which the sinks write to as to a server). One sink is killed with
// SIGKILL while it stores, the other takes its partitions over and carries on, the killed one comes back. The store
// must then hold exactly the simulator's truth (nothing lost, nothing twice) and every report must read the same as
// from an embedded ingest of the same files.
import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Admin } from 'kafkajs';
import { AssignerProtocol, Kafka, logLevel } from '../ingest/bus/kafkajs.js';
import type { Expected } from '../simulate/load-expected.js';
import { groupCaughtUp, startBroker, stopBroker, type Broker } from './support/kafka-broker.js';
import { httpGet, startDaemon, waitFor, type Daemon } from './support/daemon.js';
import { ask, startServe, WRITER, type Served } from './support/clickhouse-serve.js';
import { runCli } from './support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-scale-check-'));
const daemons: Daemon[] = [];
let broker: Broker | undefined;
let served: Served | undefined;
let admin: Admin | undefined;
/** `perfpipe serve`'s own folder (its config); its data directory is this test's. */
let servedWork: string | undefined;

const HOSTS = 4;
const PARTITIONS = 8;
const PREFIX = 'scale.';
const GROUP = 'scale-sink';
const PG_PREFIX = '%m [%p] %q%u@%d ';
const TZ = 'Europe/Moscow';
/** Every report window below covers the simulated run (it starts at 10:00 on 1 December). */
const WINDOW = ['--from', '2026-11-30 00:00:00', '--to', '2026-12-03 00:00:00'];
/** The tables of rows read from files: their counts must equal an embedded ingest's (rollups are held by the reports). */
const RAW_TABLES = ['tj_events', 'pg_log', 'pg_lock_waits', 'apdex_measurements', 'atop_system', 'atop_cpu', 'atop_disks', 'atop_interfaces', 'atop_top_processes', 'ingest_errors'];

test.after.always(async () => {
  await Promise.all(daemons.map((d) => d.stop('SIGKILL')));
  await admin?.disconnect();
  await served?.daemon.stop('SIGKILL');
  if (servedWork !== undefined) rmSync(servedWork, { recursive: true, force: true });
  await stopBroker();
  rmSync(work, { recursive: true, force: true });
});

/** On failure the daemons' last log lines say which side stalled. */
test.afterEach.always((t) => {
  if (t.passed) return;
  for (const d of daemons) t.log(`--- ${d.child.spawnargs.slice(2, 7).join(' ')}\n${d.log().split('\n').slice(-12).join('\n')}`);
});

function busLines(): string[] {
  return [
    'bus:', '  type: kafka', `  brokers: ["${broker!.brokers[0]}"]`, `  topic_prefix: "${PREFIX}"`, `  group_id: "${GROUP}"`,
    `  partitions: ${PARTITIONS}`, '  session_timeout_ms: 8000', '  retry_initial_ms: 200', '  retry_max_ms: 2000',
    'pipeline:', '  poll_interval_ms: 200',
  ];
}

/** An agent's config: the bus, its host's name and the host's four sources, as on a 1C server with its database's logs. */
function agentConfig(host: string, dir: string): string {
  const path = join(work, `${host}.yaml`);
  writeFileSync(path, [...busLines(), `host: ${host}`, 'sources:',
    `  - { type: tj, location: "${join(dir, 'tj')}", tz: ${TZ} }`,
    `  - { type: pg, location: "${join(dir, 'pg')}", prefix: "${PG_PREFIX}", idle_finish_s: 2 }`,
    `  - { type: atop, location: "${join(dir, 'atop')}", idle_finish_s: 2 }`,
    `  - { type: apdex, location: "${join(dir, 'apdex')}" }`, ''].join('\n'));
  return path;
}

async function daemon(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Daemon> {
  const d = await startDaemon(args, 120_000, env);
  daemons.push(d);
  return d;
}

/** count() and uniqExact of a table's natural key on the served store, over HTTP as any client would ask. */
async function servedCount(table: string, key = ''): Promise<{ c: number; u: number }> {
  const r = await ask(served!.url, { user: WRITER, body: `SELECT count() AS c, ${key ? `uniqExact(${key})` : 'count()'} AS u FROM ${table} FORMAT JSONEachRow` });
  if (r.status !== 200) return { c: 0, u: 0 };
  const row = JSON.parse(r.text) as { c: string; u: string };
  return { c: Number(row.c), u: Number(row.u) };
}

/** TJ events a sink has had acknowledged by the store. */
const sinkTjEvents = async (d: Daemon): Promise<number> => (await httpGet(`${d.url}/metrics`)).text.split('\n')
  .filter((l) => l.startsWith('perfpipe_sink_events_out_total{family="tj"')).reduce((a, l) => a + Number(l.split(' ').pop()), 0);

/** The partitions of the TJ topic each member of the sink group holds, by member id. */
async function assignment(): Promise<{ state: string; members: number[][] }> {
  const { groups } = await admin!.describeGroups([GROUP]);
  const group = groups[0];
  if (group === undefined) return { state: 'none', members: [] };
  const members = group.members.map((m) => AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment[`${PREFIX}tj`] ?? []);
  return { state: group.state, members };
}

/** Every report `perfpipe report` prints as data (REPORTS of cli/commands/report.ts; `all` is the HTML page of them). */
const REPORTS = ['apdex', 'locks', 'pg-locks', 'pg-waits', 'sql', 'errors'];

interface SqlReport { statements: Array<{ sql_hash: string; sql?: string; p95_ms?: number }> }

/**
 * A report's JSON as far as it must be equal whatever order the rows arrived in. `report sql` keeps two figures that
 * depend on that order (queries/ddl/060_tj_sql.sql): a statement shape's sample text (one of the texts with
 * its sql_hash, e.g. `ANALYZE pg_temp.tt27` or `…tt33`) and its p95, a t-digest estimate whose centroids depend on the
 * order of the merges; the sink inserts segments in the order Kafka delivers them, the embedded ingest file by file.
 */
function comparable(name: string, text: string): unknown {
  const parsed = JSON.parse(text) as unknown;
  if (name !== 'sql') return parsed;
  const report = parsed as SqlReport;
  return { ...report, statements: report.statements.map(({ sql: _sql, p95_ms: _p95, ...rest }) => rest) };
}

/** The p95 of each statement shape in two `report sql` outputs, within 2 % of each other. */
function sameP95(a: string, b: string): boolean {
  const p95 = (text: string) => new Map((JSON.parse(text) as SqlReport).statements.map((s) => [s.sql_hash, s.p95_ms ?? 0]));
  const [left, right] = [p95(a), p95(b)];
  return left.size === right.size && [...left].every(([hash, v]) => Math.abs(v - (right.get(hash) ?? Number.NaN)) <= 0.02 * Math.max(v, 1e-9));
}

async function reports(data: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of REPORTS) {
    const r = await runCli(['report', name, '--format', 'json', ...WINDOW, '--data', data]);
    if (r.code !== 0) throw new Error(`report ${name} --data ${data}: ${r.stderr}`);
    out[name] = r.stdout;
  }
  return out;
}

test.serial('4 agents → 8 partitions → 2 sinks, one killed and restarted mid-stream, store the simulator\'s truth once, and report as an embedded ingest does', async (t) => {
  t.timeout(1_200_000);
  const run = join(work, 'run');
  const sim = await runCli(['simulate', '--out', run, '--hosts', String(HOSTS), '--users', '10', '--duration', '120s', '--rate', '150',
    '--seed', '41', '--tz', TZ, '--start', '2026-12-01 10:00:00']);
  t.is(sim.code, 0, sim.stderr);
  const totals = JSON.parse(readFileSync(join(run, 'expected.json'), 'utf8')) as { hosts: Array<{ name: string; dir: string }>; tj: { events: number }; pg: { entries: number } };
  const each = totals.hosts.map((h) => JSON.parse(readFileSync(join(run, h.dir, 'expected.json'), 'utf8')) as Expected);
  // The server's next log file, as its rotation leaves it: a follower finishes a log file (and hands on its last
  // entry, which a continuation line could still extend) only once a newer one exists beside it (docs/tailing.md).
  for (const h of totals.hosts) writeFileSync(join(run, h.dir, 'pg', 'postgresql-2026-12-02_000000.log'), '');

  // The reference: the same files ingested into the embedded store, host by host under the host's name.
  const embedded = join(work, 'embedded');
  for (const h of totals.hosts) {
    const dir = join(run, h.dir);
    const ingest = await runCli(['ingest', '--tj', join(dir, 'tj'), '--pg', join(dir, 'pg'), '--pg-prefix', PG_PREFIX, '--atop', join(dir, 'atop'),
      '--apdex', join(dir, 'apdex'), '--tz', TZ, '--host', h.name, '--data', embedded]);
    t.is(ingest.code, 0, ingest.stderr);
  }

  broker = await startBroker();
  admin = new Kafka({ clientId: 'scale-check', brokers: broker.brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  const storeData = join(work, 'store');
  mkdirSync(storeData, { recursive: true });
  served = await startServe({}, storeData);
  servedWork = served.work;
  const sinkConfig = join(work, 'sink.yaml');
  writeFileSync(sinkConfig, `${busLines().join('\n')}\n`);
  const env = { PERFPIPE_CLICKHOUSE_PASSWORD: WRITER.password };
  const sinkArgs = (n: number): string[] => ['sink', '--config', sinkConfig, '--data', join(work, `sink-${n}`), '--clickhouse', served!.url.replace('http://', `http://${WRITER.user}@`)];
  const agent = (i: number): Promise<Daemon> => {
    const h = totals.hosts[i]!;
    return daemon(['agent', '--config', agentConfig(h.name, join(run, h.dir)), '--data', join(work, `agent-${h.name}`)]);
  };

  const sinks = [await daemon(sinkArgs(1), env), await daemon(sinkArgs(2), env)];
  // The first two hosts' agents publish; the topics are created with 8 partitions by the first of them.
  await Promise.all([agent(0), agent(1)]);
  await waitFor(async () => (await assignment()).members.filter((p) => p.length > 0).length === 2, 'both sinks to hold TJ partitions', 120_000, 500);
  // The victim is the first sink seen storing: it dies with work in hand (rows stored, offsets maybe not committed).
  let victim = -1;
  await waitFor(async () => {
    for (const [i, s] of sinks.entries()) if ((await sinkTjEvents(s)) > 0) { victim = i; return true; }
    return false;
  }, 'a sink to be storing TJ events', 180_000, 100);
  t.is(await sinks[victim]!.stop('SIGKILL'), null);
  const atKill = (await servedCount('tj_events')).c;
  const firstTwo = each[0]!.tj.events + each[1]!.tj.events;
  t.true(atKill > 0 && atKill < totals.tj.events, `the kill landed mid-stream (${atKill} of ${totals.tj.events} TJ events stored)`);

  // The other two hosts start while one sink is down: the survivor takes every partition and carries on.
  await Promise.all([agent(2), agent(3)]);
  await waitFor(async () => {
    const a = await assignment();
    return a.state === 'Stable' && a.members.length === 1 && a.members[0]!.length === PARTITIONS;
  }, `the survivor to hold all ${PARTITIONS} TJ partitions`, 120_000, 500);
  const alone = (await servedCount('tj_events')).c;
  await waitFor(async () => (await servedCount('tj_events')).c > alone, 'the survivor to store on its own', 120_000, 500);

  await daemon(sinkArgs(victim + 1), env);
  await waitFor(async () => {
    const a = await assignment();
    return a.state === 'Stable' && a.members.length === 2 && a.members.every((p) => p.length > 0);
  }, 'the restarted sink back in the group with partitions of its own', 120_000, 500);
  await waitFor(async () => (await servedCount('tj_events', 'file_key, file_offset')).u >= totals.tj.events, `all ${totals.tj.events} TJ events stored`, 600_000, 1000);
  await waitFor(() => groupCaughtUp(admin!, GROUP, PREFIX), 'the sinks to commit everything the agents sent', 120_000, 500);

  // Truth: every TJ event and PostgreSQL entry the simulator wrote, once.
  t.deepEqual(await servedCount('tj_events', 'file_key, file_offset'), { c: totals.tj.events, u: totals.tj.events });
  t.deepEqual(await servedCount('pg_log', 'file_key, file_offset'), { c: totals.pg.entries, u: totals.pg.entries });
  const perHost = await ask(served.url, { user: WRITER, body: 'SELECT host, count() AS n FROM tj_events GROUP BY host ORDER BY host FORMAT JSONEachRow' });
  t.deepEqual(perHost.text.trim().split('\n').map((l) => JSON.parse(l) as { host: string; n: string }).map((r) => [r.host, Number(r.n)]),
    totals.hosts.map((h, i) => [h.name, each[i]!.tj.events]));
  const servedCounts: Record<string, number> = {};
  for (const table of RAW_TABLES) servedCounts[table] = (await servedCount(table)).c;

  // Every process stopped, the served store is read as the embedded one is: the same rows, the same reports.
  await Promise.all(daemons.splice(0).map((d) => d.stop('SIGTERM')));
  await served.daemon.stop('SIGTERM');
  served = undefined;
  const embeddedCounts: Record<string, number> = {};
  for (const table of RAW_TABLES) {
    const r = await runCli(['sql', `SELECT count() AS n FROM ${table}`, '--format', 'json', '--data', embedded]);
    t.is(r.code, 0, r.stderr);
    embeddedCounts[table] = Number((JSON.parse(r.stdout.trim()) as { n: string }).n);
  }
  t.deepEqual(servedCounts, embeddedCounts);
  t.true(embeddedCounts.atop_system! > 0 && embeddedCounts.apdex_measurements! > 0 && embeddedCounts.pg_lock_waits! > 0, JSON.stringify(embeddedCounts));
  const [fromServed, fromEmbedded] = [await reports(storeData), await reports(embedded)];
  const differ = REPORTS.filter((name) => JSON.stringify(comparable(name, fromServed[name]!)) !== JSON.stringify(comparable(name, fromEmbedded[name]!)));
  t.deepEqual(differ, [], 'reports that differ between the two stores');
  for (const name of differ) t.deepEqual(comparable(name, fromServed[name]!), comparable(name, fromEmbedded[name]!), `report ${name}`);
  t.true(sameP95(fromServed.sql!, fromEmbedded.sql!), 'report sql: every p95 within 2 % of the embedded one');
  t.true(REPORTS.filter((n) => (fromEmbedded[n]?.trim().length ?? 0) > 2).length >= 4, 'most reports have rows to compare');
  t.log(`${totals.tj.events} TJ events from ${HOSTS} hosts; ${atKill} stored when a sink was killed (${firstTwo} in the first two hosts' files); rows per table ${JSON.stringify(servedCounts)}`);
});
