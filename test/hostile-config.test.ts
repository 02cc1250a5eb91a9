// Security of issue #8 against hostile or careless settings: credentials only from the environment and never
// in a log line, the HTTP port on loopback by default and behind a token beyond it, paths validated.
import test from 'ava';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../ingest/config/config.js';
import { startHttpServer, HTTP_TOKEN_ENV } from '../daemon/http/server.js';
import { Metrics } from '../ingest/observe/metrics.js';
import { repoRoot, runCli, spawnCli } from './support/cli.js';

/** The top-level folders of product code that send statements to a store (docs/map.md). `simulate/` writes 1C's and
 * PostgreSQL's SQL into the log files it makes and never runs it; schemas/ and parsers/ do no I/O. */
const PRODUCT_FOLDERS = ['ingest', 'queries', 'daemon', 'cli'];

const work = mkdtempSync(join(tmpdir(), 'perfpipe-hostile-config-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

const PASSWORD = 'pa55-w0rd-never-logged';

function configError(input: unknown): string {
  try {
    parseConfig(input, 'perfpipe.yaml');
  } catch (error) {
    return (error as Error).message;
  }
  return '(no error)';
}

test('a ClickHouse URL with a password is refused without repeating it; a user name alone is taken', (t) => {
  const message = configError({ clickhouse: `http://admin:${PASSWORD}@db.example:8123/perf` });
  t.is(message, [
    'perfpipe.yaml is not valid:',
    '  clickhouse: holds a password; put it in PERFPIPE_CLICKHOUSE_PASSWORD instead (the URL is logged and kept in files)',
  ].join('\n'));
  t.is(parseConfig({ clickhouse: 'http://db.example:8123/perf' }).clickhouse, 'http://db.example:8123/perf');
  t.is(parseConfig({ clickhouse: 'http://writer@db.example:8123' }).clickhouse, 'http://writer@db.example:8123');
});

test('paths with a NUL byte or a line break, and a source inside the data directory, are refused with their keys', (t) => {
  t.is(configError({ data: join(work, 'd'), sources: [
    { type: 'tj', location: '/var/log/1c\0x', tz: 'UTC' },
    { type: 'tj', location: '/var/log/1c\n{"level":50,"msg":"forged"}', tz: 'UTC' },
    { type: 'tj', location: join(work, 'd', 'tj'), tz: 'UTC' },
  ] }), [
    'perfpipe.yaml is not valid:',
    '  sources[0].location: holds a NUL byte or a line break; expected a file system path',
    '  sources[1].location: holds a NUL byte or a line break; expected a file system path',
    `  sources[2].location: ${JSON.stringify(join(work, 'd', 'tj'))} is inside the data directory ${JSON.stringify(join(work, 'd'))}; perfpipe would read its own files`,
  ].join('\n'));
  t.is(configError({ data: 'a\nb' }), 'perfpipe.yaml is not valid:\n  data: holds a NUL byte or a line break; expected a file system path');
});

test('limits: documented defaults, and each wrong value reported with what was found and what is expected', (t) => {
  t.like(parseConfig({}).pipeline, { max_event_bytes: 32 * 1024 * 1024, max_line_bytes: 8 * 1024 * 1024, max_open_files: 512, rotate_wait_ms: 5000 });
  t.is(configError({ pipeline: { max_event_bytes: 100, max_line_bytes: 'x', max_open_files: 0, rotate_wait_ms: -1 } }), [
    'perfpipe.yaml is not valid:',
    '  pipeline.max_event_bytes: 100 is below 4096; expected bytes, e.g. 33554432 (32 MiB)',
    '  pipeline.max_line_bytes: "x" is not valid; expected a number',
    '  pipeline.max_open_files: 0 is below 1; expected a number of files, e.g. 512',
    '  pipeline.rotate_wait_ms: -1 is negative; expected milliseconds, e.g. 5000',
  ].join('\n'));
});

test('the ClickHouse password from the environment appears in no log line, even at trace level, when the server is unreachable', async (t) => {
  const loc = join(work, 'tj-ch');
  mkdirSync(join(loc, 'rphost_1'), { recursive: true });
  writeFileSync(join(loc, 'rphost_1', '26113014.log'), '00:01.000000-5,CALL,1,Usr=a\n');
  const r = await runCli(['ingest', '--tj', loc, '--tz', 'UTC', '--clickhouse', 'http://127.0.0.1:1'], {
    PERFPIPE_CLICKHOUSE_USER: 'admin', PERFPIPE_CLICKHOUSE_PASSWORD: PASSWORD, PERFPIPE_LOG_LEVEL: 'trace',
  });
  t.not(r.code, 0, 'nothing listens on port 1');
  t.true(r.stderr.length > 0);
  t.false(r.stderr.includes(PASSWORD), r.stderr);
  t.false(r.stdout.includes(PASSWORD));
});

test('the Kafka SASL password from the environment appears in no log line while the agent waits for the broker', async (t) => {
  const loc = join(work, 'tj-kafka');
  mkdirSync(loc, { recursive: true });
  const config = join(work, 'kafka-sasl.yaml');
  writeFileSync(config, `data: ${join(work, 'agent-data')}\nsources: [{ type: tj, location: ${loc}, tz: UTC }]\nbus: { type: kafka, brokers: ["127.0.0.1:1"], sasl_mechanism: plain, retry_initial_ms: 50, retry_max_ms: 200 }\n`);
  const child = spawnCli(['agent', '--config', config, '--listen', '127.0.0.1:0'], {
    PERFPIPE_KAFKA_USERNAME: 'agent', PERFPIPE_KAFKA_PASSWORD: PASSWORD, PERFPIPE_LOG_LEVEL: 'trace',
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
  const exited = new Promise((r) => child.once('exit', r));
  // The agent said it waits, and the client logged ten connection attempts more: the password had chances to leak.
  const attempts = () => stderr.split('Connection error').length - 1;
  const waiting = () => stderr.includes('Kafka unavailable');
  const deadline = Date.now() + 90_000; // a deadline, not a timing goal: the client's own retries come first
  while (!waiting() && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
  const seen = attempts();
  while (attempts() < seen + 10 && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
  child.kill('SIGTERM');
  await exited;
  t.true(waiting(), stderr);
  t.true(attempts() >= seen + 10, `${attempts()} connection attempts logged`);
  t.false(stderr.includes(PASSWORD), stderr);
});

const metrics = (): Metrics => {
  const m = new Metrics();
  m.inc('perfpipe_events_total', 'Events', { source: 'tj' }, 3);
  return m;
};

test('the HTTP port binds to 127.0.0.1 by default and /metrics needs no token there; /sql always does', async (t) => {
  t.is(parseConfig({}).listen, '127.0.0.1:9650');
  const server = await startHttpServer({ listen: '127.0.0.1:0', token: 'daemon-token-0123456789', client: () => null, metrics: metrics(), ready: () => true, env: {} });
  t.teardown(() => server.close());
  t.is((await fetch(`${server.url}/metrics`)).status, 200);
  t.is((await fetch(`${server.url}/sql`, { method: 'POST', body: 'SELECT 1' })).status, 401);
  t.is((await fetch(`${server.url}/sql`, { method: 'POST', body: 'SELECT 1', headers: { authorization: 'Bearer daemon-token-0123456789' } })).status, 503, 'authorized; no store here');
});

test('bound beyond loopback the port refuses to start without PERFPIPE_HTTP_TOKEN, and then wants it on /metrics and /sql', async (t) => {
  const base = { token: 'daemon-token-0123456789', client: () => null, metrics: metrics(), ready: () => true };
  await t.throwsAsync(startHttpServer({ ...base, listen: '0.0.0.0:0', env: {} }), {
    message: `listen 0.0.0.0:0 is beyond loopback: set ${HTTP_TOKEN_ENV} (at least 16 characters) in the environment; /metrics and /sql then require "Authorization: Bearer <token>"`,
  });
  await t.throwsAsync(startHttpServer({ ...base, listen: '0.0.0.0:0', env: { [HTTP_TOKEN_ENV]: 'short' } }), { instanceOf: Error });
  const shared = 'shared-token-for-prometheus';
  const server = await startHttpServer({ ...base, listen: '0.0.0.0:0', env: { [HTTP_TOKEN_ENV]: shared } });
  t.teardown(() => server.close());
  const url = server.url.replace('0.0.0.0', '127.0.0.1');
  t.is((await fetch(`${url}/health`)).status, 200, 'probes stay open');
  t.is((await fetch(`${url}/metrics`)).status, 401);
  t.is((await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status, 401);
  const ok = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${shared}` } });
  t.is(ok.status, 200);
  t.regex(await ok.text(), /perfpipe_events_total\{source="tj"\} 3/);
  t.is((await fetch(`${url}/sql`, { method: 'POST', body: 'SELECT 1', headers: { authorization: `Bearer ${shared}` } })).status, 503, 'authorized; no store here');
});

test('SQL text is never built from values: every template literal that starts a statement interpolates only identifiers', (t) => {
  // The one allowed shape: the insert names its table, columns and format from code (schemas), never from input.
  // Statements are written in capitals in this code base, which keeps messages like `insert failed` out.
  const allowed = new Set([
    'ingest/store/clickhouse.ts: INSERT INTO ${i.table} (${i.columns.join(\', \')}) FORMAT ${i.format}',
    'ingest/store/chdb-binary-insert.ts: INSERT INTO ${o.table} (${o.columns.join(\', \')}) SELECT * FROM file({path:String}, \'RowBinary\', {structure:String})',
    // A table and column from a constant list, and either REMOVE TTL or a TTL of integer days (wantedTtl).
    'ingest/store/retention.ts: ALTER TABLE ${t.table} ${clause}',
    // The same on a cluster: its local tables, with the cluster name checked as a plain identifier by the config.
    'ingest/store/retention.ts: ALTER TABLE ${table}',
    'ingest/store/retention.ts: ALTER TABLE ${stored(table)} ON CLUSTER ${target.cluster}',
  ]);
  const found: string[] = [];
  for (const folder of PRODUCT_FOLDERS) {
    const files = (readdirSync(join(repoRoot, folder), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    for (const f of files) {
      const text = readFileSync(join(repoRoot, folder, f), 'utf8');
      for (const m of text.matchAll(/`\s*(SELECT|INSERT|ALTER|CREATE|DROP|DELETE|OPTIMIZE|WITH|SYSTEM|TRUNCATE)\b[^`]*`/g)) {
        if (m[0].includes('${')) found.push(`${folder}/${f}: ${m[0].slice(1, -1).trim()}`);
      }
    }
  }
  // Statements for PostgreSQL whose every interpolation is code: the pg_activity sample (column expressions chosen by
  // server version) and its pg_wait_sampling read, whose one value is the server's own clock text, checked against a
  // strict timestamp pattern where it is built; a bound parameter would cost the second round trip the sampler
  // avoids (the extended protocol takes one statement per message).
  // The cluster DDL: the repository's own DDL files rewritten (table, view and column names from them) with a cluster
  // name checked as a plain identifier where it is taken (cluster-ddl.ts assertIdentifier, the config's schema). The lock
  // resolver: tables, time columns and key expressions from its constant list (episode-tables.ts), values bound.
  const codeOnly = new Set([
    'ingest/source/pg-activity/sample-query.ts', 'ingest/store/cluster-ddl.ts', 'ingest/store/cluster-migrations.ts',
    'ingest/locks/episode-tables.ts', 'ingest/locks/lock-resolver.ts',
  ]);
  t.deepEqual(found.filter((x) => !allowed.has(x) && !codeOnly.has(x.slice(0, x.indexOf(':')))), []);
});
