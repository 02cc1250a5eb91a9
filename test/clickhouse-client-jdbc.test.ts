// The ClickHouse JDBC driver (Maven: com.clickhouse:clickhouse-jdbc, what DBeaver ships) at its defaults against
// `perfpipe serve`: its LZ4-compressed answers (ClickHouse's own blocks), RowBinary results, a report with
// {param:Type} given as clickhouse_setting_param_* and as a PreparedStatement, DatabaseMetaData as DBeaver's
// navigator reads it (test/clients/jdbc/CheckJdbc.java; docs/clickhouse-http.md §8).
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { missingPrograms, testIf } from './support/prerequisites.js';
import { EXPECTED, startClientStore, type ClientStore } from './support/clickhouse-clients.js';
import { repoRoot } from './support/cli.js';

const run = promisify(execFile);
const project = join(repoRoot, 'test', 'clients', 'jdbc');
const work = mkdtempSync(join(tmpdir(), 'perfpipe-client-jdbc-'));
let store: ClientStore | null = null;
test.after.always(async () => {
  await store?.served.stop();
  rmSync(work, { recursive: true, force: true });
});

testIf(missingPrograms('mvn', 'javac', 'java'), { serial: true })('the JDBC driver reads the report, tj_events\' types, an error, a million rows and DatabaseMetaData', async (t) => {
  // The driver's jars from the local Maven repository (scripts/test-env.sh resolved them), offline.
  const cpFile = join(work, 'classpath.txt');
  await run('mvn', ['-q', '-o', '-B', '-f', join(project, 'pom.xml'), 'dependency:build-classpath', `-Dmdep.outputFile=${cpFile}`], { timeout: 120_000 });
  const classpath = readFileSync(cpFile, 'utf8').trim();
  const classes = join(work, 'classes');
  mkdirSync(classes);
  await run('javac', ['-d', classes, '-cp', classpath, join(project, 'src', 'main', 'java', 'CheckJdbc.java')], { timeout: 120_000 });
  store = await startClientStore(work);
  const { stdout } = await run('java', ['-cp', `${classes}:${classpath}`, 'CheckJdbc'], { env: { ...process.env, ...store.env }, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 });
  const got = JSON.parse(stdout) as Record<string, unknown>;
  t.regex(String(got.driver), /0\.10\.0/);
  t.deepEqual(got.report, EXPECTED.report, '{from:…} and {to:…} bound by the server from clickhouse_setting_param_*');
  t.deepEqual(got.report_prepared, EXPECTED.report);
  t.deepEqual(got.types, ["DateTime64(6, 'UTC')", 'LowCardinality(String)', 'LowCardinality(String)', 'Array(LowCardinality(String))', 'Map(LowCardinality(String), String)', 'Nullable(UInt32)', 'Array(UInt64)']);
  t.deepEqual((got.adhoc as Array<Record<string, unknown>>).map(({ ts_class: _c, ...row }) => row), EXPECTED.adhoc);
  t.deepEqual(got.error, EXPECTED.error);
  t.deepEqual(got.large, EXPECTED.large);
  t.true((got.schemas as string[]).includes('default'));
  t.true((got.tables as string[]).includes('tj_events'));
  const columns = got.columns as Array<[string, string, number]>;
  t.deepEqual(columns.find((c) => c[0] === 'trans'), ['trans', 'Nullable(UInt32)', 1]);
  t.deepEqual(columns.find((c) => c[0] === 'ts'), ['ts', "DateTime64(6, 'UTC')", 0]);
});
