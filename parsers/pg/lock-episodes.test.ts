// Lock-episode building on hand-written event sequences: how each outcome closes a wait, repeated `still waiting`,
// waits seen only through `acquired`, and the holder's statements.
import test from 'ava';
import type { PgEvent } from '../../schemas/pg-event.js';
import { classify } from './classify.js';
import { createEventFactory } from './entry.js';
import { createLockEpisodeBuilder } from './lock-episodes.js';

const newEvent = createEventFactory({ host: 'h', source: 'pg', file: 'f', file_key: 'k', offset: 0 });
let offset = 0;

function ev(ts: string, pid: number, severity: PgEvent['severity'], message: string, more: Partial<PgEvent> = {}): PgEvent {
  const e: PgEvent = { ...newEvent(offset++), ts: `2026-11-30T14:09:${ts}Z`, pid, severity, message, user: 'app', database: 'shop', ...more };
  classify(e);
  return e;
}

const wait = (ts: string, pid: number, obj: string, ms: string, detail: string, statement: string): PgEvent =>
  ev(ts, pid, 'LOG', `process ${pid} still waiting for ShareLock on ${obj} after ${ms} ms`, { detail, statement, application: `w${pid}` });

function build(events: PgEvent[]) {
  const b = createLockEpisodeBuilder();
  return [...b.push(events), ...b.finish()];
}

test('a wait closed by acquired carries the total wait, start = first line minus its wait', (t) => {
  const eps = build([
    ev('45.500', 15932, 'LOG', 'duration: 0.5 ms  statement: UPDATE accounts SET balance = 0 WHERE id = 1;'),
    wait('45.948', 15937, 'transaction 731', '100.061', 'Process holding the lock: 15932. Wait queue: 15937.', 'UPDATE accounts SET b = 1;'),
    ev('47.047', 15932, 'LOG', 'duration: 1503.494 ms  statement: COMMIT;'),
    ev('47.048', 15937, 'LOG', 'process 15937 acquired ShareLock on transaction 731 after 1199.185 ms'),
  ]);
  t.is(eps.length, 1);
  t.like(eps[0], {
    ts_start: '2026-11-30T14:09:45.848Z', ts_end: '2026-11-30T14:09:47.048Z', pid: 15937, mode: 'ShareLock',
    object: 'transaction 731', outcome: 'acquired', wait_ms: 1199.185, holder_pids: [15932], queue_pids: [15937],
    statement: 'UPDATE accounts SET b = 1;', user: 'app', database: 'shop', application: 'w15937',
  });
  t.deepEqual(eps[0]?.holder_statements, { 15932: ['UPDATE accounts SET balance = 0 WHERE id = 1;', 'COMMIT;'] });
});

test('each way a wait can end gives its outcome and no wait_ms', (t) => {
  const eps = build([
    ev('49.214', 16053, 'LOG', 'process 16053 detected deadlock while waiting for ShareLock on transaction 749 after 100.094 ms',
      { detail: 'Process holding the lock: 16049. Wait queue: .' }),
    ev('49.314', 16053, 'ERROR', 'deadlock detected'),
    wait('49.541', 16065, 'transaction 751', '100.000', 'Process holding the lock: 16061. Wait queue: 16065.', 'UPDATE x'),
    ev('49.941', 16065, 'ERROR', 'canceling statement due to lock timeout'),
    wait('51.086', 16083, 'transaction 753', '100.000', 'Process holding the lock: 16078. Wait queue: 16083.', 'DELETE x'),
    ev('51.586', 16083, 'ERROR', 'canceling statement due to statement timeout'),
    wait('52.000', 16090, 'transaction 754', '100.000', 'Process holding the lock: 16078. Wait queue: 16090.', 'DELETE y'),
    ev('52.500', 16090, 'FATAL', 'terminating connection due to administrator command'),
  ]);
  t.deepEqual(eps.map((e) => [e.pid, e.outcome, e.wait_ms]), [
    [16053, 'deadlock', null], [16065, 'lock_timeout', null], [16083, 'statement_timeout', null], [16090, 'other', null],
  ]);
  t.deepEqual(eps[0]?.queue_pids, []);
});

test('a repeated still-waiting line for the same object continues one episode', (t) => {
  const d = 'Process holding the lock: 1. Wait queue: 2.';
  const eps = build([
    wait('45.100', 2, 'transaction 9', '100.000', d, 'S'),
    wait('46.100', 2, 'transaction 9', '1100.000', d, 'S'),
    ev('47.000', 2, 'LOG', 'process 2 acquired ShareLock on transaction 9 after 2000.000 ms'),
  ]);
  t.is(eps.length, 1);
  t.is(eps[0]?.ts_start, '2026-11-30T14:09:45.000Z');
  t.is(eps[0]?.wait_ms, 2000);
});

test('an acquired line without a logged start still makes an episode (stream resumed mid-wait)', (t) => {
  const eps = build([ev('47.000', 3, 'LOG', 'process 3 acquired ShareLock on transaction 9 after 500.000 ms')]);
  t.like(eps[0], { outcome: 'acquired', wait_ms: 500, ts_start: '2026-11-30T14:09:46.500Z' });
});

test('an unrelated entry of the waiting pid ends the wait as other; other pids do not', (t) => {
  const eps = build([
    wait('45.000', 4, 'transaction 9', '100.000', 'Process holding the lock: 5. Wait queue: 4.', 'S'),
    ev('45.500', 5, 'LOG', 'duration: 1.0 ms  statement: SELECT 1'),
    ev('46.000', 4, 'LOG', 'disconnection: session time: 0:00:01.000 user=app database=shop host=[local]'),
  ]);
  t.deepEqual(eps.map((e) => [e.pid, e.outcome, e.ts_end]), [[4, 'other', '2026-11-30T14:09:46.000Z']]);
});

test('a wait still open at the end of the stream is returned by finish as other', (t) => {
  const b = createLockEpisodeBuilder();
  t.deepEqual(b.push([wait('45.000', 6, 'transaction 9', '100.000', '', 'S')]), []);
  const eps = b.finish();
  t.like(eps[0], { pid: 6, outcome: 'other', ts_end: null });
});
