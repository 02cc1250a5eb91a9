// The waits issue #16 names, made on a real PostgreSQL 15 while `perfpipe run` samples it every 500 ms: a row-lock
// chain (each waiter's blocking_pids is the one backend ahead of it, and report pg-waits pairs each waiter with its
// holder), a deadlock seen in the samples before deadlock_timeout resolves it (both backends blocked on each other),
// and relation-extension contention from concurrent inserts, which PostgreSQL 15 reports as Lock/extend.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { missingPostgres, pgBinDir, testIf } from './support/prerequisites.js';
import { connectSession, removeCluster, startPgCluster, type PgCluster } from './support/pg-cluster.js';
import { sinkQuery, startDaemon, waitFor, type Daemon } from './support/daemon.js';
import { runCli } from './support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-pgwaits-'));
let cluster: PgCluster | undefined;
const daemons: Daemon[] = [];
const clients: pg.Client[] = [];
test.after.always(async () => {
  for (const d of daemons) await d.stop('SIGKILL');
  for (const c of clients) await c.end().catch(() => {});
  cluster?.stop();
  removeCluster(cluster);
  rmSync(work, { recursive: true, force: true });
});

const serial = testIf(missingPostgres(), { serial: true });
const url = () => `postgresql://postgres@127.0.0.1:${cluster!.port}/postgres`;

/** One server for the file (its port comes from this process's pid), started by the first test that needs it. */
function server(): PgCluster {
  cluster ??= startPgCluster(pgBinDir()!, { listen_addresses: "'127.0.0.1'" });
  return cluster;
}

async function session(): Promise<{ client: pg.Client; pid: number }> {
  const s = await connectSession(url());
  clients.push(s.client);
  return s;
}

/** `perfpipe run` sampling the server every 500 ms into its own data dir. */
async function sampling(name: string): Promise<{ data: string; daemon: Daemon }> {
  const data = join(work, name);
  const config = join(work, `${name}.yaml`);
  writeFileSync(config, `sources:\n  - type: pg_activity\n    connection: ${url()}\n    interval_ms: 500\n`);
  const daemon = await startDaemon(['run', '--config', config, '--data', data]);
  daemons.push(daemon);
  return { data, daemon };
}

interface Episode { pid: number; wait_event_type: string; wait_event: string; holder_pid: number; holder_pids: number[]; samples: number; query: string; holder_query: string }
interface WaitsReport { wait_events: Array<{ wait_event_type: string; wait_event: string; samples: number; seconds: number }>; blocked: Episode[] }

async function reportOf(data: string, daemon: Daemon): Promise<WaitsReport> {
  await daemon.stop();
  daemons.splice(daemons.indexOf(daemon), 1);
  const r = await runCli(['report', 'pg-waits', '--format', 'json', '--data', data]);
  if (r.code !== 0) throw new Error(`report pg-waits exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as WaitsReport;
}

/** The blocking_pids of each stored Lock sample of `pid`, one entry per distinct list. */
async function blockersOf(data: string, pid: number): Promise<Array<{ blocking: number[]; n: number }>> {
  const rows = await sinkQuery<{ blocking: number[]; n: string }>(data,
    `SELECT blocking_pids AS blocking, count() AS n FROM pg_activity WHERE pid = ${pid} AND wait_event_type = 'Lock' GROUP BY blocking_pids`);
  return rows.map((r) => ({ blocking: r.blocking.map(Number), n: Number(r.n) }));
}

serial('a row-lock chain: each waiter is blocked by the one ahead of it, and report pg-waits pairs each waiter with its holder', async (t) => {
  server();
  await cluster!.psql(['CREATE TABLE chain (id int PRIMARY KEY, v int)', 'INSERT INTO chain VALUES (1, 0), (2, 0)']);
  const { data, daemon } = await sampling('chain');
  const a = await session();
  const b = await session();
  const c = await session();
  // A holds row 1; B holds row 2 and waits for row 1 (behind A); C waits for row 2 (behind B).
  await a.client.query('BEGIN');
  await a.client.query('UPDATE chain SET v = 1 WHERE id = 1');
  await b.client.query('BEGIN');
  await b.client.query('UPDATE chain SET v = 2 WHERE id = 2');
  const bWaits = b.client.query('UPDATE chain SET v = 2 WHERE id = 1');
  const cWaits = c.client.query('UPDATE chain SET v = 3 WHERE id = 2');
  const lockSamples = async (pid: number) => (await blockersOf(data, pid)).reduce((s, x) => s + x.n, 0);
  await waitFor(async () => await lockSamples(b.pid) >= 3 && await lockSamples(c.pid) >= 3, 'three Lock samples of each waiter', 20_000);
  await a.client.query('COMMIT');
  await bWaits;
  await b.client.query('COMMIT');
  await cWaits;

  // Every sample of a waiter names exactly the one backend ahead of it, never the head of the chain for C.
  t.deepEqual((await blockersOf(data, b.pid)).map((x) => x.blocking), [[a.pid]]);
  t.deepEqual((await blockersOf(data, c.pid)).map((x) => x.blocking), [[b.pid]]);

  const report = await reportOf(data, daemon);
  const episode = (pid: number) => report.blocked.find((e) => e.pid === pid);
  t.like(episode(b.pid), { wait_event_type: 'Lock', wait_event: 'transactionid', holder_pid: a.pid, holder_pids: [a.pid],
    query: 'UPDATE chain SET v = 2 WHERE id = 1', holder_query: 'UPDATE chain SET v = 1 WHERE id = 1' });
  t.like(episode(c.pid), { wait_event_type: 'Lock', wait_event: 'transactionid', holder_pid: b.pid, holder_pids: [b.pid],
    query: 'UPDATE chain SET v = 3 WHERE id = 2', holder_query: 'UPDATE chain SET v = 2 WHERE id = 1' });
  t.true(episode(b.pid)!.samples >= 3 && episode(c.pid)!.samples >= 3, JSON.stringify(report.blocked));
  t.is(report.blocked.filter((e) => e.pid === a.pid).length, 0, 'the head of the chain waits on nothing');
});

serial('a deadlock: before deadlock_timeout fires, the samples show both backends blocked on each other, and the report shows both sides', async (t) => {
  server();
  await cluster!.psql(['CREATE TABLE dead (id int PRIMARY KEY, v int)', 'INSERT INTO dead VALUES (1, 0), (2, 0)']);
  const { data, daemon } = await sampling('deadlock');
  const s1 = await session();
  const s2 = await session();
  // 3 s before the deadlock check runs: about six samples at 500 ms in which the cycle stands.
  for (const s of [s1, s2]) await s.client.query("SET deadlock_timeout = '3s'");
  await s1.client.query('BEGIN');
  await s1.client.query('UPDATE dead SET v = 1 WHERE id = 1');
  await s2.client.query('BEGIN');
  await s2.client.query('UPDATE dead SET v = 2 WHERE id = 2');
  const settled = (q: Promise<unknown>) => q.then(() => 'done', (e: Error) => e.message);
  const first = settled(s1.client.query('UPDATE dead SET v = 1 WHERE id = 2'));
  await waitFor(async () => (await cluster!.psql([`SELECT wait_event_type FROM pg_stat_activity WHERE pid = ${s1.pid}`])).includes('Lock'),
    'the first session to wait for the row lock', 10_000, 20);
  const second = settled(s2.client.query('UPDATE dead SET v = 2 WHERE id = 1'));
  const outcomes = await Promise.all([first, second]);
  // PostgreSQL resolved it: one side was cancelled as the deadlock victim, the other went on.
  t.is(outcomes.filter((o) => o === 'deadlock detected').length, 1, outcomes.join(' | '));
  for (const s of [s1, s2]) await s.client.query('ROLLBACK');

  // Samples taken at the same instant in which each backend is blocked by the other.
  const both = async () => Number((await sinkQuery<{ n: string }>(data, `SELECT count() AS n FROM (
      SELECT ts FROM pg_activity
      WHERE (pid = ${s1.pid} AND blocking_pids = [${s2.pid}]) OR (pid = ${s2.pid} AND blocking_pids = [${s1.pid}])
      GROUP BY ts HAVING uniqExact(pid) = 2)`))[0]?.n);
  await waitFor(async () => await both() >= 2, 'two samples of the standing cycle', 20_000);
  t.true(await both() <= 8, `${await both()} samples of a cycle that stood 3 s`);

  const report = await reportOf(data, daemon);
  const episode = (pid: number) => report.blocked.find((e) => e.pid === pid);
  t.like(episode(s1.pid), { wait_event_type: 'Lock', wait_event: 'transactionid', holder_pid: s2.pid, holder_pids: [s2.pid] });
  t.like(episode(s2.pid), { wait_event_type: 'Lock', wait_event: 'transactionid', holder_pid: s1.pid, holder_pids: [s1.pid] });
  t.true(episode(s1.pid)!.samples >= 2 && episode(s2.pid)!.samples >= 2, JSON.stringify(report.blocked));
});

serial('relation extension: eight sessions inserting wide rows into one table are sampled in Lock/extend, and report pg-waits lists it', async (t) => {
  server();
  // Rows of ~1.5 kB and fillfactor 10: a page holds one row, so nearly every insert extends the table and the
  // eight sessions queue on its extension lock (measured on 2 cores: Lock/extend in most 50 ms polls).
  await cluster!.psql(['CREATE UNLOGGED TABLE wide (id serial, pad text) WITH (fillfactor = 10)', 'ALTER TABLE wide ALTER pad SET STORAGE PLAIN']);
  const { data, daemon } = await sampling('extend');
  const inserters = await Promise.all(Array.from({ length: 8 }, () => session()));
  let stop = false;
  const loops = inserters.map(async ({ client }) => {
    while (!stop) await client.query("INSERT INTO wide (pad) SELECT repeat('x', 1500) FROM generate_series(1, 50)");
  });
  const extendSamples = async () => Number((await sinkQuery<{ n: string }>(data,
    "SELECT count() AS n FROM pg_activity WHERE wait_event_type = 'Lock' AND wait_event = 'extend'"))[0]?.n);
  try {
    await waitFor(async () => await extendSamples() >= 3, 'three Lock/extend samples', 30_000, 500);
  } finally {
    stop = true;
    await Promise.all(loops);
  }
  const report = await reportOf(data, daemon);
  const extend = report.wait_events.find((e) => e.wait_event_type === 'Lock' && e.wait_event === 'extend');
  t.truthy(extend, JSON.stringify(report.wait_events));
  t.true(extend!.samples >= 3, JSON.stringify(extend));
  t.is(extend!.seconds, extend!.samples * 0.5, 'each sample stands for the 500 ms interval');
});
