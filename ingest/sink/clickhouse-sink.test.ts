// The sink against the real embedded engine: rows stored once per segment id, and a segment that cannot
// become rows is stored as an ingest error instead of being retried for ever (it would block its partition).
import test from 'ava';
import { openTempStore, type TempStore } from '../../test/support/temp-store.js';
import { createClickHouseSink } from './clickhouse-sink.js';
import { createTjParser } from '../../parsers/tj/index.js';
import type { Segment } from '../bus/bus.js';

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
  return { id: `h|fk|${start}-${start + text.length}`, family: 'tj', host: 'h', source: 'tj', file, file_key: 'fk', start, end: start + text.length, events, errors: [] };
}

async function count(sql: string): Promise<number> {
  const r = await store.client.query({ query: sql, format: 'JSONEachRow' });
  return Number(((await r.json()) as Array<{ c: string }>)[0]?.c);
}

test.serial('a segment written twice is stored once, values intact', async (t) => {
  const sink = createClickHouseSink({ store, events: { inserted() {}, insertFailed(table, e) { failures.push(`${table}: ${e.message}`); } } });
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

test.serial('a segment that cannot be mapped to rows becomes one ingest error and the write resolves', async (t) => {
  const sink = createClickHouseSink({ store, events: { inserted() {}, insertFailed() {} } });
  // Schema-valid on the wire is not guaranteed for a hand-made message: an event without its origin.
  const broken = { ...tjSegment(1000), id: 'h|fk|broken', events: [{ event: 'CALL' }] };
  await sink.write(broken);
  await sink.write(broken);
  t.is(await count("SELECT count() c FROM ingest_errors WHERE kind = 'unmappable_segment' AND offset = 1000"), 1);
});
