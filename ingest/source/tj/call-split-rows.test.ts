// The accountants of a TJ source: one per process folder across its hour files, `resumed` after a restart (the calls
// that began before the first event read are flagged partial, not silently short), and the row a closed split becomes.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallFact } from '../../../parsers/tj/calls/thread-accounts.js';
import { TjCallSplitRowSchema } from '../../../schemas/tj-call-split-row.js';
import { callSplitRow, createCallAccountBook, STATEMENTS_KEPT } from './call-split-rows.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-call-book-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));
const folder = join(work, 'rphost_1234');
mkdirSync(folder);
const h11 = join(folder, '26113011.log');
const h12 = join(folder, '26113012.log');
writeFileSync(h11, '');
writeFileSync(h12, '');

const fact = (kind: CallFact['kind'], end: number, duration: number, more: Partial<CallFact> = {}): CallFact =>
  ({ kind, end_us: end, duration_us: duration, thread: '7', connect: '17', cpu_us: null, call_wait_us: null, statement: null, dbpid: null, position: 0, ...more });
const LINE = { host: 'h', process: 'rphost', pid: 1234, infobase: 'ib', connect_id: 17, session_id: 3, os_thread: 7, user: 'u', context_first: 'Форма.Вызов' };

test('a call that began in one hour file and ended in the next gets the events of both: one accountant per folder', (t) => {
  const book = createCallAccountBook();
  const a = book.accountFor(h11, 0);
  a.push(fact('db', 3_599_000_000, 400_000, { statement: 'q', dbpid: 55 }));
  t.is(book.accountFor(h12, 0), a);
  a.push(fact('db', 3_600_500_000, 300_000, { statement: 'q', dbpid: 55 }));
  const split = a.push(fact('call', 3_601_000_000, 2_000_000, { cpu_us: 100_000, call_wait_us: 0 }));
  t.is(split?.db_us, 700_000);
  t.deepEqual(split?.dbpids, [55]);
  t.false(split?.flags.partial);
});

test('after a restart reading resumes mid-journal: calls that began before the first event read are flagged partial', (t) => {
  // Resumed inside the 12 o'clock file (a checkpoint), or at its start with the 11 o'clock file read before.
  for (const [file, offset] of [[h12, 4096], [h12, 0]] as const) {
    const a = createCallAccountBook().accountFor(file, offset);
    a.push(fact('db', 3_600_500_000, 300_000));
    const before = a.push(fact('call', 3_601_000_000, 2_000_000, { cpu_us: 0, call_wait_us: 0 }));
    t.true(before?.flags.partial, `${file}@${offset}`);
    t.deepEqual(callSplitRow(before!, LINE, 'fk', 100).flags, ['partial']);
    a.push(fact('db', 3_602_000_000, 100_000));
    const after = a.push(fact('call', 3_602_500_000, 1_000_000, { cpu_us: 0, call_wait_us: 0 }));
    t.false(after?.flags.partial);
  }
  // Read from the start of the folder's first file: nothing was missed.
  const fresh = createCallAccountBook().accountFor(h11, 0);
  fresh.push(fact('db', 3_000_500_000, 300_000));
  t.false(fresh.push(fact('call', 3_001_000_000, 2_000_000, { cpu_us: 0, call_wait_us: 0 }))?.flags.partial);
});

test('a split becomes a row its schema takes; statements beyond those kept are summed under sql_hash 0', (t) => {
  const a = createCallAccountBook().accountFor(h11, 0);
  for (let i = 0; i < STATEMENTS_KEPT + 3; i++) a.push(fact('db', 1_000_000 + i * 1000, 100 + i, { statement: String(1000 + i), dbpid: 9 }));
  const split = a.push(fact('call', 1_100_000, 200_000, { cpu_us: 5_000, call_wait_us: 1_000 }));
  const row = TjCallSplitRowSchema.parse(callSplitRow(split!, LINE, 'fk', 4242));
  t.is(row.sql_hashes.length, STATEMENTS_KEPT + 1);
  t.is(row.sql_hashes.at(-1), '0');
  t.is(row.sql_counts.at(-1), 3);
  t.is(row.sql_us.at(-1), 100 + 101 + 102);
  t.is(row.sql_us.reduce((x, y) => x + y, 0), row.db_us);
  t.is(row.ts, '1970-01-01 00:00:01.100000');
  t.is(row.ts_start, '1970-01-01 00:00:00.900000');
  t.deepEqual([row.db_us + row.lock_wait_us + row.cpu_us + row.thread_wait_us + row.other_us, row.duration_us], [200_000, 200_000]);
  t.deepEqual(row.dbpids, [9]);
  t.is(row.file_offset, 4242);
});
