import test from 'ava';
import { EpisodeWork, SETTLE_AFTER_MS, SETTLE_TX_OPEN_AFTER_MS } from './episode-work.js';

const state = (key: string, status = 'pending', version = 0) => ({ key, time: `2026-03-02 07:00:0${key}.000000`, status, version });
const result = (status: string, facts: number, txOpen = false) => ({ status, version: facts + (status === 'settled' ? 1 : 0), facts, txOpen });

test('new episodes are due at once, oldest first; a complete one is dropped and not brought back by its older rows', (t) => {
  const w = new EpisodeWork('follow');
  w.seen([state('2'), state('1')], 0);
  t.deepEqual(w.due(0, 10).map((x) => x.key), ['1', '2']);
  w.done(w.due(0, 10)[0]!, result('complete', 10), 0);
  w.seen([state('1')], 1000);
  t.deepEqual(w.due(1000, 10).map((x) => x.key), ['2']);
});

test('a partial episode is looked at again after 1, 2, 4 … s, at most every 30 s', (t) => {
  const w = new EpisodeWork('follow');
  w.seen([state('1')], 0);
  let now = 0;
  const gaps: number[] = [];
  for (let i = 0; i < 8; i++) {
    const [item] = w.due(now, 1);
    w.done(item!, result('partial', 10), now);
    const next = item!.nextAt;
    gaps.push(next - now);
    now = next;
  }
  t.deepEqual(gaps, [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
});

test('while following, a partial episode is settled once nothing new came for 5 minutes, an hour while its transaction is open', (t) => {
  const w = new EpisodeWork('follow');
  const t0 = 1_000;
  w.seen([state('1'), state('2')], t0);
  const [a, b] = w.due(t0, 10);
  w.done(a!, result('partial', 10), t0);
  w.done(b!, result('partial', 10, true), t0);
  t.false(w.shouldSettle(a!, t0 + SETTLE_AFTER_MS - 1));
  t.true(w.shouldSettle(a!, t0 + SETTLE_AFTER_MS));
  t.false(w.shouldSettle(b!, t0 + SETTLE_AFTER_MS));
  t.true(w.shouldSettle(b!, t0 + SETTLE_TX_OPEN_AFTER_MS));
  // New facts start the clock again.
  w.done(a!, result('partial', 12), t0 + 200_000);
  t.false(w.shouldSettle(a!, t0 + SETTLE_AFTER_MS + 1000));
});

test('a backfill settles nothing on the way and looks at a partial episode again only in its last step', (t) => {
  const w = new EpisodeWork('backfill');
  w.seen([state('1')], 1_000);
  const [item] = w.due(1_000, 1);
  w.done(item!, result('partial', 10), 1_000);
  t.false(w.shouldSettle(item!, 10 * SETTLE_TX_OPEN_AFTER_MS));
  t.deepEqual(w.due(10 * SETTLE_TX_OPEN_AFTER_MS, 10), []);
  t.deepEqual(w.all().map((x) => x.key), ['1']);
});

test('a newer version another resolver wrote wins over what this one knew; an older one changes nothing', (t) => {
  const w = new EpisodeWork('follow');
  w.seen([state('1', 'partial', 20)], 0);
  w.seen([state('1', 'pending', 0)], 0);
  t.is(w.all()[0]!.version, 20);
  w.seen([state('1', 'complete', 30)], 0);
  t.is(w.size, 0);
});
