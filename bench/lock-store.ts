// A store shaped like an 11-hour load test of 30,000 users (issue #28 item 3), built through the engine's cheapest
// door: every row is made by the engine itself, `INSERT … SELECT … FROM numbers()` into tj_events, pg_lock_waits,
// pg_activity, pg_log and apdex_measurements, one slice of event time (10 minutes) per insert. The lock resolver then
// works every episode out as `perfpipe ingest`'s last step does (its time is a figure).
// How it differs from a store written through `perfpipe ingest` (docs/write-path.md):
// - no TJ text is read or parsed and no segment's RowBinary is sent: the engine generates the rows;
// - inserts are of one 10-minute slice (~1.5M TJ rows at 100M), each one block, so one part per table and per view
//   target, not one per segment of ~9,000 rows; no deduplication token (nothing is replayed);
// - the materialized views run exactly as on the write path (lock facts, episode rows, minute rollups), on those
//   big blocks: a rollup gets one row per key and slice, where ingest writes one per key and segment before merges;
// - no merges while it writes, then one `OPTIMIZE … FINAL` per table: one part per partition at the end, where a
//   long-running store holds a few parts per partition at various levels;
// - the resolver works every episode out once, at the end, in batches of BACKFILL_BATCH, not a second after each
//   arrives in batches of 500 (the rows are the same, bench/RESULTS.md).
// Build cost on this machine (bench/RESULTS.md, 2026-12-03): about 6 CPU s per slice of the 100M shape for the
// inserts (views about a third of it), plus the merge and the resolver.
//
// Proportions per hour for 30,000 users, scaled with the users: 6,000 managed-lock waits, 120 lock timeouts (the
// culprit's transaction goes on for 0.5–10 minutes after), 30 deadlocks, 1,200 PostgreSQL lock waits (1 % deadlocks,
// 2 % lock timeouts) with their pg_activity samples, 1,800 APDEX key-operation measurements per 1,000 users.
// Background work is operations of 12 TJ events (BeginTransaction, 3 TLOCKs, 6 DBPOSTGRS, CommitTransaction, CALL:
// DBPOSTGRS 50 %, TLOCK 25 %, SDBL 17 %, CALL 8 %, as a simulated run's mix), 1 % of them transactions of 1–10
// minutes. Connection numbers are reused: a user reconnects every 30 minutes and the ids wrap at 20,000 per infobase.
// For report sql and report errors: one operation in 400 ends in an EXCP instead of its CALL, one in 50,000 starts
// with a PROC (the platform's version); the server log has each PostgreSQL wait's lines (still waiting, acquired, the
// deadlock and lock-timeout errors), one statement in 100 operations over log_min_duration_statement, a unique
// violation per 2,000 operations, and a setting reloaded in the second half.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { openStore } from '../ingest/store/clickhouse.js';
import { migrate } from '../ingest/store/migrations.js';
import { startLockResolver } from '../ingest/locks/lock-resolver.js';
import { isMain } from './bench-paths.js';

export interface LockStoreShape {
  /** TJ events in all (lock episodes' events included). */
  events: number;
  users: number;
  hours: number;
  /** Unix s of the run's start. */
  start: number;
  seed: number;
  /** What the generator writes; a store built by an older one is built again. */
  generator: number;
}

/** 11 hours from 2026-12-01 07:00 UTC, seed 28: the shape for `events` TJ events of `users` users. */
export const lockStoreShape = (events: number, users: number): LockStoreShape => ({ events, users, hours: 11, start: Date.UTC(2026, 11, 1, 7) / 1000, seed: 28, generator: 2 });

export interface LockStoreCounts { tj_events: number; waits: number; timeouts: number; deadlocks: number; pg_waits: number; pg_samples: number; pg_log: number; excp: number; apdex: number }

const OPERATION_EVENTS = 12;
/** Per hour per 30,000 users. */
const PER_HOUR_30K = { waits: 6000, timeouts: 120, deadlocks: 30, pg: 1200 };
const SLICE_S = 600;

/** Where each kind's rows number their offsets (file_offset is unique per file_key). */
const KIND_OFFSET = { waits: 8e9, timeouts: 8.5e9, deadlocks: 8.8e9 };
/** TJ events a conflict of each kind writes (both sides). */
const CONFLICT_EVENTS = { waits: 7, timeouts: 8, deadlocks: 8, pg: 3 };

const CONTEXTS = [
  'Документ.РеализацияТоваровУслуг.Форма.ФормаДокумента : Провести', 'Документ.ПоступлениеТоваровУслуг.МодульОбъекта : ОбработкаПроведения',
  'Обработка.ЗакрытиеМесяца.Форма.Форма : ВыполнитьНаСервере', 'Справочник.Номенклатура.Форма.ФормаЭлемента : Записать',
  'Документ.ЗаказКлиента.Форма.ФормаДокумента : Записать', 'РегистрНакопления.ТоварыНаСкладах.МодульНабораЗаписей : ПередЗаписью',
  'ОбщийМодуль.ЦенообразованиеСервер.Модуль : РассчитатьЦены', 'Документ.ПеремещениеТоваров.МодульОбъекта : ОбработкаПроведения',
];
const ctx = (expr: string): string => `[${CONTEXTS.map((c) => `'${c}'`).join(', ')}][1 + (${expr}) % ${CONTEXTS.length}]`;

/** Columns every generated TJ row fills; the rest take their defaults. */
const TJ_COLUMNS = 'ts, ts_start, duration_us, event, depth, host, process, pid, infobase, connect_id, session_id, user, context, context_first, context_last, dbms, database, dbpid, func, sql, sql_hash, regions, locks, wait_connections, deadlock_intersections, exception, descr, props, file, file_key, file_offset';

/** Shared expressions of one generated TJ row from (t, conn, user_n, ib, dbpid, ev, dur, func, item, waits, edges, offset). */
const TJ_ROW = `
    t AS ts, t - toIntervalMicrosecond(dur) AS ts_start, dur AS duration_us, ev AS event, 4 AS depth, 'app1' AS host, 'rphost' AS process,
    toUInt32(1000 + user_n % 300) AS pid, concat('erp', toString(ib)) AS infobase, conn AS connect_id, toUInt64(user_n) AS session_id,
    concat('Пользователь ', toString(user_n)) AS user, ${ctx('ctx_n')} AS context, context AS context_first, context AS context_last,
    if(ev = 'DBPOSTGRS', 'DBPOSTGRS', '') AS dbms, if(ev = 'DBPOSTGRS', 'erp', '') AS database, if(ev = 'DBPOSTGRS', dbpid, 0) AS dbpid, func,
    if(ev = 'DBPOSTGRS', concat('UPDATE _AccumRg', toString(31000 + ctx_n % 40), ' SET _Fld1 = $1 WHERE _IDRRef = $2'), '') AS sql,
    if(ev = 'DBPOSTGRS', cityHash64(sql), 0) AS sql_hash,
    if(ev = 'TLOCK', [splitByChar(' ', item)[1]], []) AS regions, if(ev = 'TLOCK', item, '') AS locks,
    waits AS wait_connections, edges AS deadlock_intersections,
    if(ev = 'EXCP', ['DataBaseException', 'ScriptException', 'NetworkException'][1 + ctx_n % 3], '') AS exception,
    if(ev = 'EXCP', concat('src\\\\VResultImpl.cpp(1129):\\n', lower(hex(h)), ': Ошибка при выполнении операции ', toString(ctx_n % 7)), '') AS descr,
    if(ev = 'PROC', map('Txt', 'Server started (8.3.24.1691)'), map()) AS props,
    concat('/bench/rphost_', toString(1000 + user_n % 300), '/tj.log') AS file, concat('bench-', toString(user_n % 300)) AS file_key, offset AS file_offset`;

/** A user's connection at an instant: reconnects every 30 minutes, ids wrap at 20,000 (reused by others later). */
const CONN = (user: string, t: string) => `toUInt64((intDiv(${user}, 3) * 7 + intDiv(toUnixTimestamp(${t}), 1800) * 7919) % 20000 + 1)`;
const DBPID = (user: string, t: string) => `toUInt32(10000 + cityHash64(${user}, intDiv(toUnixTimestamp(${t}), 1800)) % 4000000)`;

/** Background operations of the slice [from, from + SLICE_S): `n` of them, spread evenly, users at random. */
export function operationsSql(n: number, from: number, base: number, shape: LockStoreShape): string {
  const stepUs = Math.floor((SLICE_S * 1e6) / n);
  return `INSERT INTO tj_events (${TJ_COLUMNS})
SELECT ${TJ_ROW}
FROM
(
    SELECT
        cityHash64(${base} + number, ${shape.seed}) AS h, h % ${shape.users} AS user_n, user_n % 3 AS ib, bitShiftRight(h, 20) % 1000 AS ctx_n,
        toDateTime64(${from}, 6, 'UTC') + toIntervalMicrosecond(number * ${stepUs} + bitShiftRight(h, 32) % ${stepUs}) AS t0,
        ${CONN('user_n', 't0')} AS conn, ${DBPID('user_n', 't0')} AS dbpid,
        -- 1 % of the operations keep their transaction open for 1–10 minutes.
        if(h % 100 = 0, 60000000 + bitShiftRight(h, 8) % 540000000, 50000 + bitShiftRight(h, 8) % 1950000) AS op_us,
        concat('AccumRg', toString(31000 + bitShiftRight(h, 12) % 40), '.DIMS Exclusive Fld1=', toString(bitShiftRight(h, 24) % 100000)) AS op_item,
        arrayJoin(range(${OPERATION_EVENTS})) AS i,
        multiIf(i = 0 AND h % 50000 = 7, 'PROC', i = 0, 'SDBL', i IN (1, 5, 9), 'TLOCK', i = 10, 'SDBL', i = 11 AND h % 400 = 3, 'EXCP', i = 11, 'CALL', 'DBPOSTGRS') AS ev,
        multiIf(ev = 'PROC', '', i = 0, 'BeginTransaction', i = 10, 'CommitTransaction', '') AS func,
        t0 + toIntervalMicrosecond(if(i >= 10, op_us + i, intDiv(op_us * i, 11))) AS t,
        toUInt64(multiIf(ev = 'CALL', op_us, ev = 'TLOCK', 5 + h % 20, ev = 'DBPOSTGRS', 300 + bitShiftRight(h, 4) % 3000, 10)) AS dur,
        op_item AS item, CAST([] AS Array(UInt64)) AS waits, '' AS edges, (${base} + number) * 16 + i AS offset
    FROM numbers(${n})
)`;
}

/**
 * The lock conflicts of the slice: `kind` picks the pattern, both sides' events (docs/tj-format.md §5): the culprit's
 * transaction and granted TLOCK, the victim's TLOCK that waited (and its TTIMEOUT), or a two-connection deadlock.
 * Each row of the pattern is (µs after t0, event, side 0 culprit / 1 victim, func, duration µs, victim waits on the other).
 */
function conflictsSql(kind: 'waits' | 'timeouts' | 'deadlocks', n: number, from: number, base: number, shape: LockStoreShape): string {
  const stepUs = Math.floor((SLICE_S * 1e6) / n);
  // w: the wait; hold: how long the culprit's transaction goes on after the timeout.
  const patterns = {
    waits: `[(0, 'SDBL', 0, 'BeginTransaction', 10, 0), (10000, 'TLOCK', 0, '', 15, 0), (20000, 'DBPOSTGRS', 0, '', 900, 0),
             (490000, 'SDBL', 1, 'BeginTransaction', 10, 0), (499000 + w, 'SDBL', 0, 'CommitTransaction', 10, 0),
             (500000 + w, 'TLOCK', 1, '', w, 1), (600000 + w, 'SDBL', 1, 'CommitTransaction', 10, 0)]`,
    timeouts: `[(0, 'SDBL', 0, 'BeginTransaction', 10, 0), (10000, 'TLOCK', 0, '', 15, 0), (20000, 'DBPOSTGRS', 0, '', 900, 0),
                (490000, 'SDBL', 1, 'BeginTransaction', 10, 0), (20500000, 'TLOCK', 1, '', 20000000, 1), (20500100, 'TTIMEOUT', 1, '', 0, 1),
                (20600000, 'SDBL', 1, 'RollbackTransaction', 10, 0), (20500000 + hold, 'SDBL', 0, 'CommitTransaction', 10, 0)]`,
    deadlocks: `[(0, 'SDBL', 1, 'BeginTransaction', 10, 0), (10000, 'TLOCK', 1, '', 15, 0), (100000, 'SDBL', 0, 'BeginTransaction', 10, 0),
                 (110000, 'TLOCK', 0, '', 15, 0), (300000, 'TDEADLOCK', 1, '', 0, 0), (310000, 'SDBL', 1, 'RollbackTransaction', 10, 0),
                 (320000, 'TLOCK', 0, '', 200000, 1), (400000, 'SDBL', 0, 'CommitTransaction', 10, 0)]`,
  };
  return `INSERT INTO tj_events (${TJ_COLUMNS})
SELECT ${TJ_ROW}
FROM
(
    SELECT
        cityHash64(${base} + number, ${shape.seed}, '${kind}') AS h, toDateTime64(${from}, 6, 'UTC') + toIntervalMicrosecond(number * ${stepUs} + bitShiftRight(h, 32) % ${stepUs}) AS t0,
        h % ${shape.users} AS culprit_n, (culprit_n + 3 * (1 + bitShiftRight(h, 8) % 97)) % ${shape.users - (shape.users % 3)} AS victim_n,
        toUInt64(1200000 + bitShiftRight(h, 16) % 6800000) AS w, toUInt64(500000 + bitShiftRight(h, 24) % 600000000) AS hold,
        concat('AccumRg', toString(31000 + bitShiftRight(h, 40) % 40), '.DIMS') AS space,
        concat(space, ' Exclusive Fld1=', toString(bitShiftRight(h, 12) % 100000)) AS item_a, concat(space, ' Exclusive Fld1=', toString(100000 + bitShiftRight(h, 12) % 100000)) AS item_b,
        ${CONN('culprit_n', 't0')} AS conn_c, ${CONN('victim_n', 't0')} AS conn_v,
        arrayJoin(${patterns[kind]}) AS p,
        p.3 = 1 AS victim, if(victim, victim_n, culprit_n) AS user_n, user_n % 3 AS ib, bitShiftRight(h, 20) % 1000 + p.3 AS ctx_n,
        if(victim, conn_v, conn_c) AS conn, ${DBPID('user_n', 't0')} AS dbpid,
        t0 + toIntervalMicrosecond(p.1) AS t, p.2 AS ev, p.4 AS func, toUInt64(p.5) AS dur,
        -- A deadlock's victim holds item_a and wants item_b; elsewhere both sides name item_a.
        if('${kind}' = 'deadlocks' AND NOT victim, item_b, item_a) AS item_held, if(p.6 = 1 AND '${kind}' = 'deadlocks', item_a, item_held) AS item,
        if(p.6 = 1, [if(victim, conn_c, conn_v)], CAST([] AS Array(UInt64))) AS waits,
        if(ev = 'TDEADLOCK', concat(toString(conn_v), ' ', toString(conn_c), ' ', item_b, ',', toString(conn_c), ' ', toString(conn_v), ' ', item_a), '') AS edges_raw,
        -- Edges are '<waiter> <holder> <space> <mode> <fields>', comma-separated (§5.3).
        edges_raw AS edges, ${KIND_OFFSET[kind]} + (${base} + number) * 16 + arrayFirstIndex(x -> x = p, ${patterns[kind]}) AS offset
    FROM numbers(${n})
)`;
}

/** PostgreSQL lock waits of the slice with both backends' TJ events, and pg_activity's samples of each wait. */
function pgSql(n: number, from: number, base: number, shape: LockStoreShape): string[] {
  const stepUs = Math.floor((SLICE_S * 1e6) / n);
  const episodes = `
        number, cityHash64(${base} + number, ${shape.seed}, 'pg') AS h, toDateTime64(${from}, 6, 'UTC') + toIntervalMicrosecond(number * ${stepUs} + bitShiftRight(h, 32) % ${stepUs}) AS t0,
        h % ${shape.users} AS holder_n, (holder_n + 3 * (1 + bitShiftRight(h, 8) % 97)) % ${shape.users - (shape.users % 3)} AS waiter_n,
        ${DBPID('holder_n', 't0')} AS holder_pid, ${DBPID('waiter_n', 't0')} AS waiter_pid,
        t0 + toIntervalMicrosecond(200000) AS started, started + toIntervalMicrosecond(1300000 + bitShiftRight(h, 16) % 6700000) AS ended,
        multiIf(h % 100 = 0, 'deadlock', h % 100 < 3, 'lock_timeout', 'acquired') AS outcome`;
  return [
    `INSERT INTO pg_lock_waits (ts_start, ts_end, pid, mode, object, object_kind, outcome, wait_ms, holder_pids, queue_pids, statement, user, database, application, session_id, host, file, file_key, file_offset, start_offset)
SELECT started, ended, waiter_pid, 'ShareLock', concat('transaction ', toString(h % 100000000)), 'transaction', outcome,
    if(outcome = 'acquired', dateDiff('microsecond', started, ended) / 1000, NULL), [holder_pid], [waiter_pid],
    'UPDATE _AccumRg31253 SET _Fld1 = $1 WHERE _IDRRef = $2', 'usr1cv8', 'erp', '1CV8', toString(waiter_pid), 'db1',
    '/pg/postgresql.log', 'pg-bench', (${base} + number) * 2 + 1, (${base} + number) * 2
FROM (SELECT ${episodes} FROM numbers(${n}))`,
    `INSERT INTO tj_events (${TJ_COLUMNS})
SELECT ${TJ_ROW}
FROM
(
    SELECT ${episodes},
        arrayJoin([(0, 0), (1, 1), (2, 0)]) AS p, p.2 = 1 AS waiter, if(waiter, waiter_n, holder_n) AS user_n, user_n % 3 AS ib,
        bitShiftRight(h, 20) % 1000 + p.2 AS ctx_n, ${CONN('user_n', 't0')} AS conn, if(waiter, waiter_pid, holder_pid) AS dbpid,
        multiIf(p.1 = 0, t0, p.1 = 1, ended + toIntervalMicrosecond(800), ended + toIntervalMicrosecond(2000)) AS t, 'DBPOSTGRS' AS ev, '' AS func,
        toUInt64(if(waiter, dateDiff('microsecond', started, t), 900)) AS dur, '' AS item, CAST([] AS Array(UInt64)) AS waits, '' AS edges,
        9000000000 + (${base} + number) * 4 + p.1 AS offset
    FROM numbers(${n})
)`,
    // One sample a second while the wait lasts: the waiter blocked by the holder, the holder idle in its transaction.
    `INSERT INTO pg_activity (ts, host, server, interval_ms, pid, database, user, application, client_addr, backend_type, state, wait_event_type, wait_event, xact_start, query_start, state_change, backend_xid, query_id, query, blocking_pids)
SELECT toDateTime64(s, 3, 'UTC'), 'db1', 'main', 1000, if(w, waiter_pid, holder_pid), 'erp', 'usr1cv8', '1CV8', '10.0.0.7', 'client backend',
    if(w, 'active', 'idle in transaction'), if(w, 'Lock', 'Client'), if(w, 'transactionid', 'ClientRead'), toDateTime64(t0, 3, 'UTC'),
    toDateTime64(if(w, started, t0), 3, 'UTC'), NULL, NULL, '', if(w, 'UPDATE _AccumRg31253 SET _Fld1 = $1 WHERE _IDRRef = $2', 'COMMIT'),
    if(w, [holder_pid], CAST([] AS Array(UInt32)))
FROM
(
    SELECT ${episodes},
        arrayJoin(arrayMap(i -> toStartOfSecond(started) + toIntervalSecond(i + 1), range(toUInt64(dateDiff('second', started, ended))))) AS s,
        arrayJoin([true, false]) AS w
    FROM numbers(${n})
)`,
    // The server log's lines of each wait (log_lock_waits, deadlock_timeout 1 s): still waiting, then acquired, or the
    // deadlock's or the lock timeout's error.
    `INSERT INTO pg_log (${PG_LOG_COLUMNS})
SELECT ${PG_LOG_ROW}
FROM
(
    SELECT ${episodes},
        arrayJoin([1, 2]) AS line, waiter_pid AS pid, concat(toString(waiter_pid), '-', toString(h % 1000)) AS session,
        if(line = 1, started + toIntervalMillisecond(1000), ended) AS t,
        multiIf(line = 1, 'lock_wait', outcome = 'acquired', 'lock_wait', outcome = 'deadlock', 'deadlock', 'lock_timeout') AS kind,
        if(line = 1 OR outcome = 'acquired', 'LOG', 'ERROR') AS severity,
        multiIf(line = 1 OR outcome = 'acquired', '', outcome = 'deadlock', '40P01', '55P03') AS sqlstate,
        multiIf(line = 1, concat('process ', toString(waiter_pid), ' still waiting for ShareLock on transaction ', toString(h % 100000000), ' after 1000.000 ms'),
            outcome = 'acquired', concat('process ', toString(waiter_pid), ' acquired ShareLock on transaction ', toString(h % 100000000), ' after ', toString(dateDiff('millisecond', started, ended)), '.000 ms'),
            outcome = 'deadlock', 'deadlock detected', 'canceling statement due to lock timeout') AS message,
        'UPDATE _AccumRg31253 SET _Fld1 = $1 WHERE _IDRRef = $2' AS statement, NULL AS duration, 8000000000 + (${base} + number) * 4 + line AS offset
    FROM numbers(${n})
)`,
  ];
}

const PG_LOG_COLUMNS = 'ts, kind, severity, sqlstate, pid, session_id, user, database, application, message, statement, duration_ms, host, file, file_key, file_offset';
/** A pg_log row from (t, kind, severity, sqlstate, pid, session, message, statement, duration, offset). */
const PG_LOG_ROW = `toDateTime64(t, 3, 'UTC'), kind, severity, sqlstate, pid, session, 'usr1cv8', 'erp', '1CV8', message, statement, duration, 'db1',
    '/pg/postgresql.log', 'pg-bench', offset`;

/**
 * The server log's own lines of the slice's background operations: one statement in 100 over
 * log_min_duration_statement, a unique violation per 2,000, and (`reload`) work_mem changed by a reload.
 */
function pgLogSql(n: number, from: number, base: number, shape: LockStoreShape, reload: boolean): string {
  const stepUs = Math.floor((SLICE_S * 1e6) / n);
  return `INSERT INTO pg_log (${PG_LOG_COLUMNS})
SELECT ${PG_LOG_ROW}
FROM
(
    SELECT
        cityHash64(${base} + number, ${shape.seed}) AS h, h % ${shape.users} AS user_n,
        toDateTime64(${from}, 6, 'UTC') + toIntervalMicrosecond(number * ${stepUs} + bitShiftRight(h, 32) % ${stepUs}) AS t0,
        ${DBPID('user_n', 't0')} AS pid, concat(toString(pid), '-', toString(user_n)) AS session, t0 + toIntervalMillisecond(300) AS t,
        h % 2000 = 11 AS failed, if(failed, 'error', 'duration') AS kind, if(failed, 'ERROR', 'LOG') AS severity, if(failed, '23505', '') AS sqlstate,
        if(failed, concat('duplicate key value violates unique constraint "_accumrg', toString(31000 + bitShiftRight(h, 12) % 40), '_bydims"'),
            concat('duration: ', toString(1000 + bitShiftRight(h, 4) % 9000), '.123 ms  execute <unnamed>: UPDATE _AccumRg', toString(31000 + bitShiftRight(h, 12) % 40), ' SET _Fld1 = $1')) AS message,
        '' AS statement, if(failed, NULL, toFloat64(1000 + bitShiftRight(h, 4) % 9000)) AS duration, 7000000000 + (${base} + number) AS offset
    FROM numbers(${n})
    WHERE h % 100 = 0 OR h % 2000 = 11
)${reload ? `
UNION ALL
SELECT toDateTime64(${from + 5}, 3, 'UTC'), 'other', 'LOG', '', 1, '', '', '', '', 'parameter "work_mem" changed to "64MB"', '', NULL, 'db1', '/pg/postgresql.log', 'pg-bench', 6000000000 + ${base}` : ''}`;
}

function apdexSql(n: number, from: number, base: number, shape: LockStoreShape): string {
  const stepUs = Math.floor((SLICE_S * 1e6) / n);
  return `INSERT INTO apdex_measurements (ts_start, duration_us, operation, operation_name, operation_uid, target_s, priority, min_level, long, comment, weight, user, session_number, saved_at, failed, host, file, file_key, file_offset)
SELECT toDateTime64(${from}, 3, 'UTC') + toIntervalMicrosecond(number * ${stepUs}), 200000 + bitShiftRight(h, 8) % 6000000,
    concat('КлючеваяОперация', toString(h % 15)), concat('Ключевая операция ', toString(h % 15)), toString(h % 15), 1.5 + (h % 15) / 5, 1, 0.85, false, '', 1,
    concat('Пользователь ', toString(h % ${shape.users})), h % ${shape.users}, NULL, false, 'loader', '/apdex/export.xml', 'apdex-bench', ${base} + number
FROM (SELECT number, cityHash64(${base} + number, ${shape.seed}, 'apdex') AS h FROM numbers(${n}))`;
}

const hourly = (perHour30k: number, shape: LockStoreShape): number => Math.max(1, Math.round((perHour30k * shape.users) / 30_000 * (SLICE_S / 3600)));

/**
 * Writes the whole store slice by slice (10 minutes of event time per insert of each kind) and the two named runs
 * (`baseline`: the first half, `candidate`: the second). `progress` hears each slice's end.
 */
export async function buildLockStore(client: ClickHouseClient, shape: LockStoreShape, progress?: (done: number, of: number) => void, slicesToBuild?: number): Promise<LockStoreCounts> {
  const slices = Math.round((shape.hours * 3600) / SLICE_S);
  const per = {
    waits: hourly(PER_HOUR_30K.waits, shape), timeouts: hourly(PER_HOUR_30K.timeouts, shape), deadlocks: hourly(PER_HOUR_30K.deadlocks, shape),
    pg: hourly(PER_HOUR_30K.pg, shape), apdex: hourly((1800 * shape.users) / 1000, shape),
  };
  const lockEvents = per.waits * CONFLICT_EVENTS.waits + per.timeouts * CONFLICT_EVENTS.timeouts + per.deadlocks * CONFLICT_EVENTS.deadlocks + per.pg * CONFLICT_EVENTS.pg;
  const operations = Math.max(1, Math.round((shape.events / slices - lockEvents) / OPERATION_EVENTS));
  // One block per statement (one part per table and view target, not six), generated in blocks of 65,536 rows.
  const settings = { max_insert_threads: 1, max_threads: 2, max_block_size: '65536', min_insert_block_size_rows: '2000000', min_insert_block_size_bytes: String(2 ** 30) } as unknown as ClickHouseSettings;
  const run = async (query: string) => {
    const t = performance.now();
    await client.command({ query, clickhouse_settings: settings });
    if (process.env.LOCK_STORE_TIMING) process.stderr.write(`${((performance.now() - t) / 1000).toFixed(2)} s ${query.slice(0, 60).replace(/\s+/g, ' ')}\n`);
  };
  // No merges while it writes, then one merge per table (OPTIMIZE … FINAL): each row is rewritten once, not once per
  // level of the merge tree (the 100M store's merges cost more CPU than its inserts, bench/RESULTS.md).
  await client.command({ query: 'SYSTEM STOP MERGES' });
  for (let s = 0; s < (slicesToBuild ?? slices); s++) {
    const from = shape.start + s * SLICE_S;
    await run(operationsSql(operations, from, s * operations, shape));
    await run(pgLogSql(operations, from, s * operations, shape, s === Math.floor(slices / 2) + 3));
    for (const kind of ['waits', 'timeouts', 'deadlocks'] as const) await run(conflictsSql(kind, per[kind], from, s * per[kind], shape));
    for (const q of pgSql(per.pg, from, s * per.pg, shape)) await run(q);
    await run(apdexSql(per.apdex, from, s * per.apdex, shape));
    progress?.(s + 1, slices);
  }
  const end = shape.start + slices * SLICE_S;
  const half = shape.start + Math.floor(slices / 2) * SLICE_S;
  await client.command({ query: `INSERT INTO runs (name, started_at, stopped_at, updated_at) VALUES ('baseline', toDateTime64(${shape.start}, 3, 'UTC'), toDateTime64(${half}, 3, 'UTC'), now64(3)), ('candidate', toDateTime64(${half}, 3, 'UTC'), toDateTime64(${end}, 3, 'UTC'), now64(3))` });
  // One table at a time: with merges started everywhere, the others' background merges (a level of the tree each)
  // ran beside the first OPTIMIZE and were then done again by their own.
  const tables = await client.query({ query: "SELECT name FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree' AND total_rows > 0 ORDER BY total_rows DESC", format: 'JSONEachRow' });
  for (const { name } of await tables.json<{ name: string }>()) {
    const t = performance.now();
    await client.command({ query: `SYSTEM START MERGES ${name}` });
    await client.command({ query: `OPTIMIZE TABLE ${name} FINAL`, clickhouse_settings: { alter_sync: '2' } as unknown as ClickHouseSettings });
    if (process.env.LOCK_STORE_TIMING) process.stderr.write(`${((performance.now() - t) / 1000).toFixed(1)} s OPTIMIZE TABLE ${name} FINAL\n`);
  }
  await client.command({ query: 'SYSTEM START MERGES' });
  return countLockStore(client);
}

/** What a built store holds, counted. */
export async function countLockStore(client: ClickHouseClient): Promise<LockStoreCounts> {
  const count = async (sql: string): Promise<number> => Number(Object.values((await (await client.query({ query: sql, format: 'JSONEachRow' })).json<Record<string, unknown>>())[0] ?? {})[0]);
  return {
    tj_events: await count('SELECT count() FROM tj_events'),
    waits: await count("SELECT count() FROM tj_events WHERE event = 'TLOCK' AND notEmpty(wait_connections)"),
    timeouts: await count("SELECT count() FROM tj_events WHERE event = 'TTIMEOUT'"),
    deadlocks: await count("SELECT count() FROM tj_events WHERE event = 'TDEADLOCK'"),
    pg_waits: await count('SELECT count() FROM pg_lock_waits'),
    pg_samples: await count('SELECT count() FROM pg_activity'),
    pg_log: await count('SELECT count() FROM pg_log'),
    excp: await count("SELECT count() FROM tj_events WHERE event = 'EXCP'"),
    apdex: await count('SELECT count() FROM apdex_measurements'),
  };
}

/** A built store's description, written beside it: the bench reuses a store built for the same shape. */
export interface BuiltLockStore { shape: LockStoreShape; counts: LockStoreCounts; build_s: number; resolve_s: number; resolved: number }

/**
 * Episodes per resolver query in the build's backfill: on three slices of the 100M shape (4,350 episodes), 7.0 CPU s
 * at 4,000 against 18.0 at the resolver's default 500, the same rows (bench/RESULTS.md). A bench setting: `ingest`
 * keeps the resolver's default.
 */
const BACKFILL_BATCH = 4000;

/** The inserts' part of a build, written before the resolver starts: a resolver stopped midway can be run again alone. */
const BUILD_FILE = 'lock-store.build.json';

/**
 * Builds the store in `data` (fresh) and works every lock episode out as `ingest`'s last step does, in this process
 * (the embedded engine holds one data directory per process: the bench runs this as a child). `resolveOnly` skips
 * the build of a store whose inserts are done (its BUILD_FILE) and works out what is left: the resolver begins with
 * every episode still pending or partial. `batch`: episodes per resolver query (BACKFILL_BATCH).
 */
export async function buildAndResolve(
  data: string, shape: LockStoreShape, log: (line: string) => void = () => {}, o: { resolveOnly?: boolean; batch?: number; buildS?: number } = {},
): Promise<BuiltLockStore> {
  if (!o.resolveOnly) rmSync(data, { recursive: true, force: true });
  const store = await openStore({ data });
  try {
    await migrate(store);
    let t0 = performance.now();
    let inserted: { counts: LockStoreCounts; build_s: number };
    if (o.resolveOnly) {
      // A store whose build wrote no BUILD_FILE (an older build stopped in its resolver): counted now, build time given.
      inserted = existsSync(join(data, BUILD_FILE)) ? JSON.parse(readFileSync(join(data, BUILD_FILE), 'utf8')) as typeof inserted
        : { counts: await countLockStore(store.client), build_s: o.buildS ?? Number.NaN };
    } else {
      const counts = await buildLockStore(store.client, shape, (done, of) => { if (done % 6 === 0 || done === of) log(`slice ${done}/${of}, ${((performance.now() - t0) / 1000).toFixed(0)} s`); });
      inserted = { counts, build_s: (performance.now() - t0) / 1000 };
      writeFileSync(join(data, BUILD_FILE), JSON.stringify(inserted));
    }
    t0 = performance.now();
    const resolver = startLockResolver({ client: store.client, mode: 'backfill', batch: o.batch ?? BACKFILL_BATCH, warn: (m, e) => log(e ? `${m}: ${e.message}` : m) });
    await resolver.settleAll();
    await resolver.stop();
    const built: BuiltLockStore = { shape, ...inserted, resolve_s: (performance.now() - t0) / 1000, resolved: resolver.stats.resolved };
    writeFileSync(join(data, 'lock-store.json'), JSON.stringify(built));
    return built;
  } finally {
    await store.close();
  }
}

/** The built store in `data`, if it was built for `shape`. */
export function builtStore(data: string, shape: LockStoreShape): BuiltLockStore | null {
  try {
    const built = JSON.parse(readFileSync(join(data, 'lock-store.json'), 'utf8')) as BuiltLockStore;
    return JSON.stringify(built.shape) === JSON.stringify(shape) ? built : null;
  } catch {
    return null;
  }
}

// `node dist/bench/lock-store.js DIR EVENTS USERS [--resolve-only] [--batch N]`: builds one store (the bench's child
// process), prints its description.
if (isMain(import.meta.url)) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'resolve-only': { type: 'boolean' }, batch: { type: 'string' }, 'build-s': { type: 'string' } } });
  const [data, events, users] = positionals;
  const shape = lockStoreShape(Number(events), Number(users));
  const built = await buildAndResolve(data!, shape, (line) => process.stderr.write(`${line}\n`), {
    resolveOnly: values['resolve-only'] === true, ...(values.batch ? { batch: Number(values.batch) } : {}),
    ...(values['build-s'] ? { buildS: Number(values['build-s']) } : {}),
  });
  process.stdout.write(`${JSON.stringify(built)}\n`);
}
