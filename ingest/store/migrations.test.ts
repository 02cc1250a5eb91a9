// Migrations run again after a crash: `migrate` records what it applied only after the statements ran, so a process
// killed in between (tj-run-crash once hit that moment) runs every pending file again at its next start, over the
// tables as the statements left them. Each statement must then succeed and add nothing twice, on the embedded
// engine's batch and on the one-statement-at-a-time path a server takes.
import test from 'ava';
import { openTempStore, type TempStore } from '../../test/support/temp-store.js';
import { loadMigrations, migrate } from './migrations.js';

let store: TempStore;
test.before(async () => {
  store = await openTempStore('perfpipe-migrations-');
  // Rows under the TJ rollups, so that a statement that adds rows when it runs again would show.
  await store.client.command({ query: `INSERT INTO tj_events (ts, ts_start, event, file_key, infobase, context_first, duration_us, regions, wait_connections)
    VALUES (now64(6), now64(6), 'CALL', 'm', 'ib', 'Модуль.Ф', 1500, [], []), (now64(6), now64(6), 'TLOCK', 'm', 'ib', 'Модуль.Ф', 2500, ['AccumRg1.DIMS'], [7])` });
});
test.after.always(async () => {
  await store?.dispose();
});

async function counts(): Promise<Record<string, number>> {
  const rs = await store.client.query({
    query: `SELECT (SELECT count() FROM tj_events) AS events, (SELECT count() FROM tj_lock_minute) AS lock_minutes,
                   (SELECT sum(waits) FROM tj_lock_minute) AS waits, (SELECT sum(n) FROM tj_call_minute) AS calls`,
    format: 'JSONEachRow',
  });
  const [row] = await rs.json<Record<string, string | number>>();
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)]));
}

for (const kind of ['embedded', 'server'] as const) {
  test.serial(`every migration runs again over a migrated store (${kind} path) and adds nothing twice`, async (t) => {
    const before = await counts();
    t.like(before, { events: 2, waits: 1, calls: 1 });
    // What a start after a crash between the statements and their record finds: nothing recorded.
    await store.client.command({ query: 'TRUNCATE TABLE schema_migrations' });
    const applied = await migrate({ client: store.client, kind });
    t.deepEqual(applied, loadMigrations().map((m) => m.name));
    t.deepEqual(await counts(), before);
    t.deepEqual(await migrate({ client: store.client, kind }), [], 'recorded this time');
  });
}
