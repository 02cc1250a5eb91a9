// Holds each zod row schema and its ClickHouse table in step: same columns, compatible types, and a
// row made by the mapping goes in and comes back. A column added on one side only fails here.
import test from 'ava';
import { z } from 'zod';
import { openTempStore, type TempStore } from '../test/support/temp-store.js';
import { TJ_EVENTS, TjRowSchema } from './tj-row.js';
import { tjEventToRow } from '../ingest/source/tj/tj-event-to-row.js';
import { FAMILIES } from '../ingest/families/registry.js';
import type { TableLayout } from './columns.js';
import { createTjParser } from '../parsers/tj/index.js';
import { PG_LOCK_WAITS, PG_LOG, PgLockWaitRowSchema, PgLogRowSchema } from './pg-row.js';
import { pgEpisodeToRow, pgEventToRow } from '../ingest/source/pg/pg-rows.js';
import { createPgParser } from '../parsers/pg/index.js';
import { createPgEpisodeStream } from '../parsers/pg/episode-stream.js';
import { AlertRowSchema } from './alert-row.js';
import { TjLockEpisodeRowSchema } from './tj-lock-episode-row.js';
import { PgLockEpisodeRowSchema } from './pg-lock-episode-row.js';
import { TjBackendEventRowSchema, TjConnectionEventRowSchema } from './lock-fact-rows.js';
import { PgBlockedSidesRowSchema } from './pg-blocked-sides-row.js';

let store: TempStore;

test.before(async () => {
  store = await openTempStore('perfpipe-ddl-');
});
test.after.always(async () => {
  await store?.dispose();
});

/** Which ClickHouse types a zod field may be stored in. */
function acceptsType(field: z.ZodType, chType: string): boolean {
  const def = (field as unknown as { def: { type: string; innerType?: z.ZodType; element?: z.ZodType; options?: z.ZodType[] } }).def;
  const lc = /^LowCardinality\((.*)\)$/.exec(chType);
  const inner = lc ? lc[1] as string : chType;
  switch (def.type) {
    case 'string': return /^(String|DateTime64\(\d, 'UTC'\))$/.test(inner);
    case 'number': return /^(U?Int(8|16|32|64)|Float64)$/.test(inner);
    case 'boolean': return inner === 'Bool' || inner === 'UInt8';
    case 'union': return inner === 'UInt64' && (def.options ?? []).length === 2;
    case 'nullable': {
      const m = /^Nullable\((.*)\)$/.exec(chType);
      return m !== null && acceptsType(def.innerType as z.ZodType, m[1] as string);
    }
    case 'array': {
      const m = /^Array\((.*)\)$/.exec(chType);
      return m !== null && acceptsType(def.element as z.ZodType, m[1] as string);
    }
    case 'object': {
      const m = /^Tuple\((.*)\)$/s.exec(inner);
      if (m === null) return false;
      const elements = new Map(topLevelParts(m[1] as string).map((p) => {
        const at = p.indexOf(' ');
        return [p.slice(0, at), p.slice(at + 1)] as const;
      }));
      const shape = (def as unknown as { shape: Record<string, z.ZodType> }).shape;
      return Object.keys(shape).join() === [...elements.keys()].join()
        && Object.entries(shape).every(([name, f]) => acceptsType(f, elements.get(name) ?? ''));
    }
    case 'record': {
      const m = /^Map\((?:LowCardinality\()?String\)?, (.*)\)$/.exec(chType);
      const value = (def as unknown as { valueType: z.ZodType }).valueType;
      return m !== null && acceptsType(value, m[1] as string);
    }
    default: return false;
  }
}

/** `a UInt8, b Array(Tuple(c String, d UInt8))` → its parts at top-level commas. */
function topLevelParts(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) { parts.push(list.slice(from, i).trim()); from = i + 1; }
  }
  parts.push(list.slice(from).trim());
  return parts;
}

/** Rows in, the way every insert goes: RowBinary bytes of the table's layout. */
async function insertRows<L extends TableLayout>(layout: L, rows: Parameters<L['encode']>[0]): Promise<void> {
  await store.insertFormatted({ table: layout.table, columns: layout.names, structure: layout.structure, format: 'RowBinary', body: layout.encode(rows), settings: {} });
}

async function insertedColumns(table: string): Promise<Map<string, string>> {
  const rs = await store.client.query({ query: `DESCRIBE TABLE ${table}`, format: 'JSONEachRow' });
  const rows = await rs.json<{ name: string; type: string; default_type: string }>();
  // A long tuple type is printed over several lines.
  return new Map(rows.filter((r) => r.default_type === '').map((r) => [r.name, r.type.replace(/\(\s+/g, '(').replace(/\s+\)/g, ')').replace(/\s+/g, ' ')]));
}

for (const layout of FAMILIES.layouts) {
  test(`${layout.table}: the row layout and the table have the same columns, in insert order, with the same types`, async (t) => {
    const columns = await insertedColumns(layout.table);
    // Exact type names: RowBinary carries no types, so a column that changed type on one side would misread bytes.
    t.deepEqual([...columns.entries()], layout.columns.map(([name, type]) => [name, type]));
    const fields = layout.schema.shape as Record<string, z.ZodType>;
    for (const [name, field] of Object.entries(fields)) {
      t.true(acceptsType(field, columns.get(name) ?? ''), `${layout.table}.${name}: zod ${field.def.type} vs ClickHouse ${columns.get(name)}`);
    }
  });
}

test('alerts: the zod schema and the table have the same columns with compatible types', async (t) => {
  const columns = await insertedColumns('alerts');
  const fields = AlertRowSchema.shape as Record<string, z.ZodType>;
  t.deepEqual([...columns.keys()].sort(), Object.keys(fields).sort());
  for (const [name, field] of Object.entries(fields)) t.true(acceptsType(field, columns.get(name) ?? ''), `alerts.${name}`);
});

// Tables written as JSON rows (the lock resolver's) or by materialized views: each column a field of the schema.
const JSON_ROW_TABLES: Array<[string, z.ZodObject]> = [
  ['tj_lock_episodes', TjLockEpisodeRowSchema], ['pg_lock_episodes', PgLockEpisodeRowSchema],
  ['tj_connection_events', TjConnectionEventRowSchema], ['tj_backend_events', TjBackendEventRowSchema],
  ['pg_blocked_sides', PgBlockedSidesRowSchema],
];
for (const [table, schema] of JSON_ROW_TABLES) {
  test(`${table}: the zod schema and the table have the same columns with compatible types`, async (t) => {
    const columns = await insertedColumns(table);
    const fields = schema.shape as Record<string, z.ZodType>;
    t.deepEqual([...columns.keys()].sort(), Object.keys(fields).sort());
    for (const [name, field] of Object.entries(fields)) t.true(acceptsType(field, columns.get(name) ?? ''), `${table}.${name}: zod ${field.def.type} vs ClickHouse ${columns.get(name)}`);
  });
}

test('a mapped TJ row passes its schema, is stored and reads back with its typed values', async (t) => {
  const text = "05:15.349002-15980,TLOCK,6,process=rphost,p:processName=BP30SQL,OSThread=7,t:clientID=55,t:connectID=17,SessionID=27,Usr=Иванов,Regions='Reference28054.REFLOCK,InfoRg20642.DIMS',Locks='Reference28054.REFLOCK Exclusive ID=28054:82b9',WaitConnections='18,19',Context='\nМодуль.А : 1 : X();\n\tМодуль.Б : 2 : Y();',Usr=Петров,Custom=1\n" +
    "00:00.172000-1003,DBPOSTGRS,4,process=rphost,dbpid=19753,Trans=1,Sql='SELECT 1 FROM tt12 WHERE x = $1',Prm=\"p_1: 'a'::mvarchar\",Rows=3,RowsAffected=-1,Memory=-8208\n";
  const p = createTjParser({ host: 'h1', source: 'tj', file: '/var/log/1c/rphost_1234/21102215.log', file_key: 'fk', offset: 0, hour: '21102215', tz: 'UTC' });
  const rows = p.push(Buffer.from(text)).events.map((e) => tjEventToRow(e));
  for (const row of rows) TjRowSchema.parse(row);
  await insertRows(TJ_EVENTS, rows);
  const rs = await store.client.query({
    query: "SELECT ts, process, pid, infobase, connect_id, user, regions, wait_connections, context_first, context_last, props, dbpid, trans, rows, rows_affected, memory, sql_hash != 0 AS hashed FROM tj_events WHERE file_key = 'fk' ORDER BY file_offset",
    format: 'JSONEachRow',
  });
  const [tlock, db] = await rs.json<Record<string, unknown>>();
  t.like(tlock, {
    ts: '2021-10-22 15:05:15.349002', process: 'rphost', pid: 1234, infobase: 'BP30SQL', connect_id: '17', user: 'Иванов',
    regions: ['Reference28054.REFLOCK', 'InfoRg20642.DIMS'], wait_connections: ['18', '19'],
    context_first: 'Модуль.А : 1 : X();', context_last: 'Модуль.Б : 2 : Y();',
    props: { process: 'rphost', 'Usr#2': 'Петров', Custom: '1' },
  });
  t.like(db, { dbpid: 19753, trans: 1, rows: '3', rows_affected: '-1', memory: '-8208', hashed: 1 });
});

test('mapped PostgreSQL rows pass their schemas, are stored and read back with their typed values', async (t) => {
  const log = [
    '2026-11-30 14:09:45.500 UTC [15932] LOG:  duration: 0.512 ms  statement: UPDATE accounts SET balance = 0 WHERE id = 1;',
    '2026-11-30 14:09:45.948 UTC [15937] LOG:  process 15937 still waiting for ShareLock on transaction 731 after 100.061 ms',
    '2026-11-30 14:09:45.948 UTC [15937] DETAIL:  Process holding the lock: 15932. Wait queue: 15937.',
    '2026-11-30 14:09:45.948 UTC [15937] CONTEXT:  while updating tuple (0,1) in relation "accounts"',
    '2026-11-30 14:09:45.948 UTC [15937] STATEMENT:  UPDATE accounts SET b = 1;',
    '2026-11-30 14:09:47.048 UTC [15937] LOG:  process 15937 acquired ShareLock on transaction 731 after 1199.185 ms',
    '2026-11-30 14:09:47.100 UTC [15940] LOG:  temporary file: path "base/pgsql_tmp/pgsql_tmp15940.0", size 1400000',
    '2026-11-30 14:09:47.100 UTC [15940] STATEMENT:  SELECT * FROM big ORDER BY 1;',
    '',
  ].join('\n');
  const p = createPgEpisodeStream(createPgParser({ host: 'h1', source: 'pg', file: '/log/postgresql.log', file_key: 'pk', offset: 0, format: 'stderr' }));
  const events = [...p.push(Buffer.from(log)).events, ...p.finish().events];
  const rows = events.map((e) => PgLogRowSchema.parse(pgEventToRow(e)));
  const waits = events.flatMap((e) => e.lock_episodes.map((ep) => PgLockWaitRowSchema.parse(pgEpisodeToRow(ep, e))));
  await insertRows(PG_LOG, rows);
  await insertRows(PG_LOCK_WAITS, waits);
  const rs = await store.client.query({
    query: "SELECT kind, pid, duration_ms, lock_phase, lock_holder_pids, lock_relation_name, temp_file_bytes, statement FROM pg_log WHERE file_key = 'pk' ORDER BY file_offset",
    format: 'JSONEachRow',
  });
  const got = await rs.json<Record<string, unknown>>();
  t.deepEqual(got.map((r) => r.kind), ['duration', 'lock_wait', 'lock_wait', 'temp_file']);
  t.like(got[0], { pid: 15932, duration_ms: 0.512 });
  t.like(got[1], { lock_phase: 'still_waiting', lock_holder_pids: [15932], lock_relation_name: 'accounts', statement: 'UPDATE accounts SET b = 1;' });
  t.like(got[3], { temp_file_bytes: '1400000' });
  const ws = await (await store.client.query({ query: "SELECT toString(ts_start) AS s, toString(ts_end) AS e, pid, outcome, wait_ms, holder_pids, holder_statements, file_offset, start_offset FROM pg_lock_waits WHERE file_key = 'pk'", format: 'JSONEachRow' })).json<Record<string, unknown>>();
  t.deepEqual(ws, [{
    s: '2026-11-30 14:09:45.848', e: '2026-11-30 14:09:47.048', pid: 15937, outcome: 'acquired', wait_ms: 1199.185,
    holder_pids: [15932], holder_statements: { 15932: ['UPDATE accounts SET balance = 0 WHERE id = 1;'] },
    file_offset: String(log.indexOf('2026-11-30 14:09:47.048')), start_offset: String(log.indexOf('2026-11-30 14:09:45.948')),
  }]);
});
