// The lock resolver's lookups at their bounds when several facts share one instant (ingest/locks/*.sql): a culprit's
// TLOCKs are numbered per connection and a pair takes those from the first at or after lower_ts to the last at or
// before ref_ts, and its fact count runs per instant. A TJ journal writes microseconds, so two events of one connection
// at one instant are rare; a lookup that took one of them and not the other would be wrong only then.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TupleParam } from '@clickhouse/client';
import { openTempStore, type TempStore } from './support/temp-store.js';
import { packageRoot } from '../ingest/store/package-root.js';

const sql = (name: string): string => readFileSync(join(packageRoot(), 'ingest', 'locks', name), 'utf8');
let store: TempStore;
test.before(async () => { store = await openTempStore('perfpipe-lookups-'); });
test.after.always(async () => { await store?.dispose(); });

const LOWER = '2026-01-01 10:00:00.000000';
const REF = '2026-01-01 10:00:10.000000';
const TS = '2026-01-01 10:00:11.500000';

test.serial('a pair takes every TLOCK of an instant at either bound of its range, and none outside it', async (t) => {
  const tlock = (ts: string, region: string, lock: string) => `('ib', 18, toDateTime64('${ts}', 6, 'UTC'), 'TLOCK', '', 'u', 'c', ['${region}'], '${lock}', 0)`;
  await store.client.command({
    query: `INSERT INTO tj_connection_events (infobase, connect_id, ts, event, func, user, context_first, regions, locks, escalating) VALUES ${[
      tlock('2026-01-01 09:59:59.999999', 'A', 'A x=0'), tlock(LOWER, 'A', 'A x=1'), tlock(LOWER, 'A', 'A x=2'), tlock('2026-01-01 10:00:05.000000', 'B', 'B x=9'),
      tlock(REF, 'A', 'A x=3'), tlock(REF, 'A', 'A x=4'), tlock('2026-01-01 10:00:10.000001', 'A', 'A x=5'),
    ].join(', ')}`,
  });
  const rs = await store.client.query({
    query: sql('tj-episode-tlocks.sql'), format: 'JSONEachRow',
    query_params: {
      ids: ['p'], infobases: ['ib'], culprits: [18], lowers: [LOWER], refs: [REF], regions: [['A']],
      connections: [new TupleParam(['ib', 18])], from: LOWER, to: REF,
    },
  });
  const [row] = await rs.json<{ id: string; culprit_tlocks: Array<[string, string[], string, string, string]> }>();
  t.is(row?.id, 'p');
  t.deepEqual(row!.culprit_tlocks.map((x) => `${x[0]} ${x[2]}`).sort(), [
    `${LOWER} A x=1`, `${LOWER} A x=2`, `${REF} A x=3`, `${REF} A x=4`,
  ]);
});

test.serial('a culprit\'s fact count takes every fact of an instant at either bound of [ref_ts − 1 h, ts + 1 h]', async (t) => {
  const fact = (ts: string, func = '') => `('ib', 27, toDateTime64('${ts}', 6, 'UTC'), 'SDBL', '${func}', 'u', 'c', [], '', 0)`;
  await store.client.command({
    query: `INSERT INTO tj_connection_events (infobase, connect_id, ts, event, func, user, context_first, regions, locks, escalating) VALUES ${[
      fact('2026-01-01 09:00:09.999999'), fact('2026-01-01 09:00:10.000000'), fact('2026-01-01 09:00:10.000000'),
      fact('2026-01-01 10:00:00.000000', 'BeginTransaction'), fact('2026-01-01 11:00:11.500000'), fact('2026-01-01 11:00:11.500000'),
      fact('2026-01-01 11:00:11.500001'),
    ].join(', ')}`,
  });
  const rs = await store.client.query({
    query: sql('tj-episode-culprits.sql'), format: 'JSONEachRow',
    query_params: {
      ids: ['p'], infobases: ['ib'], culprits: [27], refs: [REF], times: [TS], regions: [[]],
      connections: [new TupleParam(['ib', 27])], from: REF, to: TS,
    },
  });
  const [row] = await rs.json<{ id: string; n_facts: string; tx_found: number; tx_start: string }>();
  // Two at ref_ts − 1 h, the transaction's start, two at ts + 1 h; not the one a microsecond before or after.
  t.like(row, { id: 'p', n_facts: '5', tx_found: 1, tx_start: '2026-01-01 10:00:00.000000' });
});
