// The cluster DDL (`perfpipe migrate --cluster`, ingest/store/cluster-ddl.ts) against the real engine, on a one-shard
// stand-in: the embedded engine started with a server configuration that names a cluster `standin` whose one shard
// is this engine itself (127.0.0.1 at the engine's own tcp_port, which ClickHouse treats as local and reads without a
// connection), the {shard}/{replica} macros, and ClickHouse's in-memory test Keeper, on which a Replicated table
// can be created but never written (the embedded engine never activates a replica). What the engine refuses here:
// ON CLUSTER itself ("Replicated DDL queries are disabled" — the stand-in strips it after the parse check) and any
// insert into a Replicated table; those are checked by parsing only (docs/deploy.md §3).
// One engine, three databases: `default` with the single-node schema and a simulated run ingested by the CLI,
// `sharded` with the cluster DDL (MergeTree locals + Distributed), `replicated` with the --replicated form.
import test from 'ava';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../ingest/store/clickhouse.js';
import { loadMigrations, splitStatements } from '../ingest/store/migrations.js';
import { applyClusterPlan, clusterPlan, printPlan, stateTableDdl } from '../ingest/store/cluster-migrations.js';
import { LOCAL_SUFFIX } from '../ingest/store/cluster-ddl.js';
import { segmentInsertSettings } from '../ingest/sink/clickhouse-sink.js';
import { reportParams, reportSql } from '../queries/reports/reports.js';
import { keyOperationParams } from '../queries/reports/key-operation-params.js';
import { packageRoot } from '../ingest/store/package-root.js';
import { applyRetention } from '../ingest/store/retention.js';
import { FAMILIES } from '../ingest/families/registry.js';
import { startLockResolver } from '../ingest/locks/lock-resolver.js';
import { runCli } from './support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-cluster-ddl-'));
const data = join(work, 'data');
const run = join(work, 'run');
const engineConfig = join(work, 'standin.xml');
let store: Store;

/** The stand-in's server configuration (docs/deploy.md §3 shows a real node's). */
writeFileSync(engineConfig, `<clickhouse>
  <tcp_port>9000</tcp_port>
  <macros><shard>01</shard><replica>r1</replica></macros>
  <remote_servers>
    <standin><shard><internal_replication>true</internal_replication><replica><host>127.0.0.1</host><port>9000</port></replica></shard></standin>
  </remote_servers>
  <zookeeper><implementation>testkeeper</implementation></zookeeper>
</clickhouse>
`);

const stripOnCluster = (sql: string): string => sql.replace(/ ON CLUSTER standin\b/g, '');

test.before(async () => {
  // A small load test with every kind of lock trouble (test/simulate.test.ts holds it to expected.json), ingested
  // into the single-node schema by the CLI as a user would, before this process opens the directory.
  const sim = await runCli(['simulate', '--out', run, '--users', '8', '--duration', '60s', '--rate', '150', '--seed', '3']);
  if (sim.code !== 0) throw new Error(`simulate failed: ${sim.stderr}`);
  const ingest = await runCli(['ingest', '--tj', join(run, 'tj'), '--pg', join(run, 'pg'), '--pg-prefix', '%m [%p] %q%u@%d ', '--atop', join(run, 'atop'),
    '--apdex', join(run, 'apdex'), '--tz', 'Europe/Moscow', '--data', data]);
  if (ingest.code !== 0) throw new Error(`ingest failed: ${ingest.stderr}`);
  store = await openStore({ data, engineConfig });
});

test.after.always(async () => {
  await store?.close();
  rmSync(work, { recursive: true, force: true });
});

async function rows<T = Record<string, unknown>>(query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const rs = await store.client.query({ query, query_params: params, format: 'JSONEachRow' });
  return rs.json<T>();
}

const use = (database: string): Promise<unknown> => store.client.command({ query: `USE ${database}` });

test.serial('every statement of the cluster DDL, as `perfpipe migrate --print` writes it, parses in the engine', async (t) => {
  for (const replicated of [false, true]) {
    const printed = await runCli(['migrate', '--cluster', 'standin', ...(replicated ? ['--replicated'] : []), '--print']);
    t.is(printed.code, 0, printed.stderr);
    const statements = splitStatements(printed.stdout);
    const expected = clusterPlan({ cluster: 'standin', replicated }).migrations.reduce((a, m) => a + m.statements.length, 1);
    t.is(statements.length, expected, 'the state table, then every migration statement');
    for (const statement of statements) {
      // ON CLUSTER on every statement but a rollup's backfill (INSERT … SELECT, which takes none): that runs once,
      // through the Distributed names.
      if (/^INSERT\s/i.test(statement)) t.notRegex(statement, new RegExp(`\\w${LOCAL_SUFFIX}\\b`), statement.slice(0, 80));
      else t.regex(statement, / ON CLUSTER standin\b/, 'ON CLUSTER on every statement');
      const [row] = await rows<{ f: string }>('SELECT formatQuery({q:String}) AS f', { q: statement });
      t.truthy(row?.f, statement.slice(0, 80));
    }
    t.is(printed.stdout, printPlan(clusterPlan({ cluster: 'standin', replicated })));
  }
});

interface Column { table: string; name: string; type: string; default_kind: string; default_expression: string; compression_codec: string; position: number }

async function columns(database: string): Promise<Map<string, Column[]>> {
  const all = await rows<Column>(`SELECT table, name, type, default_kind, default_expression, compression_codec, position
    FROM system.columns WHERE database = {db:String} ORDER BY table, position`, { db: database });
  const byTable = new Map<string, Column[]>();
  for (const c of all) byTable.set(c.table, [...(byTable.get(c.table) ?? []), c]);
  return byTable;
}

async function engines(database: string): Promise<Map<string, { engine: string; sorting_key: string; partition_key: string }>> {
  const all = await rows<{ name: string; engine: string; sorting_key: string; partition_key: string }>(
    'SELECT name, engine, sorting_key, partition_key FROM system.tables WHERE database = {db:String}', { db: database });
  return new Map(all.map((r) => [r.name, r]));
}

/** The tables of queries/ddl/*.sql (perfpipe's own records, such as retention_applied, are no part of it). */
function ddlTables(): string[] {
  return loadMigrations().flatMap((m) => m.statements).flatMap((s) => /^CREATE\s+TABLE\s+IF\s+NOT\s+EXISTS\s+(\w+)/i.exec(s)?.[1] ?? []).sort();
}

for (const replicated of [false, true]) {
  const database = replicated ? 'replicated' : 'sharded';
  test.serial(replicated
    ? 'every replicated local table is created on the test Keeper with the single-node table\'s engine family, sorting and partition keys'
    : 'every sharded local table and its Distributed table match the single-node table column for column', async (t) => {
    await store.client.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` });
    await use(database);
    try {
      const plan = clusterPlan({ cluster: 'standin', replicated });
      if (replicated) {
        // Replicated tables can be created on the stand-in's test Keeper but neither written nor altered (the replica
        // is never active): the CREATEs run here, and the next test holds the ALTERs to the sharded form's.
        await store.client.command({ query: stripOnCluster(stateTableDdl(plan.options)) });
        for (const m of plan.migrations) for (const s of m.statements) if (/^CREATE/.test(s)) await store.client.command({ query: stripOnCluster(s) });
      } else {
        await applyClusterPlan(store.client, plan, { send: async (s) => { await store.client.command({ query: stripOnCluster(s) }); } });
      }
    } finally {
      await use('default');
    }
    const single = await columns('default');
    const cluster = await columns(database);
    const singleEngines = await engines('default');
    const clusterEngines = await engines(database);
    const tables = ddlTables();
    t.true(tables.length >= 15, tables.join(' '));
    for (const table of tables) {
      if (!replicated) {
        const want = (single.get(table) ?? []).map(({ table: _, ...c }) => c);
        t.deepEqual((cluster.get(`${table}${LOCAL_SUFFIX}`) ?? []).map(({ table: _, ...c }) => c), want, `${table}${LOCAL_SUFFIX}`);
        // A Distributed table stores nothing: its columns are the table's own, whatever their codecs.
        const shape = (cs: Column[] | undefined) => (cs ?? []).map(({ name, type, default_kind, default_expression }) => ({ name, type, default_kind, default_expression }));
        t.deepEqual(shape(cluster.get(table)), shape(single.get(table)), table);
      }
      const local = clusterEngines.get(`${table}${LOCAL_SUFFIX}`);
      const one = singleEngines.get(table);
      t.is(local?.engine, replicated ? `Replicated${one?.engine}` : one?.engine, `${table}${LOCAL_SUFFIX} engine`);
      t.is(local?.sorting_key, one?.sorting_key);
      t.is(local?.partition_key, one?.partition_key);
      t.is(clusterEngines.get(table)?.engine, 'Distributed', table);
    }
    if (replicated) {
      t.teardown(async () => {
        // The engine waits for never-active replicas at its shutdown: they go with their database first.
        await store.client.command({ query: 'DROP DATABASE replicated SYNC' });
      });
      const window = await rows<{ name: string; value: string }>(`SELECT name, value FROM system.merge_tree_settings WHERE name = 'replicated_deduplication_window_seconds'`);
      t.is(window[0]?.value, '3600', "ClickHouse's own hour, which the cluster DDL raises to a week on every table that had a window");
      const [tj] = await rows<{ q: string }>(`SELECT create_table_query AS q FROM system.tables WHERE database = 'replicated' AND name = 'tj_events_local'`);
      t.regex(tj?.q ?? '', /replicated_deduplication_window = 10000, replicated_deduplication_window_seconds = 604800/);
    }
  });
}

test.serial('the replicated form is the sharded form but for the engines\' Keeper arguments and the deduplication settings', (t) => {
  const sharded = clusterPlan({ cluster: 'standin', replicated: false }).migrations.flatMap((m) => m.statements);
  const replicated = clusterPlan({ cluster: 'standin', replicated: true }).migrations.flatMap((m) => m.statements);
  t.is(replicated.length, sharded.length);
  let engines = 0;
  for (const [i, r] of replicated.entries()) {
    const back = r
      .replace(/ENGINE = Replicated(\w+)\('\/clickhouse\/tables\/\{shard\}\/\{database\}\/\{table\}', '\{replica\}'(?:, ([^()]*))?\)/g,
        (_, family: string, args?: string) => { engines++; return `ENGINE = ${family}${args === undefined ? '' : `(${args})`}`; })
      .replace(/\breplicated_deduplication_window = (\d+), replicated_deduplication_window_seconds = 604800/g, 'non_replicated_deduplication_window = $1');
    t.is(back, sharded[i] ?? '', r.slice(0, 80));
  }
  t.is(engines, ddlTables().length, 'one Replicated engine per table');
});

/** The tables rows are inserted into: every table but the rollups the views fill. */
function insertedTables(tables: string[]): string[] {
  const targets = new Set(loadMigrations().flatMap((m) => m.statements).flatMap((s) => /^CREATE\s+MATERIALIZED\s+VIEW\b[^]*?\bTO\s+(\w+)/i.exec(s)?.[1] ?? []));
  return tables.filter((t) => !targets.has(t));
}

/** Every report SQL file, with the window of the whole run and the parameters each may take. */
/**
 * A report row as text, a statement shape's sample text left out: tj_sql_text keeps any() of the texts with one
 * sql_hash (queries/ddl/060_tj_sql.sql), which one depends on the order the rows were inserted in.
 */
const sampleFree = (r: Record<string, unknown>): string => JSON.stringify('sql_hash' in r && 'sql' in r ? { ...r, sql: '(a text of this shape)' } : r);

function everyReport(hashes: string[], why: { names: string[]; contexts: string[] }): Array<{ name: string; what: string; params: Record<string, unknown> }> {
  const window = { from: '1700000000.000', to: '1900000000.000' };
  return readdirSync(join(packageRoot(), 'queries', 'reports')).filter((f) => f.endsWith('.sql')).flatMap((f) => {
    const name = f.replace(/\.sql$/, '');
    const sql = reportSql(name);
    const params: Record<string, unknown> = { ...window, ...keyOperationParams([]) };
    if (sql.includes('{limit:')) params.limit = 1000;
    if (sql.includes('{target_us:')) params.target_us = 100_000;
    if (sql.includes('{bucket_s:')) params.bucket_s = 60;
    if (sql.includes('{since:')) params.since = 1_700_000_000; // ingest-spans (queries/reports/clock-check.ts): rows ingested since then
    if (sql.includes('{run:')) Object.assign(params, { run: 'night', origin: 'start' }); // run-context: what a run remembered
    if (sql.includes('{hashes:')) params.hashes = hashes; // report sql's details of the listed statements
    if (sql.includes('{per:')) params.per = 5;
    // report why's details read the operations why-operations listed, by their names and first context lines
    if (sql.includes('{names:')) params.names = why.names;
    if (sql.includes('{contexts:')) params.contexts = why.contexts;
    // report locks reads its stored episodes once per kind (queries/reports/locks-report.ts)
    const kinds = sql.includes('{kind:') ? ['wait', 'timeout', 'deadlock'] : [undefined];
    return kinds.map((kind) => ({ name, what: kind === undefined ? name : `${name} (${kind})`, params: reportParams(name, kind === undefined ? params : { ...params, kind }) }));
  });
}

test.serial('the reports\' SQL runs unchanged on the Distributed tables and gives the single-node numbers, a replay through them included', async (t) => {
  const tables = insertedTables(ddlTables());
  t.true(tables.includes('tj_events') && tables.includes('apdex_measurements') && !tables.includes('tj_lock_minute'), tables.join(' '));
  // Each table's rows through its Distributed table as one segment insert of the sinks, then again as a replay with
  // the same token: the local table drops it, and so do the views' rollups below it. Tables with no deduplication
  // window on one node (runs, key_operations, alerts: written once, not from segments) are not replayed.
  const windowed = new Set(loadMigrations().flatMap((m) => m.statements).flatMap((s) =>
    /non_replicated_deduplication_window/.test(s) ? [/^(?:CREATE\s+TABLE\s+IF\s+NOT\s+EXISTS|ALTER\s+TABLE)\s+(\w+)/i.exec(s)?.[1] ?? ''] : []));
  t.true(windowed.has('tj_events') && windowed.has('pg_activity') && !windowed.has('runs'), [...windowed].join(' '));
  for (const round of [1, 2]) {
    for (const table of tables.filter((name) => round === 1 || windowed.has(name))) {
      await store.client.command({ query: `INSERT INTO sharded.${table} SELECT * FROM default.${table} ORDER BY ALL`, clickhouse_settings: segmentInsertSettings(`copy-${table}`) });
    }
    for (const table of tables) {
      const [a] = await rows<{ n: string }>(`SELECT count() AS n FROM default.${table}`);
      const [b] = await rows<{ n: string }>(`SELECT count() AS n FROM sharded.${table}`);
      t.is(b?.n, a?.n, `${table} after insert ${round}`);
    }
  }
  // The lock episodes' victim rows came through the views; their resolution is the resolver's, as a sink on the
  // cluster runs it: its lookups and inserts through the Distributed names (docs/write-path.md §11, ingest's last step).
  await use('sharded');
  try {
    const resolver = startLockResolver({ client: store.client, mode: 'backfill' });
    await resolver.settleAll();
    await resolver.stop();
    t.true(resolver.stats.written > 0, 'episodes worked out through the Distributed tables');
  } finally {
    await use('default');
  }
  const hashes = (await rows<{ h: string }>('SELECT toString(sql_hash) AS h FROM default.tj_sql_text ORDER BY sql_hash LIMIT 20')).map((r) => r.h);
  t.true(hashes.length > 0, 'statement shapes to detail');
  const whyOps = await rows<{ operation: string; contexts: string[] }>(reportSql('why-operations'),
    reportParams('why-operations', { from: '1700000000.000', to: '1900000000.000' }));
  const why = { names: whyOps.map((r) => r.operation), contexts: [...new Set(whyOps.flatMap((r) => r.contexts))] };
  t.true(why.names.length > 0, 'operations for report why to detail');
  const reports = everyReport(hashes, why);
  t.true(reports.length >= 20, reports.map((r) => r.name).join(' '));
  const [events] = await rows<{ n: string }>('SELECT count() AS n FROM default.tj_events');
  t.true(Number(events?.n) > 5_000, 'a run with something to report');
  const empty: string[] = [];
  for (const { name, what, params } of reports) {
    const sql = reportSql(name);
    const single = (await rows(sql, params)).map(sampleFree);
    await use('sharded');
    let onCluster: string[];
    try {
      onCluster = (await rows(sql, params)).map(sampleFree);
    } finally {
      await use('default');
    }
    t.deepEqual(onCluster.sort(), single.sort(), what);
    if (single.length === 0) empty.push(what);
  }
  // What a simulated run has nothing for (their SQL still ran on the Distributed names): no pg_activity sampling,
  // and so no PostgreSQL waits for report why, no alerts (a backfill alerts on nothing), no runs and so no run context, no PostgreSQL ERROR/FATAL entries and no
  // managed-lock timeout in this small run.
  const nothingSimulated = new Set(['alerts-fired', 'pg-blocked-episodes', 'pg-wait-events', 'pg-wait-minutes', 'pg-wait-sampling-events', 'why-pg-waits', 'runs', 'run-context', 'pg-errors', 'tj-lock-episodes (timeout)']);
  t.deepEqual(empty.filter((n) => !nothingSimulated.has(n)), [], `empty: ${empty.join(' ')}`);
  t.true(reports.length - empty.length >= 17, `${reports.length - empty.length} of ${reports.length} reports have rows`);
});

test.serial('a cluster migration stopped half-way resumes at the statement it did not send', async (t) => {
  await store.client.command({ query: 'CREATE DATABASE IF NOT EXISTS resumed' });
  await use('resumed');
  try {
    const plan = clusterPlan({ cluster: 'standin', replicated: false });
    const total = plan.migrations.reduce((a, m) => a + m.statements.length, 0);
    const sent: string[] = [];
    const send = async (s: string): Promise<void> => { sent.push(s); await store.client.command({ query: stripOnCluster(s) }); };
    const stop = new AbortController();
    const first = await applyClusterPlan(store.client, plan, { send, signal: stop.signal, onStatement: () => { if (sent.length >= 12) stop.abort(); } });
    t.deepEqual(first, { applied: 12, skipped: 0 });
    const second = await applyClusterPlan(store.client, plan, { send });
    t.deepEqual(second, { applied: total - 12, skipped: 12 });
    const third = await applyClusterPlan(store.client, plan, { send });
    t.deepEqual(third, { applied: 0, skipped: total });
    // The state table's DDL opens each call; every migration statement was sent exactly once.
    const statements = sent.filter((s) => !s.includes('schema_migrations_cluster'));
    t.is(statements.length, total);
    t.is(new Set(statements).size, statements.length);
  } finally {
    await use('default');
  }
});

test.serial('retention on a cluster sets the TTLs on the local tables, not on the Distributed ones', async (t) => {
  // The `resumed` database holds the whole sharded plan (previous test); a sink configured with clickhouse_cluster
  // sets the retention this way at start-up (ingest/store/schema.ts).
  await use('resumed');
  try {
    const sent: string[] = [];
    const send = async (s: string): Promise<void> => { sent.push(s); await store.client.command({ query: stripOnCluster(s) }); };
    const retention = FAMILIES.retentionSchema.parse({ tj_days: 9 });
    const changed = await applyRetention(store, retention, FAMILIES.retentionTables, { cluster: 'standin', send });
    t.true(changed.includes('tj_events: kept for ever → 9 days'), changed.join('\n'));
    t.true(sent.length > 0);
    for (const s of sent) t.regex(s, new RegExp(`^ALTER TABLE \\w+${LOCAL_SUFFIX} ON CLUSTER standin `), s);
    const [local] = await rows<{ q: string }>(`SELECT create_table_query AS q FROM system.tables WHERE database = 'resumed' AND name = 'tj_events${LOCAL_SUFFIX}'`);
    t.regex(local?.q ?? '', /toDateTime\(ingested_at\) \+ toIntervalDay\(9\)/);
    const [distributed] = await rows<{ q: string }>(`SELECT create_table_query AS q FROM system.tables WHERE database = 'resumed' AND name = 'tj_events'`);
    t.notRegex(distributed?.q ?? '', /\bTTL\b/);
    t.deepEqual(await applyRetention(store, retention, FAMILIES.retentionTables, { cluster: 'standin', send }), [], 'recorded: nothing to change the second time');
  } finally {
    await use('default');
  }
});
