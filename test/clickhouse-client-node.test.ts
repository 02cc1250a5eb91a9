// @clickhouse/client (the official Node.js client) over HTTP at its defaults against `perfpipe serve`: a report's
// SQL with {param:Type}, an ad-hoc query with DateTime64/LowCardinality/Array/Map/Nullable columns, a query that
// fails, a large result streamed, and a session of its own (docs/clickhouse-http.md §8).
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { ADHOC_SQL, EXPECTED, FAILING_SQL, LARGE_SQL, REPORT_SQL, WINDOW, startClientStore, type ClientStore } from './support/clickhouse-clients.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-client-node-'));
let store: ClientStore;
let client: ClickHouseClient;
test.before(async () => {
  store = await startClientStore(work);
  client = createClient({ url: store.env.CH_URL, username: store.env.CH_USER, password: store.env.CH_PASSWORD });
});
test.after.always(async () => {
  await client?.close();
  await store?.served.stop();
  rmSync(work, { recursive: true, force: true });
});

test.serial('a report\'s SQL with {from:DateTime64(6)} and {to:DateTime64(6)} as query_params', async (t) => {
  const rs = await client.query({ query: REPORT_SQL, query_params: WINDOW, format: 'JSONEachRow' });
  const rows = await rs.json<{ event: string; n: string | number }>();
  t.deepEqual(rows.map((r) => ({ event: r.event, n: Number(r.n) })).sort((a, b) => a.event.localeCompare(b.event)), EXPECTED.report);
});

test.serial('an ad-hoc query over tj_events: DateTime64, LowCardinality, Array, Map and Nullable columns', async (t) => {
  const rs = await client.query({ query: ADHOC_SQL, format: 'JSONEachRow' });
  const rows = await rs.json<Record<string, unknown>>();
  t.deepEqual(rows.map((r) => ({ ...r, wait_connections: (r.wait_connections as unknown[]).map(String) })), EXPECTED.adhoc);
  const meta = await (await client.query({ query: `${ADHOC_SQL} LIMIT 1`, format: 'JSON' })).json<{ meta: Array<{ name: string; type: string }> }>();
  t.deepEqual((meta.meta ?? []).map((m) => m.type), ["DateTime64(6, 'UTC')", 'LowCardinality(String)', 'LowCardinality(String)', 'Array(LowCardinality(String))', 'Map(LowCardinality(String), String)', 'Nullable(UInt32)', 'Array(UInt64)']);
});

test.serial('a query that fails rejects with ClickHouse\'s code and message', async (t) => {
  const error = await t.throwsAsync(client.query({ query: FAILING_SQL, format: 'JSONEachRow' }));
  t.is((error as unknown as { code: string }).code, String(EXPECTED.error.code));
  t.regex(error?.message ?? '', /no_such_table/);
});

test.serial('a large result streams: a million rows, read row by row', async (t) => {
  const rs = await client.query({ query: LARGE_SQL, format: 'JSONCompactEachRow' });
  let rows = 0;
  let sum = 0n;
  let last = '';
  for await (const batch of rs.stream()) {
    for (const row of batch) {
      const [n, s] = row.json<[string | number, string]>();
      rows++;
      sum += BigInt(n);
      last = s;
    }
  }
  t.deepEqual({ rows, sum: String(sum), last }, EXPECTED.large);
});

test.serial('a client with compression on both sides and a session id, as applications set it', async (t) => {
  const compressed = createClient({ url: store.env.CH_URL, username: store.env.CH_USER, password: store.env.CH_PASSWORD, compression: { request: true, response: true }, session_id: 'node-session' });
  try {
    await compressed.command({ query: 'SET max_block_size = 1234' });
    const rs = await compressed.query({ query: "SELECT getSetting('max_block_size') AS b, count() AS c FROM tj_events", format: 'JSONEachRow' });
    t.deepEqual(await rs.json(), [{ b: 1234, c: 4 }]);
  } finally {
    await compressed.close();
  }
});
