// Exactly once for the lock episodes (docs/write-path.md §11): a segment inserted again adds nothing to the facts or
// to the victims' rows the views write; resolvers working at once, or again after a restart with the same facts,
// leave one row per episode — a batch replayed is dropped by its token, and what a differently cut batch writes again
// is the same key and version, one row to FINAL.
import test from 'ava';
import { openTempStore, type TempStore } from './support/temp-store.js';
import { createClickHouseSink } from '../ingest/sink/clickhouse-sink.js';
import { segmentOf, tjEvent } from './support/segments.js';
import { startLockResolver } from '../ingest/locks/lock-resolver.js';
import { FAMILIES } from '../ingest/families/registry.js';
import type { Segment } from '../ingest/bus/bus.js';

let store: TempStore;
test.before(async () => {
  store = await openTempStore('perfpipe-episodes-once-');
});
test.after.always(async () => {
  await store?.dispose();
});

const count = async (sql: string): Promise<number> =>
  Number(Object.values((await (await store.client.query({ query: sql, format: 'JSONEachRow' })).json<Record<string, unknown>>())[0] ?? {})[0]);

/** Connection 18 takes an item in its transaction; 19 and 20 wait for it; 18 commits. */
function segment(): Segment {
  const file = '/tj/rphost_1/26030207.log';
  const at = (s: number) => `2026-03-02T07:00:${String(s).padStart(2, '0')}.000000Z`;
  const ev = (offset: number, s: number, wait: number, event: string, props: Array<[string, string]>) =>
    ({ ...tjEvent(file, 'once', offset, event, [['p:processName', 'ib'], ...props]), ts: at(s), ts_start: at(s - wait), duration_us: wait * 1e6 });
  const lock = "Reference10.REFLOCK Exclusive ID=10:95aa";
  return segmentOf({ id: 'h|once|0-900', family: 'tj', host: 'h', source: 'tj', file, file_key: 'once', start: 0, end: 900 }, [
    ev(0, 1, 0, 'SDBL', [['t:connectID', '18'], ['Usr', 'Петров'], ['Func', 'BeginTransaction'], ['Context', 'Обработка.А']]),
    ev(100, 2, 0, 'TLOCK', [['t:connectID', '18'], ['Regions', 'Reference10.REFLOCK'], ['Locks', lock], ['WaitConnections', ''], ['Context', 'Обработка.А']]),
    ev(200, 3, 0, 'DBPOSTGRS', [['t:connectID', '18'], ['dbpid', '4343'], ['Context', 'Обработка.А']]),
    ev(300, 9, 0, 'SDBL', [['t:connectID', '18'], ['Func', 'CommitTransaction'], ['Context', 'Обработка.А']]),
    ev(400, 10, 6, 'TLOCK', [['t:connectID', '19'], ['Regions', 'Reference10.REFLOCK'], ['Locks', lock], ['WaitConnections', '18'], ['Context', 'Форма.Б']]),
    ev(500, 11, 5, 'TLOCK', [['t:connectID', '20'], ['Regions', 'Reference10.REFLOCK'], ['Locks', lock], ['WaitConnections', '18'], ['Context', 'Форма.В']]),
  ]);
}

test.serial('a segment written twice adds nothing to the lock facts or the victims\' rows', async (t) => {
  const sink = createClickHouseSink({ store, layouts: FAMILIES, events: { inserted() {}, insertFailed() {} } });
  await sink.write(segment());
  const once = [await count('SELECT count() FROM tj_connection_events'), await count('SELECT count() FROM tj_backend_events'), await count('SELECT count() FROM tj_lock_episodes')];
  t.deepEqual(once, [6, 1, 2]);
  await sink.write(segment());
  t.deepEqual([await count('SELECT count() FROM tj_connection_events'), await count('SELECT count() FROM tj_backend_events'), await count('SELECT count() FROM tj_lock_episodes')], once);
});

test.serial('resolvers at once, and again after a restart, leave one row per episode', async (t) => {
  // Two sinks' resolvers over one store, each looking at everything.
  const a = startLockResolver({ client: store.client, mode: 'follow' });
  const b = startLockResolver({ client: store.client, mode: 'follow' });
  await Promise.all([a.pass(), b.pass()]);
  await Promise.all([a.stop(), b.stop()]);
  t.is(await count("SELECT count() FROM tj_lock_episodes FINAL WHERE status = 'complete'"), 2);
  // Every stored version of an episode past its victim row is the same one: the two wrote the same rows.
  t.is(await count('SELECT max(n) FROM (SELECT uniqExact(version) AS n FROM tj_lock_episodes WHERE version > 0 GROUP BY kind, ts, file_key, file_offset)'), 1);
  const rows = await count('SELECT count() FROM tj_lock_episodes');
  // A restart finds nothing pending; working everything out again (the backfill's last step) writes nothing new.
  const again = startLockResolver({ client: store.client, mode: 'backfill' });
  await again.settleAll();
  await again.stop();
  t.is(await count('SELECT count() FROM tj_lock_episodes'), rows);
  t.is(await count('SELECT count() FROM tj_lock_episodes FINAL'), 2);
});
