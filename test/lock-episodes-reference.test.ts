// The lock reports read episodes decided once, as the events arrived (docs/tj-format.md §5.5); before issue #28 they
// joined the raw events at report time. That SQL is kept in test/reference-sql/ and is the reference here: on a
// simulated load test, on the TJ of the corpus and on sampled PostgreSQL activity, every report of the stored episodes
// equals what the raw SQL gives — over the whole run and over a window inside it. The one difference docs/tj-format.md
// §5.5 names (a culprit's transaction that began more than an hour before the wait) is shown by the last test.
import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../ingest/store/clickhouse.js';
import { migrate } from '../ingest/store/migrations.js';
import { reportRows } from '../queries/reports/reports.js';
import { fetchLocksReport, LOCK_EVENTS_LIMIT } from '../queries/reports/locks-report.js';
import { startLockResolver } from '../ingest/locks/lock-resolver.js';
import { referenceLocksReport, referenceSql, withoutStatus, type ReferenceLocksReport } from './support/locks-reference.js';
import { runCli } from './support/cli.js';
import { corpusDir, missingCorpus, testIf } from './support/prerequisites.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-lockref-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

type Row = Record<string, unknown>;
type Params = Record<string, unknown>;
const WHOLE = { from: '0.000', to: '4000000000.000' };

async function raw(store: Store, name: string, params: Params): Promise<Row[]> {
  const rs = await store.client.query({ query: referenceSql(name), query_params: params, format: 'JSONEachRow' });
  return rs.json<Row>();
}

/** `report locks` as the raw SQL and its shaping gave it, and as the stored episodes give it now. */
async function bothLockReports(store: Store, window: Params): Promise<[ReferenceLocksReport, ReferenceLocksReport]> {
  const all = { ...window, limit: LOCK_EVENTS_LIMIT, bucket_s: 60 };
  const reference = referenceLocksReport({
    culprits: await raw(store, 'tj-lock-culprits', all), deadlocks: await raw(store, 'tj-lock-deadlocks', all),
    waits: await raw(store, 'tj-lock-wait-events', all), regions: await raw(store, 'tj-lock-waits', { ...window, limit: 20 }),
    minutes: await reportRows(store.client, 'tj-lock-minutes', all), contexts: await reportRows(store.client, 'tj-lock-contexts', { ...window, limit: 20 }),
  });
  const now = await fetchLocksReport((name, extra = {}) => reportRows(store.client, name, { ...window, ...extra }), { top: { regions: 20, contexts: 20 }, waits: true });
  return [reference, withoutStatus(now)];
}

const without = (rows: Row[], key: string): Row[] => rows.map(({ [key]: _, ...rest }) => rest);

/** Every report the raw SQL made, against its stored-episode form, over `window`. */
async function sameReports(t: import('ava').ExecutionContext, store: Store, window: Params): Promise<void> {
  const [reference, now] = await bothLockReports(store, window);
  t.deepEqual(now, reference);
  const all = { ...window, limit: LOCK_EVENTS_LIMIT };
  t.deepEqual(await reportRows(store.client, 'lock-counts', window), await raw(store, 'lock-counts', window));
  t.deepEqual(await reportRows(store.client, 'tj-lock-victims', all), await raw(store, 'tj-lock-victims', all));
  t.deepEqual(without(await reportRows(store.client, 'pg-lock-waits', all), 'status'), await raw(store, 'pg-lock-waits', all));
  // The HTML chart of a short run counts per 10 s from the episodes; the reference from the raw events.
  const tenSeconds = { ...all, bucket_s: 10 };
  t.deepEqual(await reportRows(store.client, 'tj-lock-minutes', tenSeconds), await raw(store, 'tj-lock-minutes', tenSeconds));
}

test.serial('a simulated load test: every lock report of the stored episodes equals the raw SQL, whole run and a window', async (t) => {
  const out = join(work, 'sim');
  const data = join(work, 'sim-data');
  const sim = await runCli(['simulate', '--out', out, '--users', '12', '--duration', '150s', '--rate', '300', '--seed', '28', '--conflicts-per-minute', '24']);
  t.is(sim.code, 0, sim.stderr);
  const ingest = await runCli(['ingest', '--tj', join(out, 'tj'), '--pg', join(out, 'pg'), '--pg-prefix', '%m [%p] %q%u@%d ', '--data', data]);
  t.is(ingest.code, 0, ingest.stderr);
  const store = await openStore({ data });
  try {
    const [reference] = await bothLockReports(store, WHOLE);
    // Not a comparison of empty lists: every kind is there, with culprits found.
    t.true(reference.waits.length >= 10 && reference.timeouts.length >= 5 && reference.deadlocks.length >= 5, JSON.stringify([reference.waits.length, reference.timeouts.length, reference.deadlocks.length]));
    t.true(reference.waits.every((w) => w.culprits.length > 0 && w.culprits.every((c) => c.tx_start !== null && c.lock !== null)));
    t.true((await raw(store, 'pg-lock-waits', { ...WHOLE, limit: 1000 })).length >= 5);
    await sameReports(t, store, WHOLE);
    // A window from the middle of the run: culprits found before it starts, minutes cut at its edges.
    const [{ lo, hi }] = await (await store.client.query({ query: 'SELECT toUnixTimestamp(min(ts)) AS lo, toUnixTimestamp(max(ts)) AS hi FROM tj_events', format: 'JSONEachRow' })).json<{ lo: number; hi: number }>() as [{ lo: number; hi: number }];
    const third = (Number(hi) - Number(lo)) / 3;
    await sameReports(t, store, { from: (Number(lo) + third).toFixed(3), to: (Number(lo) + 2 * third).toFixed(3) });
    const statuses = await (await store.client.query({ query: 'SELECT DISTINCT status FROM tj_lock_episodes FINAL ORDER BY status', format: 'JSONEachRow' })).json<{ status: string }>();
    t.deepEqual(statuses.map((s) => s.status), ['complete'], 'the simulator logs SDBL and TLOCK: every episode is complete');
  } finally {
    await store.close();
  }
});

function logFolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) return [];
    return readdirSync(path).some((f) => f.endsWith('.log')) && /_\d+$/.test(name) ? [path] : logFolders(path);
  });
}

testIf(missingCorpus('tj'))('the corpus TJ: the stored episodes and facts agree with the raw events and the raw SQL', async (t) => {
  // Every <process>_<pid> folder of the corpus under one tree, as a server writes them.
  const tree = join(work, 'corpus');
  mkdirSync(tree);
  for (const [i, folder] of logFolders(join(corpusDir, 'tj')).entries()) symlinkSync(folder, join(tree, `${folder.split('/').at(-1)!.replace(/_\d+$/, '')}_${90000 + i}`));
  const data = join(work, 'corpus-data');
  const ingest = await runCli(['ingest', '--tj', tree, '--tz', 'UTC', '--data', data]);
  t.is(ingest.code, 0, ingest.stderr);
  const store = await openStore({ data });
  try {
    const count = async (sql: string): Promise<number> => Number(Object.values((await (await store.client.query({ query: sql, format: 'JSONEachRow' })).json<Row>())[0] ?? {})[0]);
    t.true(await count('SELECT count() FROM tj_events') > 1000);
    t.is(await count('SELECT count() FROM tj_connection_events'), await count('SELECT count() FROM tj_events WHERE connect_id != 0'));
    t.is(await count('SELECT count() FROM tj_backend_events'), await count('SELECT count() FROM tj_events WHERE dbpid != 0'));
    t.is(await count('SELECT count() FROM tj_lock_episodes FINAL'),
      await count("SELECT count() FROM tj_events WHERE (event = 'TLOCK' AND notEmpty(wait_connections)) OR event IN ('TTIMEOUT', 'TDEADLOCK')"));
    await sameReports(t, store, WHOLE);
  } finally {
    await store.close();
  }
});

test.serial('sampled PostgreSQL activity: report pg-waits\' blocked episodes equal the raw SQL over the whole run and a minute', async (t) => {
  const data = join(work, 'pg-data');
  const store = await openStore({ data });
  try {
    await migrate(store);
    // 4242 blocked by 4343 (idle in transaction), then 4444 blocked by 4242, sampled every 500 ms across a minute's edge.
    const samples: string[] = [];
    for (let i = 0; i < 8; i++) {
      const ts = `toDateTime64('${new Date(Date.UTC(2026, 10, 30, 14, 0, 57) + i * 500).toISOString().slice(0, 23).replace('T', ' ')}', 3, 'UTC')`;
      const row = (pid: number, state: string, wait: string, query: string, blocking: number[], start: string) =>
        `(${ts}, 'db1', 'main', 500, ${pid}, 'erp', 'usr1cv8', '1CV8', '', 'client backend', '${state}', '${wait}', '', NULL, toDateTime64('${start}', 3, 'UTC'), NULL, NULL, '', '${query}', [${blocking.join(',')}])`;
      samples.push(row(4343, 'idle in transaction', '', 'UPDATE a SET x = 1', [], '2026-11-30 14:00:56.000'));
      samples.push(row(4242, 'active', 'Lock', 'UPDATE a SET x = 2', [4343], '2026-11-30 14:00:56.500'));
      if (i >= 3) samples.push(row(4444, 'active', 'Lock', 'UPDATE a SET x = 3', [4242], '2026-11-30 14:00:58.400'));
    }
    await store.client.command({ query: `INSERT INTO pg_activity (ts, host, server, interval_ms, pid, database, user, application, client_addr, backend_type, state, wait_event_type, wait_event, xact_start, query_start, state_change, backend_xid, query_id, query, blocking_pids) VALUES ${samples.join(', ')}` });
    const tj = (at: string, dbpid: number, connect: number, user: string, context: string) =>
      `(toDateTime64('${at}', 6, 'UTC'), toDateTime64('${at}', 6, 'UTC'), 'DBPOSTGRS', 'erp', ${connect}, '${user}', '${context}', ${dbpid}, 'tj', ${connect})`;
    await store.client.command({ query: `INSERT INTO tj_events (ts, ts_start, event, infobase, connect_id, user, context_first, dbpid, file_key, file_offset) VALUES ${[
      tj('2026-11-30 14:00:55.900000', 4343, 18, 'Петров', 'Документ.Реализация.Провести'),
      tj('2026-11-30 14:00:56.400000', 4242, 19, 'Иванов', 'Документ.Поступление.Записать'),
      tj('2026-11-30 14:01:01.200000', 4242, 19, 'Иванов', 'Документ.Поступление.Записать'),
      tj('2026-11-30 14:01:01.300000', 4444, 20, 'Сидоров', 'Справочник.Номенклатура.Записать'),
    ].join(', ')}` });
    const resolver = startLockResolver({ client: store.client, mode: 'backfill' });
    await resolver.settleAll();
    await resolver.stop();
    const compare = async (window: Params) => {
      const params = { ...window, limit: 1000 };
      t.deepEqual(without(await reportRows(store.client, 'pg-blocked-episodes', params), 'status'), await raw(store, 'pg-blocked-episodes', params));
    };
    const episodes = await reportRows<Row>(store.client, 'pg-blocked-episodes', { ...WHOLE, limit: 1000 });
    t.deepEqual(episodes.map((e) => [e.pid, e.holder_pid, e.waiter_1c_user, e.holder_1c_user, e.holder_state, e.status]), [
      [4242, 4343, 'Иванов', 'Петров', 'idle in transaction', 'complete'],
      [4444, 4242, 'Сидоров', 'Иванов', 'active', 'complete'],
    ]);
    await compare(WHOLE);
    // Whole minutes: the window 14:01–14:02 holds each episode's samples of that minute.
    await compare({ from: `${Date.UTC(2026, 10, 30, 14, 1) / 1000}.000`, to: `${Date.UTC(2026, 10, 30, 14, 2) / 1000}.000` });
  } finally {
    await store.close();
  }
});

test.serial('the one difference: a culprit\'s transaction that began more than an hour before the wait is not looked for', async (t) => {
  // Connection 18 begins a transaction and takes the item at 13:40, then holds it; 19 waits for it at 14:45.
  const lines = (events: string[]) => `\uFEFF${events.join('\n')}\n`;
  const dir = join(work, 'long', 'rphost_7');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '26113013.log'), lines([
    "40:00.000000-10,SDBL,4,p:processName=test,t:connectID=18,Usr=Сидоров,Func=BeginTransaction,Context='Обработка.ЗакрытиеМесяца'",
    "40:01.000000-5,TLOCK,5,p:processName=test,t:connectID=18,Usr=Сидоров,Regions=Reference10.REFLOCK,Locks='Reference10.REFLOCK Exclusive ID=10:95aa',WaitConnections=,Context='Обработка.ЗакрытиеМесяца'",
  ]));
  writeFileSync(join(dir, '26113014.log'), lines([
    "45:31.400000-10,SDBL,4,p:processName=test,t:connectID=18,Usr=Сидоров,Func=CommitTransaction,Context='Обработка.ЗакрытиеМесяца'",
    "45:31.500000-1500000,TLOCK,5,p:processName=test,t:connectID=19,Usr=Петров,Regions=Reference10.REFLOCK,Locks='Reference10.REFLOCK Exclusive ID=10:95aa',WaitConnections=18,Context='Форма.Записать'",
  ]));
  const data = join(work, 'long-data');
  const ingest = await runCli(['ingest', '--tj', join(work, 'long'), '--tz', 'UTC', '--data', data]);
  t.is(ingest.code, 0, ingest.stderr);
  const store = await openStore({ data });
  try {
    const [reference, now] = await bothLockReports(store, WHOLE);
    const [was] = reference.waits[0]!.culprits;
    const [is] = now.waits[0]!.culprits;
    t.like(was, { connect_id: 18, tx_start: '2026-11-30T13:40:00.000000Z', tx_end: '2026-11-30T14:45:31.400000Z', lock: { ts: '2026-11-30T13:40:01.000000Z', match: 'exact' } });
    t.like(is, { connect_id: 18, tx_start: null, tx_end: null, lock: null });
    // Everything else is the same: the culprit's user and context come from its last event before the wait's.
    t.deepEqual({ ...is, tx_start: was!.tx_start, tx_end: was!.tx_end, tx_outcome: was!.tx_outcome, tx_user: was!.tx_user, tx_context: was!.tx_context, lock: was!.lock }, was);
  } finally {
    await store.close();
  }
});
