// The sink against the real embedded engine: rows stored once per segment id, and rows ClickHouse refuses are
// stored as an ingest error instead of being retried for ever (they would block their partition).
import test from 'ava';
import { openTempStore, type TempStore } from '../../test/support/temp-store.js';
import { createClickHouseSink } from './clickhouse-sink.js';
import { createTjParser } from '../../parsers/tj/index.js';
import type { Segment } from '../bus/bus.js';
import { FAMILIES, rowsOfRecords } from '../families/registry.js';

let store: TempStore;
const failures: string[] = [];

test.before(async () => {
  store = await openTempStore('perfpipe-sink-');
});
test.after.always(async () => {
  await store?.dispose();
});

const file = '/logs/rphost_1234/26113014.log';
function tjSegment(start: number): Segment {
  const text = "00:01.000001-5,CALL,1,t:connectID=7,Usr=Иванов,Context='Форма.Записать\n\tстрока \"2\"'\r\n00:02.000002-9,DBPOSTGRS,2,dbpid=4410,Sql='SELECT 1'\r\n";
  const parser = createTjParser({ host: 'h', source: 'tj', file, file_key: 'fk', offset: start, hour: '26113014', tz: 'UTC' });
  const events = [...parser.push(Buffer.from(text)).events, ...parser.finish().events];
  return { id: `h|fk|${start}-${start + text.length}`, family: 'tj', host: 'h', source: 'tj', file, file_key: 'fk', start, end: start + text.length, ...rowsOfRecords('tj', events), errors: [] };
}

async function count(sql: string): Promise<number> {
  const r = await store.client.query({ query: sql, format: 'JSONEachRow' });
  return Number(((await r.json()) as Array<{ c: string }>)[0]?.c);
}

test.serial('a segment written twice is stored once, values intact', async (t) => {
  const sink = createClickHouseSink({ store, layouts: FAMILIES, events: { inserted() {}, insertFailed(table, e) { failures.push(`${table}: ${e.message}`); } } });
  const segment = tjSegment(0);
  await sink.write(segment);
  await sink.write(segment);
  t.is(await count("SELECT count() c FROM tj_events WHERE file_key = 'fk'"), 2);
  const r = await store.client.query({ query: "SELECT user, context, dbpid FROM tj_events WHERE file_key = 'fk' ORDER BY ts", format: 'JSONEachRow' });
  t.deepEqual(await r.json(), [
    { user: 'Иванов', context: 'Форма.Записать\n\tстрока "2"', dbpid: 0 },
    { user: '', context: '', dbpid: 4410 },
  ]);
  t.deepEqual(failures, []);
});

test.serial('rows ClickHouse refuses become one ingest error naming the table, and the write resolves', async (t) => {
  const sink = createClickHouseSink({ store, layouts: FAMILIES, events: { inserted() {}, insertFailed() {} } });
  // Checked only when they come from the bus: an in-process segment with its rows cut short reaches the engine.
  const whole = tjSegment(1000);
  const table = whole.tables[0]!;
  const broken = { ...whole, id: 'h|fk|broken', tables: [{ ...table, body: table.body.subarray(0, table.body.length - 5) }] };
  await sink.write(broken);
  await sink.write(broken);
  t.is(await count("SELECT count() c FROM ingest_errors WHERE kind = 'rejected_by_clickhouse' AND offset = 1000 AND reason LIKE '%ClickHouse rejected 2 tj_events rows%'"), 1);
});
