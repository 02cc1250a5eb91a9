// Retention against the real engine: every table gets the TTL of its family at start-up, a changed config changes
// it, 0 removes it, and an expired day is dropped while a recent one stays.
import test from 'ava';
import { openTempStore, type TempStore } from '../../test/support/temp-store.js';
import { applyRetention, retainedTables, ttlDays } from './retention.js';
import { FAMILIES } from '../families/registry.js';
import { TJ_EVENTS } from '../../schemas/tj-row.js';
import { segmentOf, tjEvent } from '../../test/support/segments.js';

let store: TempStore;
test.before(async () => {
  store = await openTempStore('perfpipe-retention-');
});
test.after.always(async () => {
  await store?.dispose();
});

async function ttls(): Promise<Map<string, number>> {
  const rs = await store.client.query({ query: 'SELECT name, create_table_query FROM system.tables WHERE database = currentDatabase()', format: 'JSONEachRow' });
  return new Map((await rs.json<{ name: string; create_table_query: string }>()).map((r) => [r.name, ttlDays(r.create_table_query)]));
}

test.serial('the defaults give every table its family\'s TTL; a second start changes nothing', async (t) => {
  const defaults = FAMILIES.retentionSchema.parse({});
  const changed = await applyRetention(store, defaults, FAMILIES.retentionTables);
  t.is(changed.length, retainedTables(FAMILIES.retentionTables).length);
  t.true(changed.includes('tj_events: kept for ever → 30 days'));
  const now = await ttls();
  for (const { table, key } of retainedTables(FAMILIES.retentionTables)) t.is(now.get(table), defaults[key], table);
  t.deepEqual(await applyRetention(store, defaults, FAMILIES.retentionTables), []);
  // The big tables are written with LZ4 and recompressed a day after they were ingested, not after the event's time.
  const rs = await store.client.query({ query: "SELECT create_table_query AS q FROM system.tables WHERE name = 'tj_events'", format: 'JSONEachRow' });
  t.regex((await rs.json<{ q: string }>())[0]!.q, /TTL ingested_at \+ toIntervalDay\(1\) RECOMPRESS CODEC\(ZSTD\(3\)\), toDateTime\(ingested_at\) \+ toIntervalDay\(30\)/);
});

test.serial('a changed config changes the TTL of its family only; 0 keeps rows for ever', async (t) => {
  const changed = await applyRetention(store, FAMILIES.retentionSchema.parse({ pg_days: 7, rollup_days: 0 }), FAMILIES.retentionTables);
  t.deepEqual(changed.sort(), [
    'apdex_minute: 400 days → kept for ever', 'atop_minute: 400 days → kept for ever',
    'pg_blocked_minute: 400 days → kept for ever', 'pg_blocked_sides: 400 days → kept for ever', 'pg_lock_episodes: 400 days → kept for ever',
    'pg_lock_waits: 30 days → 7 days', 'pg_log: 30 days → 7 days', 'pg_wait_minute: 400 days → kept for ever',
    'tj_call_minute: 400 days → kept for ever', 'tj_call_split_hour: 400 days → kept for ever', 'tj_call_split_minute: 400 days → kept for ever',
    'tj_call_sql_hour: 400 days → kept for ever', 'tj_call_sql_minute: 400 days → kept for ever',
    'tj_lock_episodes: 400 days → kept for ever', 'tj_lock_minute: 400 days → kept for ever',
    'tj_sql_context_minute: 400 days → kept for ever', 'tj_sql_hour: 400 days → kept for ever', 'tj_sql_minute: 400 days → kept for ever',
    'tj_sql_text: 400 days → kept for ever',
  ]);
  const now = await ttls();
  t.is(now.get('pg_log'), 7);
  t.is(now.get('tj_call_minute'), 0);
  t.is(now.get('tj_events'), 30);
});

test.serial('retention counts from ingestion: an old event read today stays, one ingested long ago goes', async (t) => {
  await applyRetention(store, FAMILIES.retentionSchema.parse({ tj_days: 30 }), FAMILIES.retentionTables);
  const file = '/tj/rphost_1/26113014.log';
  const oldEvent = { ...tjEvent(file, 'ret', 0, 'CALL', [['Usr', 'recorded in 2020, read today']]), ts: '2020-01-01T10:00:00.000000Z', ts_start: '2020-01-01T10:00:00.000000Z' };
  const segment = segmentOf({ id: 'h|ret|0-20', family: 'tj', host: 'h', source: 'tj', file, file_key: 'ret', start: 0, end: 20 }, [oldEvent]);
  const t0 = segment.tables[0]!;
  await store.insertFormatted({ table: 'tj_events', columns: TJ_EVENTS.names, structure: TJ_EVENTS.structure, format: 'RowBinary', body: t0.body, settings: {} });
  await store.client.command({ query: "INSERT INTO tj_events (ts, ts_start, event, file_key, user, ingested_at) VALUES (now64(6), now64(6), 'CALL', 'ret', 'ingested 40 days ago', now() - INTERVAL 40 DAY)" });
  await store.client.command({ query: 'OPTIMIZE TABLE tj_events FINAL' });
  const rs = await store.client.query({ query: "SELECT user FROM tj_events WHERE file_key = 'ret' ORDER BY user", format: 'JSONEachRow' });
  t.deepEqual(await rs.json(), [{ user: 'recorded in 2020, read today' }]);
  const parts = await store.client.query({ query: "SELECT DISTINCT default_compression_codec AS c FROM system.parts WHERE table = 'tj_events' AND active AND rows > 0", format: 'JSONEachRow' });
  t.deepEqual(await parts.json(), [{ c: 'LZ4' }], 'a fresh part is LZ4: nothing recompressed while inserting');
});
