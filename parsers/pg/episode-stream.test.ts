// The episode stream: lock waits attached to the entry that closes them, `settled` held at an open wait's first
// line, and the property the pipeline relies on: restarting at `settled` gives the same entries and episodes.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PgStreamEventSchema, type PgStreamEvent } from '../../schemas/pg-stream-event.js';
import { createPgEpisodeStream } from './episode-stream.js';
import { createPgParser } from './index.js';
import { corpusDir, missingCorpus, testIf } from '../../test/support/prerequisites.js';

const L = (ts: string, pid: number, rest: string): string => `2026-11-30 14:09:${ts} UTC [${pid}] ${rest}\n`;
const SYNTHETIC = Buffer.from([
  L('45.500', 1, 'LOG:  duration: 0.5 ms  statement: UPDATE a SET x = 1 WHERE id = 1;'),
  L('45.948', 2, 'LOG:  process 2 still waiting for ShareLock on transaction 731 after 100.061 ms'),
  L('45.948', 2, 'DETAIL:  Process holding the lock: 1. Wait queue: 2.'),
  L('45.948', 2, 'STATEMENT:  UPDATE a SET x = 2 WHERE id = 1;'),
  L('46.000', 3, 'LOG:  duration: 2.0 ms  statement: SELECT 1;'),
  L('46.100', 4, 'LOG:  process 4 still waiting for ShareLock on transaction 732 after 100.000 ms'),
  L('46.100', 4, 'DETAIL:  Process holding the lock: 1. Wait queue: 4.'),
  L('46.500', 4, 'ERROR:  canceling statement due to lock timeout'),
  L('46.500', 4, 'STATEMENT:  DELETE FROM a;'),
  L('47.047', 1, 'LOG:  duration: 1503.494 ms  statement: COMMIT;'),
  L('47.048', 2, 'LOG:  process 2 acquired ShareLock on transaction 731 after 1199.185 ms'),
  L('47.100', 3, 'LOG:  duration: 1.0 ms  statement: SELECT 2;'),
].join(''));

const stream = (offset = 0) => createPgEpisodeStream(createPgParser({ host: 'h', source: 'pg', file: 'f', file_key: 'k', offset, format: 'stderr' }));

/** Entries with their closed episodes; holder statements remembered before a restart are not part of the promise. */
const view = (events: PgStreamEvent[]) => events.map((e) => ({
  offset: e.origin.offset, kind: e.kind, episodes: e.lock_episodes.map(({ holder_statements: _h, ...ep }) => ep),
}));

function whole(bytes: Buffer): PgStreamEvent[] {
  const s = stream();
  return [...s.push(bytes).events, ...s.finish().events];
}

test('each episode rides on the entry that closed it, with the opening line\'s fields', (t) => {
  const events = whole(SYNTHETIC);
  const closing = events.filter((e) => e.lock_episodes.length > 0);
  t.deepEqual(closing.map((e) => [e.kind, e.lock_episodes.map((ep) => [ep.pid, ep.outcome, ep.wait_ms, ep.holder_pids])]), [
    ['lock_timeout', [[4, 'lock_timeout', null, [1]]]],
    ['lock_wait', [[2, 'acquired', 1199.185, [1]]]],
  ]);
  t.is(closing[1]?.lock_episodes[0]?.statement, 'UPDATE a SET x = 2 WHERE id = 1;');
  t.deepEqual(closing[1]?.lock_episodes[0]?.holder_statements, { 1: ['UPDATE a SET x = 1 WHERE id = 1;', 'COMMIT;'] });
});

test('while a wait is open, entries are held and settled stays at its first line', (t) => {
  const s = stream();
  const waitAt = SYNTHETIC.indexOf('2026-11-30 14:09:45.948');
  const acquiredAt = SYNTHETIC.indexOf('2026-11-30 14:09:47.048');
  const out = s.push(SYNTHETIC.subarray(0, acquiredAt));
  t.deepEqual(out.events.map((e) => e.origin.offset), [0]);
  t.is(s.settled, waitAt);
  const rest = s.push(SYNTHETIC.subarray(acquiredAt));
  t.is(rest.events[0]?.origin.offset, waitAt);
  t.true(s.settled > acquiredAt);
});

function checkRestarts(t: import('ava').ExecutionContext, bytes: Buffer, cuts: number[]): void {
  const expected = view(whole(bytes));
  for (const cut of cuts) {
    const first = stream();
    const before = first.push(bytes.subarray(0, cut)).events;
    const at = first.settled;
    const second = stream(at);
    const after = [...second.push(bytes.subarray(at)).events, ...second.finish().events];
    t.deepEqual(view([...before, ...after]), expected, `restart after byte ${cut} at settled ${at}`);
  }
}

test('restarting a fresh stream at settled gives the same entries and episodes, wherever the first run stopped', (t) => {
  checkRestarts(t, SYNTHETIC, Array.from({ length: SYNTHETIC.length }, (_, i) => i + 1));
});

testIf(missingCorpus('pg/generated/postgresql-phase1.log'))('on the generated PostgreSQL 15 log, any chunking and restarts give the 77 episodes of EXPECTED.md', (t) => {
  const file = join(corpusDir, 'pg', 'generated', 'postgresql-phase1.log');
  const bytes = readFileSync(file);
  const prefix = '%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ';
  const mk = (offset = 0) => createPgEpisodeStream(createPgParser({ host: 'h', source: 'pg', file: 'f', file_key: 'k', offset, format: 'stderr', prefix }));
  const s = mk();
  const all = [...s.push(bytes).events, ...s.finish().events];
  const episodes = all.flatMap((e) => e.lock_episodes);
  t.is(episodes.length, 77);
  // What a Kafka sink checks (ingest/sink/segment-validation.ts) holds for every entry.
  t.true(all.every((e) => PgStreamEventSchema.safeParse(e).success));
  t.is(episodes.filter((e) => e.outcome === 'acquired').length, 74);
  t.is(Math.round(episodes.reduce((a, e) => a + (e.wait_ms ?? 0), 0) * 1000), 6_495_846);
  const expected = view(all);
  for (let cut = 1013; cut < bytes.length; cut += 7919) {
    const first = mk();
    const before = first.push(bytes.subarray(0, cut)).events;
    const at = first.settled;
    const second = mk(at);
    let after: PgStreamEvent[] = [];
    for (let i = at; i < bytes.length; i += 4093) after = after.concat(second.push(bytes.subarray(i, Math.min(bytes.length, i + 4093))).events);
    after = after.concat(second.finish().events);
    t.deepEqual(view([...before, ...after]), expected, `restart after byte ${cut}`);
  }
});
