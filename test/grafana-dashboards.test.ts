// The Grafana provisioning under deploy/grafana/ (scripts/grafana/dashboards.ts): the committed files are what the
// generator writes, and every panel's SQL, expanded as Grafana and the ClickHouse data source expand it (variables,
// then the plugin's $__ macros, scripts/grafana/plugin-macros.ts), returns on a simulated run the numbers of the
// report it stands for, over the dashboard's time range and over a named run chosen in `$run`.
// Where the SQL runs: as in a lab, through clickhouse-go v2 over HTTP (the plugin's driver; test/clients/go/grafana)
// against ClickHouse's HTTP interface of perfpipe (`perfpipe serve`, docs/clickhouse-http.md) as the read-only user
// the data source file provisions; the report's own SQL goes to the same endpoint through @clickhouse/client with the
// parameters `perfpipe report` binds (queries/reports/reports.ts).
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { reportParams } from '../queries/reports/reports.js';
import { windowParams } from '../queries/reports/window-params.js';
import { packageRoot } from '../ingest/store/package-root.js';
import { ALERTS_SOURCE, PANELS, provisioningFiles } from '../scripts/grafana/dashboards.js';
import { bindParams, querySql } from '../scripts/grafana/panel-sql.js';
import { expandPanelSql, type PanelContext } from '../scripts/grafana/plugin-macros.js';
import { runCli } from './support/cli.js';
import { missingPrograms, testIf } from './support/prerequisites.js';
import { ANALYST, startServe, WRITER, type Served } from './support/clickhouse-serve.js';
import { buildGoClient } from './support/clickhouse-clients.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-grafana-'));
const data = join(work, 'data');
const run = join(work, 'run');
const goClient = join(work, 'grafana-go');
let served: Served | undefined;
let reader: ClickHouseClient | undefined;
let start: number;

/** The simulated run ingested, `perfpipe serve` over it, the Go client built: once, for the panel tests. */
let ready: Promise<void> | undefined;
function setUp(): Promise<void> {
  ready ??= (async () => {
    const sim = await runCli(['simulate', '--out', run, '--users', '8', '--duration', '150s', '--rate', '100', '--seed', '5', '--tz', 'Europe/Moscow']);
    if (sim.code !== 0) throw new Error(`simulate failed: ${sim.stderr}`);
    start = Date.parse((JSON.parse(readFileSync(join(run, 'expected.json'), 'utf8')) as { options: { start: string } }).options.start) / 1000;
    const ingest = await runCli(['ingest', '--tj', join(run, 'tj'), '--pg', join(run, 'pg'), '--pg-prefix', '%m [%p] %q%u@%d ', '--atop', join(run, 'atop'),
      '--apdex', join(run, 'apdex'), '--tz', 'Europe/Moscow', '--data', data]);
    if (ingest.code !== 0) throw new Error(`ingest failed: ${ingest.stderr}`);
    await buildGoClient(goClient, './grafana');
    served = await startServe({}, data);
    reader = createClient({ url: served.url, username: ANALYST.user, password: ANALYST.password });
    // A named run inside the simulated one, and an alert notice, so the run variable and the annotations have data.
    const writer = createClient({ url: served.url, username: WRITER.user, password: WRITER.password });
    try {
      await writer.insert({ table: 'runs', format: 'JSONEachRow', values: [
        { name: "night's run", started_at: (start + 60) * 1000, stopped_at: (start + 150) * 1000, updated_at: Date.now() },
      ] });
      await writer.insert({ table: 'alerts', format: 'JSONEachRow', values: [
        { sent_at: (start + 70) * 1000, fingerprint: 'f1', alertname: 'LockTimeout', severity: 'critical', rule: 'lock_timeout', status: 'firing',
          sequence: 1, count: 3, starts_at: (start + 65) * 1000, labels: { infobase: 'erp' }, annotations: {}, examples: [{ user: 'u1' }] },
      ] });
    } finally {
      await writer.close();
    }
  })();
  return ready;
}

test.after.always(async () => {
  await reader?.close();
  await served?.stop();
  rmSync(work, { recursive: true, force: true });
});

type Row = Record<string, unknown>;

/** A query through @clickhouse/client, as perfpipe's own reports send it to a server. */
async function rows(query: string, params: Row = {}): Promise<Row[]> {
  const rs = await reader!.query({ query, query_params: params, format: 'JSONEachRow' });
  return rs.json<Row>();
}

/** Expanded panel SQL through clickhouse-go over HTTP, as the data source sends it; a row set per query. */
async function panelRows(queries: string[]): Promise<Row[][]> {
  const { port } = new URL(served!.url);
  const env = { ...process.env, CH_HOST: '127.0.0.1', CH_PORT: port, CH_USER: ANALYST.user, CH_PASSWORD: ANALYST.password };
  const child = promisify(execFile)(goClient, [], { env, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 });
  child.child.stdin?.end(JSON.stringify(queries));
  return JSON.parse((await child).stdout) as Row[][];
}

/** The report's own rows for a window, as `perfpipe report` runs its SQL (queries/reports/reports.ts). */
async function reportRowsFor(source: string, from: number, to: number, own: Readonly<Record<string, string>> = {}): Promise<Row[]> {
  return rows(querySql(source), reportParams(source.replace(/^reports\//, ''), { ...windowParams({ from, to }), limit: 1000, bucket_s: 60, ...opParams, ...own }));
}

const opParams = { op_names: [], op_prefixes: [], op_regexes: [], op_infobases: [], op_targets: [], op_priorities: [], op_min_levels: [] };

/** `2026-11-30 09:01:00` (a DateTime as JSON gives it) → Unix seconds. */
const unixOf = (text: unknown): number => Date.parse(`${String(text).replace(' ', 'T')}Z`) / 1000;

/** Rows as comparable text: keys in one order (Go's JSON sorts them, the report gives them in column order). */
/** Keys in order at every depth: the Go client hands a JSON column's objects back with their keys sorted. */
const canonical = (v: unknown): unknown => (Array.isArray(v) ? v.map(canonical)
  : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, canonical(x)])) : v);
const sorted = (xs: Row[]): string[] => xs.map((r) => JSON.stringify(canonical(r))).sort();

test('the committed provisioning files are the ones `npm run grafana` writes', (t) => {
  for (const [path, text] of Object.entries(provisioningFiles())) {
    t.is(readFileSync(join(packageRoot(), 'deploy', 'grafana', path), 'utf8'), text, `deploy/grafana/${path}: run npm run grafana`);
  }
});

test('the dashboard file holds each panel\'s SQL and the alerts annotation, all through the ClickHouse data source', (t) => {
  const file = JSON.parse(readFileSync(join(packageRoot(), 'deploy', 'grafana', 'dashboards', 'perfpipe-live-run.json'), 'utf8')) as {
    panels: Array<{ title: string; targets: Array<{ rawSql: string; datasource: { type: string } }> }>;
    annotations: { list: Array<{ name: string; target?: { rawSql: string } }> };
    templating: { list: Array<{ name: string }> };
  };
  t.deepEqual(file.panels.map((p) => p.title), PANELS.map((p) => p.title));
  for (const p of file.panels) t.is(p.targets[0]?.datasource.type, 'grafana-clickhouse-datasource');
  t.truthy(file.annotations.list.find((a) => a.name === 'perfpipe alerts')?.target?.rawSql);
  t.deepEqual(file.templating.list.map((v) => v.name), ['run']);
});

/** The committed dashboard's SQL of a panel or of the annotation: what Grafana runs. */
function committedSql(title: string): string {
  const file = JSON.parse(readFileSync(join(packageRoot(), 'deploy', 'grafana', 'dashboards', 'perfpipe-live-run.json'), 'utf8')) as {
    panels: Array<{ title: string; targets: Array<{ rawSql: string }> }>; annotations: { list: Array<{ name: string; target?: { rawSql: string } }> };
  };
  const sql = title === 'perfpipe alerts'
    ? file.annotations.list.find((a) => a.name === title)?.target?.rawSql
    : file.panels.find((p) => p.title === title)?.targets[0]?.rawSql;
  if (sql === undefined) throw new Error(`no SQL for ${title}`);
  return sql;
}

/** The two ways a person narrows the dashboard: its time range, or a run chosen in $run within a wider range. */
function windows(): Array<{ what: string; context: PanelContext; from: number; to: number }> {
  const ctx = (from: number, to: number, runName: string): PanelContext =>
    ({ from: new Date(from * 1000), to: new Date(to * 1000), intervalMs: 60_000, variables: { run: runName } });
  return [
    { what: 'time range', context: ctx(start, start + 180, ''), from: start, to: start + 180 },
    { what: 'run', context: ctx(start - 3600, start + 3600, "night's run"), from: start + 60, to: start + 150 },
  ];
}

const withGo = testIf(missingPrograms('go'), { serial: true });

for (const panel of PANELS.filter((p) => p.source.startsWith('reports/'))) {
  withGo(`panel "${panel.title}" gives the numbers of ${panel.source}.sql`, async (t) => {
    await setUp();
    let nonEmpty = 0;
    const all = await panelRows(windows().map((w) => expandPanelSql(committedSql(panel.title), w.context)));
    for (const [i, w] of windows().entries()) {
      const got = all[i]!;
      const want = await reportRowsFor(panel.source, w.from, w.to, panel.params);
      const back = panel.unixTime ? got.map(({ time, ...r }) => ({ t: unixOf(time), ...r })) : got;
      t.deepEqual(sorted(back), sorted(want), w.what);
      if (want.length > 0) nonEmpty++;
    }
    // A simulated run has no pg_activity samples: that panel's SQL runs, on nothing.
    if (panel.source !== 'reports/pg-wait-minutes') t.is(nonEmpty, 2, 'both windows have data');
  });
}

withGo('each point of the APDEX-per-minute panel is `report apdex` over that one minute, against the operation\'s T', async (t) => {
  await setUp();
  const all = await panelRows(windows().map((w) => expandPanelSql(committedSql('APDEX per key operation per minute'), w.context)));
  for (const [i, w] of windows().entries()) {
    const points = all[i]!;
    t.true(points.length >= 4, `${w.what}: ${points.length} points`);
    for (const p of points) {
      const minute = unixOf(p.time);
      const report = (await reportRowsFor('reports/apdex', minute, minute + 60)).filter((r) => r.scope === 'operation' && r.apdex !== null);
      const match = report.find((r) => `${String(r.operation)} (T ${String(r.target_s)} s)` === p.operation);
      t.truthy(match, `${String(p.operation)} at ${String(p.time)}`);
      t.is(p.apdex, match?.apdex, `${String(p.operation)} at ${String(p.time)}`);
    }
  }
});

withGo('the alerts annotation shows each fired alert of the window at its first notice', async (t) => {
  await setUp();
  const all = await panelRows(windows().map((w) => expandPanelSql(committedSql('perfpipe alerts'), w.context)));
  for (const [i, w] of windows().entries()) {
    const got = all[i]!;
    const want = (await reportRowsFor(ALERTS_SOURCE, w.from, w.to)).map((r) => ({ time: r.first_sent_at, text: `${String(r.alertname)} (${String(r.severity)}): ${String(r.events)} events`, tags: r.alertname }));
    t.deepEqual(got.map((r) => ({ ...r, time: String(r.time) })), want.map((r) => ({ ...r, time: String(r.time) })), w.what);
    t.is(got.length, 1, w.what);
  }
});

test('a report parameter no panel knows stops the generator with its name', (t) => {
  t.throws(() => bindParams('SELECT {since:DateTime}'), { message: 'a panel cannot bind the report parameter {since:DateTime}; add it to scripts/grafana/panel-sql.ts' });
});
