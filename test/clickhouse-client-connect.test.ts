// clickhouse-connect (Python, PyPI), the driver behind Jupyter/pandas and Superset, at its defaults against
// `perfpipe serve`: its own session id, lz4 compression both ways, Native results, a pandas DataFrame
// (test/clients/clickhouse-connect/check.py; docs/clickhouse-http.md §8).
import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testIf } from './support/prerequisites.js';
import { EXPECTED, startClientStore, type ClientStore } from './support/clickhouse-clients.js';
import { repoRoot } from './support/cli.js';

/** Where scripts/test-env.sh puts the virtualenv with clickhouse-connect and pandas. */
const python = join(process.env.PERFPIPE_CLIENTS_DIR ?? join(homedir(), '.cache', 'perfpipe'), 'clickhouse-connect-venv', 'bin', 'python');
const missing = existsSync(python) ? null : `no clickhouse-connect virtualenv at ${python} (scripts/test-env.sh makes it)`;

const work = mkdtempSync(join(tmpdir(), 'perfpipe-client-connect-'));
let store: ClientStore | null = null;
test.after.always(async () => {
  await store?.served.stop();
  rmSync(work, { recursive: true, force: true });
});

testIf(missing, { serial: true })('clickhouse-connect reads the report, tj_events\' types, a pandas DataFrame, an error and a million rows', async (t) => {
  store = await startClientStore(work);
  const { stdout } = await promisify(execFile)(python, [join(repoRoot, 'test', 'clients', 'clickhouse-connect', 'check.py')], { env: { ...process.env, ...store.env }, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 });
  const got = JSON.parse(stdout) as Record<string, unknown>;
  t.is(got.compression, 'lz4,zstd,gzip,deflate', 'its default: compressed answers (this server picks lz4) and lz4 inserts');
  t.deepEqual(got.report, EXPECTED.report);
  t.deepEqual(got.adhoc, EXPECTED.adhoc);
  t.deepEqual(got.types, ["DateTime64(6, 'UTC')", 'LowCardinality(String)', 'LowCardinality(String)', 'Array(LowCardinality(String))', 'Map(LowCardinality(String), String)', 'Nullable(UInt32)', 'Array(UInt64)']);
  t.deepEqual(got.pandas, { rows: 4, columns: ['ts', 'event', 'user', 'regions', 'props', 'trans', 'wait_connections'], events: ['CALL', 'TLOCK', 'DBPOSTGRS', 'CALL'], ts_dtype: 'datetime64[us]', trans_nulls: 3 });
  t.deepEqual(got.error, EXPECTED.error);
  t.deepEqual(got.large, EXPECTED.large);
});
