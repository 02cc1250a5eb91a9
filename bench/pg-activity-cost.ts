// What the pg_activity sampler costs (issue #16): one sample's round trip, the CPU it takes in perfpipe's process
// and in the sampler's own backend on the server (/proc/<pid>/stat utime+stime), against a real PostgreSQL with
// `BACKENDS` client sessions of which a third are active and a tenth blocked on a row lock. Run: node --import tsx bench/pg-activity-cost.ts
// Measured on the 2-core test machine (60 sessions, 20 rows per sample): a 7 ms round trip, 2.1 ms of perfpipe CPU and
// 2.0 ms of the server backend's CPU per sample, about 0.2 % of one core on each side at the default 1 s interval.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, appendFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSession, SAMPLER_APPLICATION_NAME } from '../ingest/source/pg-activity/session.js';
import { PG_ACTIVITY, pgActivityRows } from '../schemas/pg-activity-row.js';

const BACKENDS = Number(process.env.BACKENDS ?? 60);
const SAMPLES = Number(process.env.SAMPLES ?? 300);
const TICK_S = 100; // USER_HZ on Linux

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14, 15)
}

// A throwaway server as test/support/pg-cluster.ts makes one (that module pulls in ava, which a bench cannot load).
const bin = '/usr/lib/postgresql/15/bin';
const dir = mkdtempSync(join(tmpdir(), 'perfpipe-pgcost-'));
chmodSync(dir, 0o755);
const root = process.getuid?.() === 0;
if (root) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
const asPg = (cmd: string, args: string[]) => execFileSync(root ? 'runuser' : join(bin, cmd), root ? ['-u', 'postgres', '--', join(bin, cmd), ...args] : args, { stdio: 'pipe' });
const port = 30000 + (process.pid % 20000);
asPg('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
appendFileSync(join(dir, 'data', 'postgresql.conf'), `port = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\nmax_connections = ${BACKENDS + 20}\nfsync = off\n`);
asPg('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', 'start']);
const cluster = {
  psql: async (commands: string[]) => { const c = new pg.Client({ connectionString: url }); await c.connect(); for (const q of commands) await c.query(q); await c.end(); },
  stop: () => asPg('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']),
};
const removeCluster = (_c: unknown) => rmSync(dir, { recursive: true, force: true });
const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
const clients: pg.Client[] = [];
try {
  await cluster.psql(['CREATE TABLE t (id int PRIMARY KEY)', 'INSERT INTO t VALUES (1)']);
  for (let i = 0; i < BACKENDS; i++) { const c = new pg.Client({ connectionString: url }); await c.connect(); clients.push(c); }
  await clients[0]!.query('BEGIN');
  await clients[0]!.query('UPDATE t SET id = 1 WHERE id = 1');
  const blocked = Math.floor(BACKENDS / 10);
  for (let i = 1; i <= blocked; i++) void clients[i]!.query('UPDATE t SET id = 1 WHERE id = 1').catch(() => {});
  for (let i = blocked + 1; i < BACKENDS / 3; i++) void clients[i]!.query('SELECT pg_sleep(600)').catch(() => {});
  await new Promise((r) => setTimeout(r, 500));
  const session = await openSession({ connection: url, statementTimeoutMs: 5000 });
  const probe = new pg.Client({ connectionString: url });
  await probe.connect();
  const backendPid = Number((await probe.query(`SELECT pid FROM pg_stat_activity WHERE application_name = '${SAMPLER_APPLICATION_NAME}'`)).rows[0].pid);
  const server0 = cpuTicks(backendPid);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let rows = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const r = await session.sample();
    // The rows encoded as the source does, so perfpipe's CPU includes them.
    PG_ACTIVITY.encode(pgActivityRows({ host: 'h', server: 's', sampled_at_ms: r.nowMs, interval_ms: 1000, duration_ms: 0, backends: r.backends, wait_period_ms: 0, wait_samples: [] }));
    rows += r.backends.length;
  }
  const wall = (performance.now() - t0) / SAMPLES;
  const cpu = process.cpuUsage(cpu0);
  const server = ((cpuTicks(backendPid) - server0) / TICK_S) * 1000 / SAMPLES;
  console.log(JSON.stringify({
    backends: BACKENDS, rows_per_sample: rows / SAMPLES, samples: SAMPLES,
    round_trip_ms: +wall.toFixed(2), perfpipe_cpu_ms_per_sample: +((cpu.user + cpu.system) / 1000 / SAMPLES).toFixed(3),
    server_backend_cpu_ms_per_sample: +server.toFixed(3),
    at_1s_interval: { perfpipe_cpu_pct: +((cpu.user + cpu.system) / 1000 / SAMPLES / 10).toFixed(3), server_cpu_pct: +(server / 10).toFixed(3) },
  }));
  await session.close();
  await probe.end();
} finally {
  for (const c of clients) await c.end().catch(() => {});
  cluster.stop();
  removeCluster(cluster);
}
