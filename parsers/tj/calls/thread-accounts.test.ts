// The per-thread accountant on hand-made streams whose answers are worked out in the titles: what is inside a call,
// what is left out, and the lines it keeps for what it cannot place (docs/tj-format.md §4.3).
import test from 'ava';
import { createThreadAccounts, type CallFact } from './thread-accounts.js';
import { callFact, isoToMicros } from './call-facts.js';
import type { TjEvent } from '../../../schemas/tj-event.js';

let position = 0;
const fact = (kind: CallFact['kind'], end: number, duration: number, thread: string | null, connect: string | null, more: Partial<CallFact> = {}): CallFact =>
  ({ kind, end_us: end, duration_us: duration, thread, connect, cpu_us: null, call_wait_us: null, statement: null, dbpid: null, position: position++, ...more });
const call = (end: number, duration: number, thread: string | null, connect: string | null, cpu: number | null, wait: number | null): CallFact =>
  fact('call', end, duration, thread, connect, { cpu_us: cpu, call_wait_us: wait });
const parts = (s: { db_us: number; lock_wait_us: number; cpu_us: number; thread_wait_us: number; other_us: number } | null) =>
  s === null ? null : [s.db_us, s.lock_wait_us, s.cpu_us, s.thread_wait_us, s.other_us];

test('a call gets the DB time and lock waits of its thread, its CpuTime and callWait, and the rest as other', (t) => {
  const a = createThreadAccounts();
  t.is(a.push(fact('db', 1_100, 50, '7', '17', { statement: 'q1' })), null);
  t.is(a.push(fact('other', 1_150, 10, '7', '17')), null);
  t.is(a.push(fact('lock_wait', 1_400, 200, '7', '17')), null);
  t.is(a.push(fact('db', 1_500, 30, '7', '17', { statement: 'q1' })), null);
  // Wall 1000 µs from 600 to 1600: 80 DB + 200 lock + 100 callWait + 300 CPU = 680; other 320.
  const s = a.push(call(1_600, 1_000, '7', '17', 300, 100));
  t.deepEqual(parts(s), [80, 200, 300, 100, 320]);
  t.is(s?.db_count, 2);
  t.deepEqual(s?.statements, [{ key: 'q1', count: 2, us: 80 }]);
  t.deepEqual(s?.flags, { no_duration: false, clock_step: false, parts_exceed: false, no_cpu_time: false, partial: false });
  t.is(a.held(), 0);
});

test('calls on two threads that overlap in time each get only their own thread\'s events', (t) => {
  const a = createThreadAccounts();
  a.push(fact('db', 1_000, 100, 'A', '1'));
  a.push(fact('db', 1_050, 400, 'B', '2'));
  a.push(fact('db', 1_200, 100, 'A', '1'));
  const callA = a.push(call(1_300, 500, 'A', '1', 0, 0));
  a.push(fact('db', 1_400, 300, 'B', '2'));
  const callB = a.push(call(1_500, 900, 'B', '2', 0, 0));
  t.deepEqual(parts(callA), [200, 0, 0, 0, 300]);
  t.deepEqual(parts(callB), [700, 0, 0, 0, 200]);
});

test('one thread serves two connections one after the other: each call takes the events since its start', (t) => {
  const a = createThreadAccounts();
  a.push(fact('db', 1_000, 100, 'T', '1'));
  const first = a.push(call(1_100, 300, 'T', '1', 0, 0));
  a.push(fact('db', 1_500, 200, 'T', '2'));
  const second = a.push(call(1_600, 400, 'T', '2', 0, 0));
  t.deepEqual(parts(first), [100, 0, 0, 0, 200]);
  t.deepEqual(parts(second), [200, 0, 0, 0, 200]);
});

test('events without OSThread are found by t:connectID, and a CALL without OSThread takes its connection\'s events', (t) => {
  const a = createThreadAccounts();
  a.push(fact('db', 1_000, 100, null, '5'));
  a.push(fact('db', 1_100, 50, 'T', '5'));
  a.push(fact('db', 1_150, 25, null, '6')); // another connection: not this call's
  const withThread = a.push(call(1_200, 500, 'T', '5', 0, 0));
  t.deepEqual(parts(withThread), [150, 0, 0, 0, 350]);
  a.push(fact('db', 2_000, 100, 'U', '9'));
  a.push(fact('lock_wait', 2_100, 60, null, '9'));
  const noThread = a.push(call(2_200, 400, null, '9', 10, null));
  t.deepEqual(parts(noThread), [100, 60, 10, 0, 230]);
  // The thread's copy of the event taken through the connection is gone from the thread's account too.
  const later = a.push(call(3_000, 100, 'U', '9', 0, 0));
  t.deepEqual(parts(later), [0, 0, 0, 0, 100]);
  t.is(a.held(), 1); // connection 6's statement still waits for its call
});

test('events that ended before the call began belong to no logged call and are counted as left out', (t) => {
  const a = createThreadAccounts();
  a.push(fact('db', 500, 100, 'T', '1')); // a call below the logcfg threshold ran it
  a.push(fact('db', 1_000, 100, 'T', '1'));
  const s = a.push(call(1_100, 200, 'T', '1', 0, 0));
  t.deepEqual(parts(s), [100, 0, 0, 0, 100]);
  t.is(a.stats().left_out, 1);
});

test('a call whose start is exactly a nested event\'s end still takes it: the window is closed at both ends', (t) => {
  const a = createThreadAccounts();
  a.push(fact('db', 900, 0, 'T', '1'));
  a.push(fact('db', 1_100, 50, 'T', '1'));
  t.deepEqual(parts(a.push(call(1_100, 200, 'T', '1', 0, 0))), [50, 0, 0, 0, 150]);
  t.is(a.stats().left_out, 0);
});

test('a CALL without a duration places nothing, says so, and drops its account', (t) => {
  const a = createThreadAccounts();
  a.push(fact('db', 1_000, 100, 'T', '1'));
  const s = a.push(call(1_100, 0, 'T', '1', 0, 0));
  t.deepEqual(parts(s), [0, 0, 0, 0, 0]);
  t.true(s?.flags.no_duration);
  t.is(a.stats().left_out, 1);
  t.is(a.held(), 0);
});

test('an event of the account that ended after its CALL marks a clock stepped back, and is counted by file order', (t) => {
  const a = createThreadAccounts();
  a.push(fact('db', 10_000_000, 300, 'T', '1')); // written before the step
  const s = a.push(call(9_000_500, 1_000, 'T', '1', 100, 0)); // the clock went back a second
  t.deepEqual(parts(s), [300, 0, 100, 0, 600]);
  t.true(s?.flags.clock_step);
});

test('parts that add up to more than the call are capped in order: DB, lock waits, callWait, CPU; other is never negative', (t) => {
  const a = createThreadAccounts();
  a.push(fact('db', 1_000, 600, 'T', '1'));
  a.push(fact('lock_wait', 1_050, 300, 'T', '1'));
  const s = a.push(call(1_100, 1_000, 'T', '1', 500, 200));
  t.deepEqual(parts(s), [600, 300, 0, 100, 0]);
  t.true(s?.flags.parts_exceed);
});

test('a CALL without CpuTime or callWait counts them as 0 and says CpuTime was missing', (t) => {
  const a = createThreadAccounts();
  const s = a.push(call(1_000, 100, 'T', '1', null, null));
  t.deepEqual(parts(s), [0, 0, 0, 0, 100]);
  t.true(s?.flags.no_cpu_time);
});

test('an event with neither OSThread nor t:connectID is counted, never placed', (t) => {
  const a = createThreadAccounts();
  a.push(fact('db', 1_000, 100, null, null));
  t.deepEqual(parts(a.push(call(1_100, 500, 'T', '1', 0, 0))), [0, 0, 0, 0, 500]);
  t.is(a.stats().unkeyed, 1);
});

test('heldFrom names the earliest event still waiting for its CALL: where a replay after a restart must begin', (t) => {
  const a = createThreadAccounts();
  t.is(a.heldFrom(), null);
  a.push(fact('db', 1_000, 10, 'A', '1', { position: 40 }));
  a.push(fact('db', 1_010, 10, 'B', '2', { position: 90 }));
  t.is(a.heldFrom(), 40);
  a.push(call(1_020, 100, 'A', '1', 0, 0));
  t.is(a.heldFrom(), 90);
  a.push(call(1_030, 100, 'B', '2', 0, 0));
  t.is(a.heldFrom(), null);
});

test('an account past its bound drops its oldest events and counts them', (t) => {
  const a = createThreadAccounts({ limit: 3 });
  for (let i = 0; i < 5; i++) a.push(fact('db', 1_000 + i, 1, 'T', null));
  t.is(a.stats().overflow, 2);
  t.is(a.held(), 3);
  t.deepEqual(parts(a.push(call(1_010, 100, 'T', null, 0, 0))), [3, 0, 0, 0, 97]);
});

test('callFact reads a parsed event: DB, waited TLOCK, granted TLOCK, CALL with CpuTime and callWait', (t) => {
  const ev = (event: string, properties: string[]): TjEvent => ({
    event, ts: '2026-11-30T09:00:01.000123Z', ts_start: '2026-11-30T09:00:00.999000Z', duration_us: 1_123, depth: 4, properties, length: 10,
    origin: { host: 'h', source: 'tj', file: 'f', file_key: 'k', offset: 77 },
  });
  const db = callFact(ev('DBPOSTGRS', ['OSThread', '12', 't:connectID', '3', 'Sql', 'SELECT 1']));
  t.like(db, { kind: 'db', end_us: isoToMicros('2026-11-30T09:00:01.000123Z'), duration_us: 1_123, thread: '12', connect: '3', position: 77 });
  t.not(db.statement, null);
  t.is(callFact(ev('TLOCK', ['WaitConnections', '5'])).kind, 'lock_wait');
  t.is(callFact(ev('TLOCK', ['WaitConnections', ''])).kind, 'other');
  t.like(callFact(ev('CALL', ['t:connectID', '3', 'callWait', '40', 'CpuTime', '900'])), { kind: 'call', thread: null, cpu_us: 900, call_wait_us: 40 });
  t.is(isoToMicros('2026-11-30T09:00:01.000123Z') % 1_000_000, 1_000_123 % 1_000_000);
  t.is(isoToMicros('1970-01-01T00:00:01.5Z'), 1_500_000);
});
