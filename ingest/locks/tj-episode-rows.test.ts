import test from 'ava';
import { EPOCH, resolveTjEpisode, sameEpisode, type CulpritRow } from './tj-episode-rows.js';
import type { TjLockEpisodeRow } from '../../schemas/tj-lock-episode-row.js';

const base = (kind: 'wait' | 'timeout' | 'deadlock', extra: Partial<TjLockEpisodeRow> = {}): TjLockEpisodeRow => ({
  kind, ts: '2026-03-02 07:00:10.000000', file_key: 'f', file_offset: 1, infobase: 'ib', victim_connect_id: '19', victim_user: 'Иванов',
  victim_context: 'Форма', regions: ['R.REFLOCK'], wait_us: 6e6, ref_ts: '2026-03-02 07:00:04.000000', requested_regions: ['R.REFLOCK'],
  requested_locks: 'R.REFLOCK Exclusive ID=1', wait_connections: ['18'], deadlock_intersections: '', status: 'pending', culprits: [], version: 0, ...extra,
});
const row = (over: Partial<CulpritRow> = {}): CulpritRow => ({
  kind: 'wait', file_key: 'f', file_offset: '1', paired: 0, victim_connect_id: '19', ref_ts: '2026-03-02 07:00:04.000000',
  requested_regions: ['R.REFLOCK'], requested_locks: 'R.REFLOCK Exclusive ID=1', culprit_connect_id: '18', culprit_user: 'Петров', culprit_context: 'Обработка',
  tx_found: 1, tx_start: '2026-03-02 07:00:01.000000', tx_user: 'Петров', tx_context: 'Обработка', tx_end_found: 1, tx_end: '2026-03-02 07:00:09.000000',
  tx_end_func: 'CommitTransaction', culprit_tlocks: [['2026-03-02 07:00:02.000000', ['R.REFLOCK'], 'R.REFLOCK Shared ID=2,R.REFLOCK Exclusive ID=1', 'Обработка', '']],
  n_facts: 5, ...over,
});

test('a wait whose culprit was found whole is complete, with the conflicting item of the culprit\'s TLOCK', (t) => {
  const { row: r, missing } = resolveTjEpisode(base('wait'), [row()], false);
  t.is(r.status, 'complete');
  t.deepEqual(missing, { past: false, txOpen: false });
  t.like(r.culprits[0], { holder: '18', tx_found: 1, tx_end_func: 'CommitTransaction', lock_found: 1, lock_text: 'ID=1', lock_match: 'exact', lock_ts: '2026-03-02 07:00:02.000000' });
  t.is(r.version, 2 * (1 + 5));
});

test('an open transaction leaves the episode partial until settled; more facts mean a higher version', (t) => {
  const open = row({ tx_end_found: 0, tx_end: EPOCH, tx_end_func: '', n_facts: 4 });
  const partial = resolveTjEpisode(base('wait'), [open], false);
  t.is(partial.row.status, 'partial');
  t.true(partial.missing.txOpen);
  const settled = resolveTjEpisode(base('wait'), [open], true);
  t.is(settled.row.status, 'settled');
  t.is(settled.row.version, partial.row.version + 1);
  t.true(resolveTjEpisode(base('wait'), [row()], false).row.version > settled.row.version);
  t.false(sameEpisode(partial.row, settled.row));
});

test('a timeout takes its request from its paired TLOCK; culprit 0 (none named) makes no entry', (t) => {
  const timeout = base('timeout', { ref_ts: '2026-03-02 07:00:10.000000', requested_regions: [], requested_locks: '', wait_connections: [] });
  const paired = resolveTjEpisode(timeout, [row({ kind: 'timeout', paired: 1 })], false).row;
  t.like(paired, { ref_ts: '2026-03-02 07:00:04.000000', requested_locks: 'R.REFLOCK Exclusive ID=1', status: 'complete' });
  const none = resolveTjEpisode(timeout, [row({ kind: 'timeout', culprit_connect_id: '0', ...{ tx_found: 0 } })], false).row;
  t.deepEqual(none.culprits, []);
  t.is(none.status, 'complete');
});

test('a deadlock has one entry per edge, in the edge\'s order, judged against the edge\'s own item', (t) => {
  const d = base('deadlock', { deadlock_intersections: '19 18 R.REFLOCK Exclusive ID=1,18 19 R.REFLOCK Exclusive ID=3', requested_locks: '' });
  const { row: r } = resolveTjEpisode(d, [row({ kind: 'deadlock' }), row({ kind: 'deadlock', victim_connect_id: '18', culprit_connect_id: '19', culprit_tlocks: [] })], false);
  t.deepEqual(r.culprits.map((c) => [c.waiter, c.holder, c.item, c.lock_found]), [['19', '18', 'ID=1', 1], ['18', '19', 'ID=3', 0]]);
  t.is(r.status, 'partial', 'the second holder\'s lock is not in the log yet');
});

test('a culprit without a user (a background job) is complete once its context is known; without a context it is partial', (t) => {
  t.is(resolveTjEpisode(base('wait'), [row({ culprit_user: '', tx_user: '' })], false).row.status, 'complete');
  const unknown = resolveTjEpisode(base('wait'), [row({ culprit_context: '' })], false);
  t.is(unknown.row.status, 'partial');
  t.true(unknown.missing.past);
});
