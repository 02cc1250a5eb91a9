// The server path end to end over HTTP: every command that takes --clickhouse, run against a second perfpipe's
// ClickHouse HTTP interface (`perfpipe serve`) as its write user, compared with the same commands on the embedded
// default. No ClickHouse server could be run here (README "Tested without a ClickHouse server"): this is the
// closest stand-in, the same HTTP protocol, the same engine behind it. Covered: migrations one statement at a time,
// RowBinary inserts with deduplication tokens, a replay and a kill -9 of the writer storing nothing twice, `run`
// following files, `sql`, every report and `report all --html`, and a wrong password.
import test from 'ava';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPORT_NAMES } from '../cli/commands/report.js';
import { runCli, spawnCli } from './support/cli.js';
import { startDaemon, waitFor } from './support/daemon.js';
import { ask, startServe, WRITER, type Served } from './support/clickhouse-serve.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-server-path-'));
const sim = join(work, 'sim');
const embedded = join(work, 'embedded');
let served: Served;
let url: string;
const asWriter = { PERFPIPE_CLICKHOUSE_PASSWORD: WRITER.password };

/** The four families of a simulated load test, as `ingest` takes them. */
const FAMILIES = (): string[][] => [
  ['--tj', join(sim, 'tj'), '--tz', 'Europe/Moscow'],
  ['--pg', join(sim, 'pg'), '--pg-prefix', '%m [%p] %q%u@%d '],
  ['--apdex', join(sim, 'apdex')],
  ['--atop', join(sim, 'atop', 'atop.txt')],
];
const COUNTS = `SELECT (SELECT count() FROM tj_events) AS tj, (SELECT uniqExact(file_key, file_offset) FROM tj_events) AS tj_unique,
  (SELECT count() FROM pg_log) AS pg, (SELECT count() FROM pg_lock_waits) AS pg_waits, (SELECT count() FROM apdex_measurements) AS apdex,
  (SELECT count() FROM atop_system) AS atop, (SELECT count() FROM ingest_errors) AS errors, (SELECT groupArray(name) FROM (SELECT name FROM schema_migrations FINAL ORDER BY version)) AS migrations`;

const cli = async (args: string[], env: NodeJS.ProcessEnv = asWriter): Promise<string> => {
  const r = await runCli(args, env);
  if (r.code !== 0) throw new Error(`perfpipe ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
};
const onServer = (...args: string[]): string[] => [...args, '--clickhouse', url];
const onEmbedded = (...args: string[]): string[] => [...args, '--data', embedded];
const counts = async (target: string[]): Promise<Record<string, unknown>> => JSON.parse(await cli(['sql', COUNTS, '--format', 'json', ...target])) as Record<string, unknown>;

test.before(async () => {
  const out = await runCli(['simulate', '--out', sim, '--users', '15', '--duration', '1m', '--seed', '5']);
  if (out.code !== 0) throw new Error(out.stderr);
  served = await startServe();
  url = served.url.replace('http://', `http://${WRITER.user}@`);
});
test.after.always(async () => {
  await served?.stop();
  rmSync(work, { recursive: true, force: true });
});

test.serial('ingest over HTTP stores exactly what an embedded ingest stores; a second run and a replay store nothing', async (t) => {
  for (const family of FAMILIES()) {
    await cli(['ingest', ...family, '--data', join(work, 'checkpoints'), '--clickhouse', url]);
    await cli(['ingest', ...family, '--data', embedded]);
  }
  const reference = await counts(onEmbedded());
  t.true(Number(reference.tj) > 5_000 && Number(reference.pg) > 100 && Number(reference.apdex) > 0 && Number(reference.atop) > 0, JSON.stringify(reference));
  t.deepEqual(await counts(onServer()), reference, 'the same rows, and the same migrations applied one statement at a time');
  for (const family of FAMILIES()) await cli(['ingest', ...family, '--data', join(work, 'checkpoints'), '--clickhouse', url]);
  t.deepEqual(await counts(onServer()), reference, 'a second run with its checkpoints reads nothing new');
  for (const family of FAMILIES()) await cli(['ingest', ...family, '--data', join(work, 'fresh-checkpoints'), '--clickhouse', url]);
  t.deepEqual(await counts(onServer()), reference, 'a replay of every segment is dropped by the deduplication tokens');
});

test.serial('a writer killed with SIGKILL mid-ingest, then run again, stores every event once', async (t) => {
  const other = await startServe();
  try {
    const target = other.url.replace('http://', `http://${WRITER.user}@`);
    // Segments of 64 KiB: a hundred and more inserts, so that the kill lands between two of them.
    const config = join(work, 'small-segments.yaml');
    writeFileSync(config, 'pipeline:\n  segment_bytes: 65536\n');
    const args = ['ingest', '--config', config, '--tj', join(sim, 'tj'), '--tz', 'Europe/Moscow', '--data', join(work, 'killed'), '--clickhouse', target];
    const child = spawnCli(args, asWriter);
    const stored = async (): Promise<{ c: number; u: number }> => {
      const r = await ask(other.url, { user: WRITER, body: 'SELECT count() AS c, uniqExact(file_key, file_offset) AS u FROM tj_events FORMAT JSONEachRow' });
      const row = JSON.parse(r.status === 200 && r.text.trim() !== '' ? r.text : '{"c":0,"u":0}') as { c: string; u: string };
      return { c: Number(row.c), u: Number(row.u) };
    };
    await waitFor(async () => (await stored()).c > 0, 'the first rows to be stored', 120_000, 100);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const partial = await stored();
    await cli(args);
    const reference = await counts(onEmbedded());
    const final = await stored();
    t.log(`killed after ${partial.c} of ${Number(reference.tj)} events`);
    t.true(partial.c < Number(reference.tj), 'the writer was killed before it had stored everything');
    t.deepEqual(final, { c: Number(reference.tj), u: Number(reference.tj) });
  } finally {
    await other.stop();
  }
});

test.serial('sql, runs and every report answer the same over HTTP as on the embedded store; report all --html writes its page', async (t) => {
  const start = JSON.parse(readFileSync(join(sim, 'expected.json'), 'utf8')) as { options: { start: string; duration_ms: number } };
  const from = start.options.start;
  const to = new Date(Date.parse(from) + start.options.duration_ms).toISOString();
  for (const target of [onServer(), onEmbedded()]) {
    await cli(['runs', 'start', 'load', '--at', from, ...target]);
    await cli(['runs', 'stop', 'load', '--at', to, ...target]);
  }
  for (const format of ['table', 'json', 'csv', 'tsv']) {
    const sql = 'SELECT event, count() AS n, max(ts) AS last FROM tj_events GROUP BY event ORDER BY event';
    const [server, local] = await Promise.all([cli(['sql', sql, '--format', format, ...onServer()]), cli(['sql', sql, '--format', format, ...onEmbedded()])]);
    t.is(server, local, `sql --format ${format}`);
  }
  // Every report the CLI has (a new one is covered without a change here); `all` is the HTML page below.
  const reports = REPORT_NAMES.map((name) => (name === 'runs' ? [name] : name === 'run-compare' ? [name, 'load', 'load'] : [name, '--run', 'load']))
    .filter(([name]) => name !== 'all');
  t.true(reports.length >= 8, reports.map(([name]) => name).join(' '));
  for (const report of reports) {
    for (const format of ['json', 'table']) {
      // The two stores are two processes: asked side by side (the test ran past ava's 5 minutes one after the other on a loaded machine).
      const [server, local] = await Promise.all([cli(['report', ...report, '--format', format, ...onServer()]), cli(['report', ...report, '--format', format, ...onEmbedded()])]);
      t.is(server, local, `report ${report.join(' ')} --format ${format}`);
      t.not(server.trim(), '', `report ${report[0]} has rows`);
    }
  }
  const html = join(work, 'report.html');
  await cli(['report', 'all', '--run', 'load', '--html', html, '--tz', 'UTC', ...onServer()]);
  const embeddedHtml = join(work, 'report-embedded.html');
  await cli(['report', 'all', '--run', 'load', '--html', embeddedHtml, '--tz', 'UTC', ...onEmbedded()]);
  const sections = (file: string): string[] => [...readFileSync(file, 'utf8').matchAll(/<h2[^>]*>([^<]+)<\/h2>/g)].map((m) => m[1] as string);
  t.true(existsSync(html));
  t.deepEqual(sections(html), sections(embeddedHtml));
  t.true(sections(html).length >= 4, sections(html).join(', '));
});

test.serial('run follows growing files into the server', async (t) => {
  const tj = join(work, 'live', 'rphost_1');
  mkdirSync(tj, { recursive: true });
  const file = join(tj, '26120311.log');
  writeFileSync(file, '');
  const daemon = await startDaemon(['run', '--tj', join(work, 'live'), '--tz', 'UTC', '--data', join(work, 'run-data'), '--clickhouse', url], 90_000, asWriter);
  try {
    appendFileSync(file, '00:01.000000-5,CALL,1,Usr=live1,Context=x\n00:02.000000-7,CALL,1,Usr=live2,Context=y\n');
    const seen = async () => (await ask(served.url, { user: WRITER, body: "SELECT count() FROM tj_events WHERE user IN ('live1', 'live2')" })).text.trim();
    await waitFor(async () => (await seen()) === '2', 'the followed events on the server', 60_000);
    t.is(await seen(), '2');
  } finally {
    t.is(await daemon.stop('SIGTERM'), 0);
  }
});

test.serial('a wrong password gets one clear error, from sql and from ingest alike', async (t) => {
  for (const args of [['sql', 'SELECT 1', '--clickhouse', url], ['ingest', '--tj', join(sim, 'tj'), '--tz', 'Europe/Moscow', '--data', join(work, 'wrong'), '--clickhouse', url]]) {
    const r = await runCli(args, { PERFPIPE_CLICKHOUSE_PASSWORD: 'not-the-password' });
    t.is(r.code, 1, args[0]);
    const lines = r.stderr.trim().split('\n');
    t.is(lines.length, 1, r.stderr);
    t.regex(lines[0] ?? '', /writer: Authentication failed: password is incorrect, or there is no user with such name/);
  }
});
