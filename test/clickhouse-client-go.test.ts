// clickhouse-go v2 over HTTP (Go module proxy; the driver of Grafana's ClickHouse data source) at its defaults
// against `perfpipe serve`: Native results at the revision it names in client_protocol_version, a report with
// {param:Type} through clickhouse.WithParameters (test/clients/go/main.go; docs/clickhouse-http.md §8).
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { missingPrograms, testIf } from './support/prerequisites.js';
import { EXPECTED, buildGoClient, startClientStore, type ClientStore } from './support/clickhouse-clients.js';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'perfpipe-client-go-'));
let store: ClientStore | null = null;
test.after.always(async () => {
  await store?.served.stop();
  rmSync(work, { recursive: true, force: true });
});

testIf(missingPrograms('go'), { serial: true })('clickhouse-go over HTTP reads the report, tj_events\' types, an error and a million rows', async (t) => {
  const binary = join(work, 'check');
  await buildGoClient(binary);
  store = await startClientStore(work);
  const { stdout } = await run(binary, [], { env: { ...process.env, ...store.env }, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 });
  const got = JSON.parse(stdout) as Record<string, unknown>;
  t.regex(String(got.server), /revision \d+/, 'its hello query read in Native at its own revision');
  t.deepEqual(got.report, EXPECTED.report);
  t.deepEqual(got.types, ["DateTime64(6, 'UTC')", 'LowCardinality(String)', 'LowCardinality(String)', 'Array(LowCardinality(String))', 'Map(LowCardinality(String), String)', 'Nullable(UInt32)', 'Array(UInt64)']);
  t.deepEqual(got.adhoc, EXPECTED.adhoc);
  t.deepEqual(got.error, EXPECTED.error);
  t.deepEqual(got.large, EXPECTED.large);
});
