// What the pg_activity sampler costs (issue #16): one sample's round trip, the CPU it takes in perfpipe's process
// and in the sampler's own backend on the server (/proc/<pid>/stat utime+stime), against a real PostgreSQL with
// `backends` client sessions of which a third are active and a tenth blocked on a row lock. The reference, in the
// same run on the same server: a plain `SELECT 1` round trip from a second session (its client CPU and its
// backend's CPU), so each figure is also a ratio that holds across machines.
// Usage: npx tsx bench/pg-activity-cost.ts [--backends 60] [--samples 300]   (or node dist/bench/pg-activity-cost.js)
// Measured on the 2-core test machine (60 sessions, 20 rows per sample; bench/RESULTS.md): a 3–4 ms round trip (about
// 28× a SELECT 1's), 1.5 ms of perfpipe CPU (about 20× a SELECT 1's client CPU) and 1.4 ms of the server backend's CPU
// (about 48× a SELECT 1's) per sample: about 0.15 % of one core on each side at the default 1 s interval.
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openSession, SAMPLER_APPLICATION_NAME } from '../ingest/source/pg-activity/session.js';
import { PG_ACTIVITY } from '../schemas/pg-activity-row.js';
import { pgActivityRows } from '../ingest/source/pg-activity/pg-activity-rows.js';
import { isMain } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable } from './figures.js';

const TICK_MS = 10; // USER_HZ = 100 on Linux: /proc/<pid>/stat counts CPU in 10 ms ticks
/** SELECT 1 round trips per sample: a round trip costs far less than a tick, so the reference needs many. */
const REFERENCE_PER_SAMPLE = 30;

/** CPU ms of a process so far (utime + stime, fields 14 and 15 of /proc/<pid>/stat). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** A throwaway server as test/support/pg-cluster.ts makes one (that module pulls in ava, which a bench cannot load). */
function startServer(backends: number): { url: string; stop: () => void } {
  const bin = '/usr/lib/postgresql/15/bin';
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-pgcost-'));
  chmodSync(dir, 0o755);
  const root = process.getuid?.() === 0;
  if (root) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  const asPg = (cmd: string, args: string[]) => execFileSync(root ? 'runuser' : join(bin, cmd), root ? ['-u', 'postgres', '--', join(bin, cmd), ...args] : args, { stdio: 'pipe' });
  const port = 30000 + (process.pid % 20000);
  asPg('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  appendFileSync(join(dir, 'data', 'postgresql.conf'), `port = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\nmax_connections = ${backends + 20}\nfsync = off\n`);
  asPg('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try { asPg('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']); } finally { rmSync(dir, { recursive: true, force: true }); }
    },
  };
}

interface Cost { roundTripMs: number; clientCpuMs: number; serverCpuMs: number }

/** Wall, client CPU and server-backend CPU per call of `once`, over `n` calls. */
async function measure(n: number, backendPid: number, once: () => Promise<void>): Promise<Cost> {
  const server0 = cpuMs(backendPid);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await once();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { roundTripMs: wall / n, clientCpuMs: (cpu.user + cpu.system) / 1000 / n, serverCpuMs: (cpuMs(backendPid) - server0) / n };
}

export async function run(options: { backends?: number; samples?: number } = {}): Promise<BenchResult> {
  const backends = options.backends ?? 60;
  const samples = options.samples ?? 300;
  const server = startServer(backends);
  const clients: pg.Client[] = [];
  const connect = async () => { const c = new pg.Client({ connectionString: server.url }); await c.connect(); clients.push(c); return c; };
  try {
    const setup = await connect();
    await setup.query('CREATE TABLE t (id int PRIMARY KEY)');
    await setup.query('INSERT INTO t VALUES (1)');
    await setup.query('BEGIN');
    await setup.query('UPDATE t SET id = 1 WHERE id = 1');
    const blocked = Math.floor(backends / 10);
    const active = Math.floor(backends / 3);
    for (let i = 1; i < backends; i++) {
      const c = await connect();
      if (i <= blocked) void c.query('UPDATE t SET id = 1 WHERE id = 1').catch(() => {});
      else if (i < active) void c.query('SELECT pg_sleep(600)').catch(() => {});
    }
    await new Promise((r) => setTimeout(r, 500));
    const session = await openSession({ connection: server.url, statementTimeoutMs: 5000 });
    const reference = await connect();
    const pidOf = async (where: string) => Number((await reference.query(`SELECT pid FROM pg_stat_activity WHERE ${where}`)).rows[0].pid);
    const samplerPid = await pidOf(`application_name = '${SAMPLER_APPLICATION_NAME}'`);
    const referencePid = await pidOf('pid = pg_backend_pid()');
    let rows = 0;
    // Halves alternate so both see the same machine (another process's burst lands in both).
    const sample: Cost[] = [];
    const select1: Cost[] = [];
    for (const half of [samples >> 1, samples - (samples >> 1)]) {
      sample.push(await measure(half, samplerPid, async () => {
        const r = await session.sample();
        // The rows encoded as the source does, so perfpipe's CPU includes them.
        PG_ACTIVITY.encode(pgActivityRows({ host: 'h', server: 's', sampled_at_ms: r.nowMs, interval_ms: 1000, duration_ms: 0, backends: r.backends, wait_period_ms: 0, wait_samples: [] }));
        rows += r.backends.length;
      }));
      select1.push(await measure(half * REFERENCE_PER_SAMPLE, referencePid, async () => { await reference.query('SELECT 1'); }));
    }
    await session.close();
    const mean = (cs: Cost[], k: keyof Cost) => cs.reduce((s, c) => s + c[k], 0) / cs.length;
    const s = { rt: mean(sample, 'roundTripMs'), client: mean(sample, 'clientCpuMs'), server: mean(sample, 'serverCpuMs') };
    const r = { rt: mean(select1, 'roundTripMs'), client: mean(select1, 'clientCpuMs'), server: mean(select1, 'serverCpuMs') };
    const rowsPerSample = rows / samples;
    // Every stored row is a backend that is not idle: the active, the blocked and the lock holder (idle in transaction).
    const ok = rowsPerSample >= active;
    return {
      bench: 'pg-activity-cost',
      input: { backends, samples, rows_per_sample: +rowsPerSample.toFixed(1), select1_round_trips: samples * REFERENCE_PER_SAMPLE },
      figures: [
        { name: 'sample round trip', value: s.rt, unit: 'ms' },
        { name: 'sample / SELECT 1 round trip', value: s.rt / r.rt, unit: 'x' },
        { name: 'server backend CPU per sample', value: s.server, unit: 'ms' },
        { name: 'server backend CPU: sample / SELECT 1', value: r.server > 0 ? s.server / r.server : Number.NaN, unit: 'x' },
        { name: 'perfpipe CPU per sample', value: s.client, unit: 'ms' },
        { name: 'perfpipe CPU: sample / SELECT 1 client', value: s.client / r.client, unit: 'x' },
        { name: 'server backend CPU at 1 s interval', value: s.server / 10, unit: '% of a core' },
        { name: 'perfpipe CPU at 1 s interval', value: s.client / 10, unit: '% of a core' },
      ],
      ok,
      notes: [
        `SELECT 1 reference: ${r.rt.toFixed(3)} ms round trip, ${r.client.toFixed(3)} ms client CPU, ${r.server.toFixed(4)} ms backend CPU each`,
        `server CPU is read in ${TICK_MS} ms ticks: per-call figures are averages over the run, good to a tick per half`,
        ...(ok ? [] : [`${rowsPerSample.toFixed(1)} rows per sample, expected at least ${active} (the active and blocked sessions)`]),
      ],
    };
  } finally {
    for (const c of clients) await c.end().catch(() => {});
    server.stop();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { backends: { type: 'string' }, samples: { type: 'string' } } });
  const r = await run({ backends: Number(values.backends ?? 60), samples: Number(values.samples ?? 300) });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  console.log(`input ${Object.entries(r.input).map(([k, v]) => `${k}=${v}`).join(' ')}${r.ok ? '' : '  CHECK FAILED'}`);
  for (const note of r.notes ?? []) console.log(`note: ${note}`);
}
