// One lock conflict between two connections of one infobase, written from both sides so that every file agrees:
// the victim's and the culprit's TJ operations (TLOCK/TTIMEOUT/TDEADLOCK per docs/tj-format.md §5, or the blocked
// DBPOSTGRS statement), the PostgreSQL lock-wait lines of their backends (dbpid = PostgreSQL pid, docs/pg-format.md §7),
// and what perfpipe's reports must find (load-expected.ts).
//
// Managed (1C-level) conflicts never reach PostgreSQL: the lock manager holds the victim before any SQL runs. Row
// conflicts are the other way round: no TLOCK waits, the victim's UPDATE blocks on the culprit's transaction id.
import type { Prng } from './prng.js';
import type { SimSession } from './tj-session.js';
import { lockItem } from './tj-scenarios.js';
import { EXCEPTION_SOURCES, OPERATIONS, type Operation } from './tj-vocabulary.js';
import type { SimEvent } from './tj-scenarios.js';
import { createOpBuilder, updateEvent, updateSql, type FixedOp, type OpBuilder } from './load-op.js';
import type { PgLogEntry } from './pg-log-writer.js';
import { contextFirst, type ExpectedLocks } from './load-expected.js';
import { isoUs } from './iso-us.js';

export const CONFLICT_KINDS = ['managed_wait', 'pg_wait', 'managed_timeout', 'managed_deadlock', 'pg_deadlock'] as const;
export type ConflictKind = (typeof CONFLICT_KINDS)[number];

/** Longest time a conflict of each kind keeps its two sessions busy, µs (the managed timeout is 20 s, §5.2). */
export const CONFLICT_SPAN_US: Record<ConflictKind, number> = {
  managed_wait: 11_000_000, pg_wait: 11_000_000, managed_timeout: 31_000_000, managed_deadlock: 4_000_000, pg_deadlock: 5_000_000,
};

export interface ConflictContext {
  rng: Prng;
  /** PostgreSQL transaction ids, handed out in order as transactions write their first row. */
  nextXid(): number;
  expected: ExpectedLocks;
}

export interface Conflict {
  ops: FixedOp[];
  pg: PgLogEntry[];
}

/** deadlock_timeout = 1 s: PostgreSQL logs a wait once it has lasted this long (docs/pg-format.md §7, lock waits). */
const DEADLOCK_TIMEOUT_US = 1_000_000;

/** First context line of the culprit's last event before `atUs`: how the reports name what the culprit was doing. */
function contextBefore(op: FixedOp, atUs: number): string {
  let found = '';
  for (const ev of op.events) {
    const context = ev.props.find((p) => p[0] === 'Context')?.[1];
    if (ev.end_us <= atUs && context) found = contextFirst(context);
  }
  return found;
}

const ms3 = (us: number): string => (us / 1000).toFixed(3);

/**
 * `report locks` rounds waits with ClickHouse's round(x, 1), which breaks ties to even on floats: a duration that
 * ends in exactly 50 µs could go either way, so such durations are moved by 1 µs.
 */
const noTie = (us: number): number => (us % 100 === 50 ? us + 1 : us);
const waitMs = (us: number): number => Math.round(us / 100) / 10;

function pgEntry(at: number, s: SimSession, lines: PgLogEntry['lines']): PgLogEntry {
  return { at_us: at, pid: s.dbpid, session: true, user: 'usr1cv8', database: s.infobase, application: '1CV8', session_start_s: 1_796_000_000, lines };
}

function excp(rng: Prng, b: OpBuilder, exception: string, reason: string): void {
  const guid = `${rng.hex(8)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(12)}`;
  b.emit('EXCP', 4, 0, [['Exception', exception], ['Descr', `${EXCEPTION_SOURCES[2]}:\n${guid}: ${reason}`], ['Context', b.context]]);
}

const TIMEOUT_TEXT = 'Конфликт блокировок при выполнении транзакции:\nПревышено максимальное время ожидания предоставления блокировки';
const DEADLOCK_TEXT = 'Конфликт блокировок при выполнении транзакции:\nРазделяемая блокировка не может быть повышена до исключительной (deadlock)';

/** The culprit takes a managed lock and holds it to its commit; the victim asks for it meanwhile and waits or gives up. */
function managed(ctx: ConflictContext, t0: number, culprit: SimSession, victim: SimSession, timeout: boolean): Conflict {
  const { rng } = ctx;
  const op = rng.pick(OPERATIONS);
  const lock = op.locks[0]!;
  const item = lockItem(rng, lock, 'Exclusive');
  const c = createOpBuilder(rng, culprit, op, t0);
  const begin = c.sdbl('BeginTransaction');
  const held = c.emit('TLOCK', 5, rng.int(3, 25), [...c.db, ['Regions', lock.space], ['Locks', item], ['WaitConnections', ''], ['Context', c.context]]);
  updateEvent(c, culprit, op.tables[0]!, rng.int(300, 3000), undefined, rng.hex(32));
  const v = createOpBuilder(rng, victim, op, c.cursor + rng.int(100_000, 600_000));
  v.sdbl('BeginTransaction');
  const requested = v.cursor;
  // A wait ends when the culprit's commit releases the lock; a timeout when the 20 s infobase lock timeout passes.
  const wait = timeout ? noTie(20_000_000 + rng.int(0, 40_000)) : noTie(rng.int(1_200_000, 8_000_000));
  c.cursor = Math.max(c.cursor, requested + wait + (timeout ? rng.int(500_000, 5_000_000) : -rng.int(500, 2_000)));
  const commit = c.sdbl('CommitTransaction');
  const culprits = [{
    connect_id: culprit.connectId, user: culprit.user, context: '',
    tx_start: isoUs(begin.end_us), tx_end: isoUs(commit.end_us), tx_outcome: 'commit' as const,
    lock: { ts: isoUs(held.end_us), region: lock.space, mode: 'Exclusive', lock: item.slice(`${lock.space} Exclusive`.length).trim() },
  }];
  const tlock = v.emit('TLOCK', 5, wait, [...v.db, ['Regions', lock.space], ['Locks', item], ['WaitConnections', String(culprit.connectId)], ['Context', v.context]], requested);
  ctx.expected.waits.push({ ts: isoUs(tlock.end_us), infobase: victim.infobase, connect_id: victim.connectId, culprit_connect_ids: [culprit.connectId], wait_ms: waitMs(wait), culprits });
  if (timeout) {
    const tt = v.emit('TTIMEOUT', 5, 0, [['WaitConnections', String(culprit.connectId)], ['Context', v.context]]);
    excp(rng, v, 'TLockException', TIMEOUT_TEXT);
    v.sdbl('RollbackTransaction');
    ctx.expected.timeouts.push({
      ts: isoUs(tt.end_us), infobase: victim.infobase, victim_connect_id: victim.connectId, victim_user: victim.user,
      victim_context: contextFirst(v.context), culprit_connect_ids: [culprit.connectId], culprits,
    });
  } else {
    updateEvent(v, victim, op.tables[0]!, rng.int(300, 3000), undefined, rng.hex(32));
    v.sdbl('CommitTransaction');
  }
  const ops = [c.finish(), v.finish()];
  for (const x of culprits) x.context = contextBefore(ops[0]!, tlock.end_us);
  return { ops, pg: [] };
}

/** Two transactions each hold one managed lock and ask for the other's: the platform rolls back `victim` (§5.3). */
function managedDeadlock(ctx: ConflictContext, t0: number, victim: SimSession, other: SimSession): Conflict {
  const { rng } = ctx;
  const op = rng.pick(OPERATIONS);
  const lock = op.locks[0]!;
  const first = lockItem(rng, lock, 'Exclusive');
  const second = lockItem(rng, lock, 'Exclusive');
  const a = createOpBuilder(rng, victim, op, t0);
  const begin = a.sdbl('BeginTransaction');
  const held = a.emit('TLOCK', 5, rng.int(3, 25), [...a.db, ['Regions', lock.space], ['Locks', first], ['WaitConnections', ''], ['Context', a.context]]);
  const b = createOpBuilder(rng, other, op, a.cursor + rng.int(50_000, 300_000));
  b.sdbl('BeginTransaction');
  b.emit('TLOCK', 5, rng.int(3, 25), [...b.db, ['Regions', lock.space], ['Locks', second], ['WaitConnections', ''], ['Context', b.context]]);
  const bAsks = b.cursor;
  // The victim's request closes the cycle; the lock manager finds it at once and writes TDEADLOCK for the victim.
  a.cursor = Math.max(a.cursor, bAsks + rng.int(50_000, 500_000));
  a.cursor += rng.int(1_000, 50_000);
  const edges = `${victim.connectId} ${other.connectId} ${second},${other.connectId} ${victim.connectId} ${first}`;
  const td = a.emit('TDEADLOCK', 6, 0, [['DeadlockConnectionIntersections', edges], ['Context', a.context]]);
  excp(rng, a, 'TLockException', DEADLOCK_TEXT);
  const rollback = a.sdbl('RollbackTransaction');
  const wait = noTie(a.cursor + rng.int(100, 2_000) - bAsks);
  const tlock = b.emit('TLOCK', 5, wait, [...b.db, ['Regions', lock.space], ['Locks', first], ['WaitConnections', String(victim.connectId)], ['Context', b.context]], bAsks);
  updateEvent(b, other, op.tables[0]!, rng.int(300, 3000), undefined, rng.hex(32));
  b.sdbl('CommitTransaction');
  ctx.expected.deadlocks.push({
    ts: isoUs(td.end_us), infobase: victim.infobase, victim_connect_id: victim.connectId,
    edges: [{ waiter: victim.connectId, holder: other.connectId }, { waiter: other.connectId, holder: victim.connectId }],
  });
  ctx.expected.waits.push({ ts: isoUs(tlock.end_us), infobase: other.infobase, connect_id: other.connectId, culprit_connect_ids: [victim.connectId], wait_ms: waitMs(wait),
    culprits: [{ connect_id: victim.connectId, user: victim.user, context: '', tx_start: isoUs(begin.end_us), tx_end: isoUs(rollback.end_us),
      tx_outcome: 'rollback', lock: { ts: isoUs(held.end_us), region: lock.space, mode: 'Exclusive', lock: first.slice(`${lock.space} Exclusive`.length).trim() } }] });
  const ops = [a.finish(), b.finish()];
  for (const x of ctx.expected.waits.at(-1)?.culprits ?? []) x.context = contextBefore(ops[0]!, tlock.end_us);
  return { ops, pg: [] };
}

const tuple = (rng: Prng): string => `(${rng.int(0, 900)},${rng.int(1, 60)})`;

/** The lines of a row-lock wait as `log_lock_waits = on` writes them, and the wait's first line time. */
function waitLines(rng: Prng, waiter: SimSession, holder: SimSession, xid: number, startUs: number, table: string, ctxTuple: string, phase: 'still waiting for' | 'detected deadlock while waiting for'): PgLogEntry {
  const after = DEADLOCK_TIMEOUT_US + rng.int(50, 900);
  return pgEntry(startUs + after, waiter, [
    { label: 'LOG', text: `process ${waiter.dbpid} ${phase} ShareLock on transaction ${xid} after ${ms3(after)} ms` },
    { label: 'DETAIL', text: `Process holding the lock: ${holder.dbpid}. Wait queue: ${waiter.dbpid}.` },
    { label: 'CONTEXT', text: `while updating tuple ${ctxTuple} in relation "${table.toLowerCase()}"` },
    { label: 'STATEMENT', text: updateSql(table) },
  ]);
}

function acquiredLines(waiter: SimSession, xid: number, startUs: number, atUs: number, table: string, ctxTuple: string): PgLogEntry {
  return pgEntry(atUs, waiter, [
    { label: 'LOG', text: `process ${waiter.dbpid} acquired ShareLock on transaction ${xid} after ${ms3(atUs - startUs)} ms` },
    { label: 'CONTEXT', text: `while updating tuple ${ctxTuple} in relation "${table.toLowerCase()}"` },
    { label: 'STATEMENT', text: updateSql(table) },
  ]);
}

/** `session` begins a transaction at `at` and updates the row `key` of `table`: its builder and the xid PostgreSQL gives it. */
function updateInTransaction(ctx: ConflictContext, session: SimSession, op: Operation, at: number, table: string, key: string): { builder: OpBuilder; xid: number } {
  const builder = createOpBuilder(ctx.rng, session, op, at);
  builder.sdbl('BeginTransaction');
  updateEvent(builder, session, table, ctx.rng.int(300, 3000), undefined, key);
  return { builder, xid: ctx.nextXid() };
}

/** The culprit updates a row and keeps its transaction open; the victim's UPDATE of that row blocks until the commit. */
function pgWait(ctx: ConflictContext, t0: number, culprit: SimSession, victim: SimSession): Conflict {
  const { rng } = ctx;
  const op = rng.pick(OPERATIONS);
  const table = op.tables[0]!;
  const key = rng.hex(32);
  const { builder: c, xid } = updateInTransaction(ctx, culprit, op, t0, table, key);
  const v = createOpBuilder(rng, victim, op, c.cursor + rng.int(100_000, 600_000));
  v.sdbl('BeginTransaction');
  // A gap of a few ms: the waiter's previous statement ends clearly before the wait begins (pg-lock-waits.sql
  // joins the waiter's first TJ event ending after the wait start, which %m knows to the ms only).
  const blocked = v.cursor + rng.int(3_000, 9_000);
  const wait = rng.int(1_300_000, 8_000_000);
  c.cursor = Math.max(c.cursor, blocked + wait - rng.int(10, 300));
  const commit = c.sdbl('CommitTransaction');
  const acquired = commit.end_us - rng.int(1, 5);
  const where = tuple(rng);
  updateEvent(v, victim, table, acquired + rng.int(300, 2_000) - blocked, blocked, key);
  v.sdbl('CommitTransaction');
  const pg = [waitLines(rng, victim, culprit, xid, blocked, table, where, 'still waiting for'), acquiredLines(victim, xid, blocked, acquired, table, where)];
  ctx.expected.pg_episodes.push({
    pid: victim.dbpid, mode: 'ShareLock', object: `transaction ${xid}`, outcome: 'acquired', wait_ms: Number(ms3(acquired - blocked)),
    holder_pids: [culprit.dbpid], queue_pids: [victim.dbpid], waiter_connect_id: victim.connectId, holder_connect_id: culprit.connectId,
  });
  return { ops: [c.finish(), v.finish()], pg };
}

/**
 * Two transactions update two rows in opposite order. `first` waits on `second`'s row and logs it after 1 s;
 * `second` then waits on `first`'s row, its deadlock check finds the cycle: it is the victim (ERROR 40P01,
 * docs/pg-format.md §7, deadlock), its transaction aborts, and `first` acquires the row.
 */
function pgDeadlock(ctx: ConflictContext, t0: number, first: SimSession, second: SimSession): Conflict {
  const { rng } = ctx;
  const op = rng.pick(OPERATIONS);
  const table = op.tables[0]!;
  const [key1, key2] = [rng.hex(32), rng.hex(32)];
  const { builder: a, xid: xidA } = updateInTransaction(ctx, first, op, t0, table, key1);
  const { builder: b, xid: xidB } = updateInTransaction(ctx, second, op, a.cursor + rng.int(50_000, 300_000), table, key2);
  const aBlocked = Math.max(a.cursor, b.cursor) + rng.int(5_000, 50_000);
  const bBlocked = aBlocked + rng.int(100_000, 600_000);
  const [tupleA, tupleB] = [tuple(rng), tuple(rng)];
  const aWaits = waitLines(rng, first, second, xidB, aBlocked, table, tupleB, 'still waiting for');
  const bDetects = waitLines(rng, second, first, xidA, bBlocked, table, tupleA, 'detected deadlock while waiting for');
  const detectedAt = bDetects.at_us;
  const sql = updateSql(table);
  const error = pgEntry(detectedAt + rng.int(20, 200), second, [
    { label: 'ERROR', text: 'deadlock detected' },
    { label: 'DETAIL', text: `Process ${second.dbpid} waits for ShareLock on transaction ${xidA}; blocked by process ${first.dbpid}.\nProcess ${first.dbpid} waits for ShareLock on transaction ${xidB}; blocked by process ${second.dbpid}.\nProcess ${second.dbpid}: ${sql}\nProcess ${first.dbpid}: ${sql}` },
    { label: 'HINT', text: 'See server log for query details.' },
    { label: 'CONTEXT', text: `while updating tuple ${tupleA} in relation "${table.toLowerCase()}"` },
    { label: 'STATEMENT', text: sql },
  ]);
  // The victim's error aborts its transaction at once, which releases its row: the other waiter gets it.
  const acquired = error.at_us + rng.int(100, 500);
  updateEvent(b, second, table, error.at_us + rng.int(100, 400) - bBlocked, bBlocked, key1, true);
  excp(rng, b, 'DataBaseException', `Ошибка СУБД:\nERROR:  deadlock detected\nDETAIL:  Process ${second.dbpid} waits for ShareLock on transaction ${xidA}; blocked by process ${first.dbpid}.`);
  b.sdbl('RollbackTransaction');
  updateEvent(a, first, table, acquired + rng.int(300, 2_000) - aBlocked, aBlocked, key2);
  a.sdbl('CommitTransaction');
  ctx.expected.pg_episodes.push(
    { pid: first.dbpid, mode: 'ShareLock', object: `transaction ${xidB}`, outcome: 'acquired', wait_ms: Number(ms3(acquired - aBlocked)),
      holder_pids: [second.dbpid], queue_pids: [first.dbpid], waiter_connect_id: first.connectId, holder_connect_id: second.connectId },
    { pid: second.dbpid, mode: 'ShareLock', object: `transaction ${xidA}`, outcome: 'deadlock', wait_ms: null,
      holder_pids: [first.dbpid], queue_pids: [second.dbpid], waiter_connect_id: second.connectId, holder_connect_id: first.connectId },
  );
  return { ops: [a.finish(), b.finish()], pg: [aWaits, bDetects, error, acquiredLines(first, xidB, aBlocked, acquired, table, tupleB)] };
}

/** A multi-row INSERT into a register, as 1C writes a record set (tj-sql.ts shapes). */
function insertEvent(b: OpBuilder, s: SimSession, table: string, duration: number, startUs?: number): SimEvent {
  return b.emit('DBPOSTGRS', 5, duration, [...b.db, ['Trans', '1'], ['dbpid', String(s.dbpid)], ['Sql', insertSql(table)],
    ['Prm', `p_1: '2026-11-30 00:00:00'::timestamp\np_2: '\\\\x9f3b0c5e61d24a7b8e0f1a2b3c4d5e6f'::bytea`], ['RowsAffected', '500'],
    ['Result', 'PGRES_COMMAND_OK'], ['Context', b.context]], startUs);
}

export const insertSql = (table: string): string => `INSERT INTO ${table}\n(_Period,_RecorderRRef,_LineNo,_Active,_Fld31254RRef,_Fld31256)\nSELECT $1,$2,n,TRUE,$2,n FROM generate_series(1,500) n`;

/** The relation PostgreSQL extends in the planted episode, and its database (pg_class / pg_database oids). */
export const EXTENSION_OIDS = { relation: 16_409, database: 16_385 } as const;

/**
 * A relation-extension wait (issue #25, item 6): the holder's bulk INSERT extends the register's table on a slow
 * disk, holding its extension lock over a second; the waiter's INSERT into the same table queues behind it and,
 * past deadlock_timeout, PostgreSQL logs the wait (`Lock / extend` in pg_stat_activity, docs/pg-format.md §7).
 */
export function pgExtension(ctx: ConflictContext, t0: number, holder: SimSession, waiter: SimSession): Conflict {
  const { rng } = ctx;
  const op = OPERATIONS[0] as Operation;
  const table = '_AccumRg31253';
  const h = createOpBuilder(rng, holder, op, t0);
  h.sdbl('BeginTransaction');
  updateEvent(h, holder, op.tables[0]!, rng.int(300, 3000), undefined, rng.hex(32));
  const extendFrom = h.cursor;
  const w = createOpBuilder(rng, waiter, op, extendFrom + rng.int(20_000, 100_000));
  w.sdbl('BeginTransaction');
  const blocked = w.cursor + rng.int(1_000, 5_000);
  const wait = rng.int(1_200_000, 2_500_000);
  const acquired = blocked + wait;
  // The holder's statement ends just after it released the extension lock (the lock lasts the extension only).
  insertEvent(h, holder, table, acquired - rng.int(10, 200) - extendFrom + rng.int(200, 900), extendFrom);
  h.sdbl('CommitTransaction');
  insertEvent(w, waiter, table, acquired + rng.int(300, 2_000) - blocked, blocked);
  w.sdbl('CommitTransaction');
  const object = `extension of relation ${EXTENSION_OIDS.relation} of database ${EXTENSION_OIDS.database}`;
  const after = DEADLOCK_TIMEOUT_US + rng.int(50, 900);
  const pg = [
    pgEntry(blocked + after, waiter, [
      { label: 'LOG', text: `process ${waiter.dbpid} still waiting for ExclusiveLock on ${object} after ${ms3(after)} ms` },
      { label: 'DETAIL', text: `Process holding the lock: ${holder.dbpid}. Wait queue: ${waiter.dbpid}.` },
      { label: 'STATEMENT', text: insertSql(table) },
    ]),
    pgEntry(acquired, waiter, [
      { label: 'LOG', text: `process ${waiter.dbpid} acquired ExclusiveLock on ${object} after ${ms3(acquired - blocked)} ms` },
      { label: 'STATEMENT', text: insertSql(table) },
    ]),
  ];
  ctx.expected.pg_episodes.push({
    pid: waiter.dbpid, mode: 'ExclusiveLock', object, outcome: 'acquired', wait_ms: Number(ms3(acquired - blocked)),
    holder_pids: [holder.dbpid], queue_pids: [waiter.dbpid], waiter_connect_id: waiter.connectId, holder_connect_id: holder.connectId,
  });
  return { ops: [h.finish(), w.finish()], pg };
}

/** Builds one conflict of `kind` starting at `t0` between `a` (the culprit, or the deadlock's first) and `b`. */
export function buildConflict(ctx: ConflictContext, kind: ConflictKind, t0: number, a: SimSession, b: SimSession): Conflict {
  switch (kind) {
    case 'managed_wait': return managed(ctx, t0, a, b, false);
    case 'managed_timeout': return managed(ctx, t0, a, b, true);
    case 'managed_deadlock': return managedDeadlock(ctx, t0, b, a);
    case 'pg_wait': return pgWait(ctx, t0, a, b);
    case 'pg_deadlock': return pgDeadlock(ctx, t0, a, b);
  }
}
