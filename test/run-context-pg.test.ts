// Runs remember their context (issue #25 item 4) against a real PostgreSQL 15: between two runs a DBA runs
// `ALTER SYSTEM SET work_mem …`, `… random_page_cost …` and reloads; `report run-compare --format json` lists exactly
// those two settings with their values before and after. A reload inside a run is shown with the time the server
// logged it (docs/pg-format.md §8), and a server that cannot be reached at `runs start` gets one clear line.
import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingPostgres, pgBinDir, testIf } from './support/prerequisites.js';
import { removeCluster, startPgCluster, type PgCluster } from './support/pg-cluster.js';
import { runCli } from './support/cli.js';
import type { ContextComparison } from '../queries/reports/run-context.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-run-context-'));
let cluster: PgCluster | undefined;
test.after.always(() => {
  cluster?.stop();
  removeCluster(cluster);
  rmSync(work, { recursive: true, force: true });
});

const serial = testIf(missingPostgres(), { serial: true });
const data = join(work, 'data');
const url = () => `postgresql://postgres@127.0.0.1:${cluster!.port}/postgres`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function server(): PgCluster {
  cluster ??= startPgCluster(pgBinDir()!, {
    // The log in the data directory (`log`, relative to it): the postgres user owns that, not the test's temp dir.
    listen_addresses: "'127.0.0.1'", logging_collector: 'on', log_directory: "'log'", log_line_prefix: "'%m [%p] %q%u@%d '",
  });
  return cluster;
}

async function cli(args: string[]): Promise<string> {
  const r = await runCli([...args, '--data', data]);
  if (r.code !== 0) throw new Error(`perfpipe ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** ALTER SYSTEM + reload, then wait until a new session sees the values (the reload is asynchronous). */
async function reconfigure(settings: Record<string, string>, show: string, want: string): Promise<void> {
  await server().configure(settings);
  for (let i = 0; i < 100 && !(await server().psql([`SHOW ${show}`])).includes(want); i++) await sleep(100);
}

async function compare(a: string, b: string): Promise<ContextComparison> {
  return JSON.parse(await cli(['report', 'run-compare', a, b, '--format', 'json'])) as ContextComparison;
}

serial('two runs with work_mem and random_page_cost changed between them: run-compare lists exactly those two', async (t) => {
  server();
  const started = await cli(['runs', 'start', 'base', '--pg-activity', url()]);
  t.regex(started, /recorded PostgreSQL 15\.\S* .* at postgresql:\/\/.*: \d{3} settings, \d+ extensions/);
  t.regex(started, /recorded host \S+: cpu_model .*, cpus \d+/);
  await cli(['runs', 'stop', 'base', '--pg-activity', url()]);
  await reconfigure({ work_mem: "'64MB'", random_page_cost: '1.1' }, 'work_mem', '64MB');
  await cli(['runs', 'start', 'tuned', '--pg-activity', url()]);
  await cli(['runs', 'stop', 'tuned', '--pg-activity', url()]);
  const r = await compare('base', 'tuned');
  t.deepEqual(r.changes, [
    { scope: 'postgresql', name: 'random_page_cost', a: '4', b: '1.1', from: 'snapshot' },
    { scope: 'postgresql', name: 'work_mem', a: '4MB', b: '64MB', from: 'snapshot' },
  ]);
  t.deepEqual(r.changes_during, []);
  t.deepEqual(r.notes, []);
});

serial('a reload inside a run is shown with the time the server logged it', async (t) => {
  server();
  await cli(['runs', 'start', 'live', '--pg-activity', url()]);
  const before = Date.now();
  await reconfigure({ work_mem: "'128MB'" }, 'work_mem', '128MB');
  const after = Date.now();
  await sleep(300);
  await cli(['runs', 'stop', 'live', '--pg-activity', url()]);
  // The server's own log says so, at LOG level, from the postmaster (docs/pg-format.md §8).
  const logDir = join(server().dir, 'data', 'log');
  const log = readdirSync(logDir).map((f) => readFileSync(join(logDir, f), 'utf8')).join('');
  t.regex(log, /LOG: {2}received SIGHUP, reloading configuration files\n.*LOG: {2}parameter "work_mem" changed to "128MB"/);
  await cli(['ingest', '--pg', logDir, '--pg-prefix', '%m [%p] %q%u@%d ']);
  const r = await compare('tuned', 'live');
  t.deepEqual(r.changes, []);
  t.is(r.changes_during.length, 1);
  const [change] = r.changes_during;
  t.like(change, { run: 'live', scope: 'postgresql', name: 'work_mem', a: '64MB', b: '128MB', from: 'pg log' });
  const at = Date.parse(`${change?.at.replace(' ', 'T')}Z`);
  t.true(at >= before - 1000 && at <= after + 1000, `logged at ${change?.at}, reloaded between ${new Date(before).toISOString()} and ${new Date(after).toISOString()}`);
});

serial('a PostgreSQL that cannot be reached at runs start gets a clear line, and the run starts all the same', async (t) => {
  const r = await runCli(['runs', 'start', 'down', '--pg-activity', 'postgresql://postgres@127.0.0.1:1/postgres', '--data', data]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^run down started at /);
  t.regex(r.stdout, /PostgreSQL not reachable at postgresql:\/\/postgres@127\.0\.0\.1:1\/postgres \(.*ECONNREFUSED.*\): its settings were not recorded for run down; the run started all the same/);
  await cli(['runs', 'stop', 'down']);
  const c = await compare('tuned', 'down');
  t.deepEqual(c.notes, ["postgresql: not recorded at the start of run down; not compared (the server log's reloads are shown instead)"]);
  // Without the second snapshot the server log tells what changed since tuned began: the reload inside live.
  t.deepEqual(c.changes.map(({ at: _, ...x }) => x), [{ scope: 'postgresql', name: 'work_mem', a: '64MB', b: '128MB', from: 'pg log' }]);
});
