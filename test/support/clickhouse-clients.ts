// What the four real ClickHouse clients' tests share: a store with TJ events ingested by perfpipe itself, served
// by `perfpipe serve`, and the answers every client must read from it the same way (docs/clickhouse-http.md §8).
// Each client runs the same checks and prints them as one JSON object (test/clients/*), compared here.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot, runCli } from './cli.js';
import { ANALYST, startServe, type Served } from './clickhouse-serve.js';
import { packageRoot } from '../../ingest/store/package-root.js';

/** The window the report is asked for, and the hour the TJ file is named after (UTC). */
export const WINDOW = { from: '2026-12-03 10:00:00', to: '2026-12-03 11:00:00' };

const TJ_LINES = [
  "00:01.000000-5000,CALL,1,process=rphost,p:processName=test,t:connectID=1,SessionID=1,Usr=Иванов,Context='Форма.Записать',Memory=1024,CpuTime=300,Extra=abc",
  "00:02.000000-7000,TLOCK,2,process=rphost,p:processName=test,t:connectID=2,SessionID=2,Usr=Петров,Regions=Reference10.REFLOCK,Locks='Reference10.REFLOCK Exclusive',WaitConnections=1,Context='X'",
  "00:03.000000-15,DBPOSTGRS,3,process=rphost,p:processName=test,t:connectID=1,Usr=Иванов,Trans=1,dbpid=777,Sql='SELECT 1',Rows=1,Context='Y'",
  "00:04.000000-3000,CALL,1,process=rphost,p:processName=test,t:connectID=3,SessionID=3,Usr=Сидоров,Context='Документ.Провести'",
];

/** The report every client runs: its SQL file as the analyst would copy it, with {from:…} and {to:…}. */
export const REPORT_SQL = readFileSync(join(packageRoot(), 'queries', 'reports', 'tj-event-summary.sql'), 'utf8');

/** An ad-hoc query over tj_events with DateTime64, LowCardinality, Array, Map and Nullable columns. */
export const ADHOC_SQL = 'SELECT ts, event, user, regions, props, trans, wait_connections FROM tj_events ORDER BY ts';

/** A query that fails (UNKNOWN_TABLE, code 60) and a large result: a million rows. */
export const FAILING_SQL = 'SELECT * FROM no_such_table';
export const LARGE_SQL = 'SELECT number, toString(number) AS s FROM numbers(1000000)';

/** What every client must report, in the shape test/clients/* print. */
export const EXPECTED = {
  report: [{ event: 'CALL', n: 2 }, { event: 'DBPOSTGRS', n: 1 }, { event: 'TLOCK', n: 1 }],
  adhoc: [
    { ts: '2026-12-03 10:00:01.000000', event: 'CALL', user: 'Иванов', regions: [], props: { Extra: 'abc', process: 'rphost' }, trans: null, wait_connections: [] },
    { ts: '2026-12-03 10:00:02.000000', event: 'TLOCK', user: 'Петров', regions: ['Reference10.REFLOCK'], props: { process: 'rphost' }, trans: null, wait_connections: ['1'] },
    { ts: '2026-12-03 10:00:03.000000', event: 'DBPOSTGRS', user: 'Иванов', regions: [], props: { process: 'rphost' }, trans: 1, wait_connections: [] },
    { ts: '2026-12-03 10:00:04.000000', event: 'CALL', user: 'Сидоров', regions: [], props: { process: 'rphost' }, trans: null, wait_connections: [] },
  ],
  error: { code: 60 },
  large: { rows: 1_000_000, sum: '499999500000', last: '999999' },
};

export interface ClientStore {
  served: Served;
  /** The environment a client program reads: where the endpoint is, who to log in as, the queries and the window. */
  env: NodeJS.ProcessEnv;
}

/** TJ events ingested into a fresh data directory by `perfpipe ingest`, then `perfpipe serve` over it. */
export async function startClientStore(work: string): Promise<ClientStore> {
  const tj = join(work, 'tj', 'rphost_1');
  mkdirSync(tj, { recursive: true });
  writeFileSync(join(tj, '26120310.log'), `${TJ_LINES.join('\n')}\n`);
  const data = join(work, 'data');
  const ingest = await runCli(['ingest', '--tj', join(work, 'tj'), '--tz', 'UTC', '--data', data]);
  if (ingest.code !== 0) throw new Error(`ingest failed: ${ingest.stderr}`);
  const served = await startServe({}, data);
  const { port } = new URL(served.url);
  return {
    served,
    env: {
      CH_HOST: '127.0.0.1', CH_PORT: port, CH_URL: served.url, CH_USER: ANALYST.user, CH_PASSWORD: ANALYST.password,
      REPORT_SQL, ADHOC_SQL, FAILING_SQL, LARGE_SQL, WINDOW_FROM: WINDOW.from, WINDOW_TO: WINDOW.to,
    },
  };
}

/**
 * A Go program of the module test/clients/go (`pkg`, e.g. '.' or './grafana') built into `out` from the module and
 * build caches scripts/test-env.sh filled: offline, so a module missing from the cache fails the build (and the test)
 * instead of reaching the proxy mid-test.
 */
export async function buildGoClient(out: string, pkg = '.'): Promise<void> {
  await promisify(execFile)('go', ['build', '-o', out, pkg], { cwd: join(repoRoot, 'test', 'clients', 'go'), env: { ...process.env, GOFLAGS: '-mod=readonly', GOPROXY: 'off' }, timeout: 600_000 });
}
