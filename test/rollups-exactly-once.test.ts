// Exactly once holds for the rollups too: a segment inserted again (a crash replay, a redelivered Kafka message)
// adds nothing to tj_lock_minute, tj_call_minute, apdex_minute, atop_minute, the tj_sql_* rollups or the call splits'
// minute and hour rollups (062, 064), not only nothing to the raw tables.
import test from 'ava';
import { openTempStore, type TempStore } from './support/temp-store.js';
import { createClickHouseSink } from '../ingest/sink/clickhouse-sink.js';
import { FAMILIES } from '../ingest/families/registry.js';
import { segmentOf, tjEvent } from './support/segments.js';
import { createAtopParser } from '../parsers/atop/index.js';
import { createApdexParser } from '../parsers/apdex/index.js';
import { encodeExport, writeApdexExport } from '../simulate/apdex-export.js';
import { FIXTURE_OPERATIONS } from '../simulate/apdex-fixture.js';
import type { Segment } from '../ingest/bus/bus.js';

let store: TempStore;
test.before(async () => {
  store = await openTempStore('perfpipe-rollups-');
});
test.after.always(async () => {
  await store?.dispose();
});

async function totals(): Promise<Record<string, string>> {
  const q = `SELECT
    (SELECT sum(waits) + sum(timeouts) FROM tj_lock_minute) AS locks,
    (SELECT sum(n) FROM tj_call_minute) AS calls,
    (SELECT sum(n) FROM apdex_minute) AS apdex,
    (SELECT count() FROM atop_minute) AS atop,
    (SELECT sum(n) FROM tj_sql_minute) + (SELECT sum(n) FROM tj_sql_hour) + (SELECT sum(n) FROM tj_sql_context_minute) AS statements,
    (SELECT sum(n) FROM tj_call_split_minute) + (SELECT sum(n) FROM tj_call_split_hour) AS call_splits`;
  return (await (await store.client.query({ query: q, format: 'JSONEachRow' })).json<Record<string, string>>())[0]!;
}

function segments(): Segment[] {
  const file = '/tj/rphost_1/26113014.log';
  const head = (family: Segment['family'], id: string) => ({ id, family, host: 'h', source: family, file, file_key: id, start: 0, end: 100 });
  const tj = segmentOf(head('tj', 'tj-1'), [
    tjEvent(file, 'tj-1', 0, 'TLOCK', [['p:processName', 'ib'], ['Regions', 'R1'], ['WaitConnections', '7'], ['Context', 'Форма.Записать']]),
    tjEvent(file, 'tj-1', 50, 'TTIMEOUT', [['p:processName', 'ib'], ['WaitConnections', '7']]),
    tjEvent(file, 'tj-1', 70, 'DBPOSTGRS', [['p:processName', 'ib'], ['Sql', 'SELECT 1 FROM _Reference28054'], ['Context', 'Форма.Записать']]),
    tjEvent(file, 'tj-1', 80, 'CALL', [['p:processName', 'ib'], ['Context', 'Форма.Записать']]),
  ]);
  const apdexParser = createApdexParser({ host: 'h', source: 'apdex', file: '/e.xml', file_key: 'ap-1', offset: 0 });
  const xml = encodeExport(writeApdexExport(FIXTURE_OPERATIONS, { shape: 'attributes' }));
  const apdex = segmentOf(head('apdex', 'ap-1'), [...apdexParser.push(xml).events, ...apdexParser.finish().events]);
  const h = (epoch: number) => `vm ${epoch} 2026/11/30 14:09:04 1`;
  const atopText = ['RESET', `CPU vm 1000 2026/11/30 14:09:04 423 100 2 10 50 0 120 10 0 5 5 0 2400 100 0 0`, 'SEP',
    `CPU ${h(1001)} 100 2 10 50 0 120 10 0 5 5 0 2400 100 0 0`, 'SEP', ''].join('\n');
  const atopParser = createAtopParser({ host: 'h', source: 'atop', file: '/a.txt', file_key: 'at-1', offset: 0 });
  const atop = segmentOf(head('atop', 'at-1'), [...atopParser.push(Buffer.from(atopText)).events, ...atopParser.finish().events]);
  return [tj, apdex, atop];
}

test.serial('a segment written twice counts once in every rollup', async (t) => {
  const sink = createClickHouseSink({ store, layouts: FAMILIES, events: { inserted() {}, insertFailed() {} } });
  for (const s of segments()) await sink.write(s);
  const once = await totals();
  t.deepEqual(once, { locks: '2', calls: '1', apdex: '17', atop: '1', statements: '3', call_splits: '2' });
  for (const s of segments()) await sink.write(s);
  t.deepEqual(await totals(), once);
});

test.serial('two different segments whose rollup rows are identical both count', async (t) => {
  const sink = createClickHouseSink({ store, layouts: FAMILIES, events: { inserted() {}, insertFailed() {} } });
  const file = '/tj/rphost_2/26113014.log';
  const call = (id: string) => segmentOf({ id, family: 'tj', host: 'h2', source: 'tj', file, file_key: id, start: 0, end: 10 },
    [tjEvent(file, id, 0, 'CALL', [['p:processName', 'twin'], ['Context', 'Одно и то же']])]);
  await sink.write(call('twin-a'));
  await sink.write(call('twin-b'));
  const rs = await store.client.query({ query: "SELECT sum(n) AS n FROM tj_call_minute WHERE infobase = 'twin'", format: 'JSONEachRow' });
  t.deepEqual(await rs.json(), [{ n: '2' }]);
});
