// stderr framing through the public parser: entries, continuation lines, labels of the same pid, orphans, offsets,
// Russian output, and the split invariance the IncrementalParser contract promises. Expected values are read by hand
// from the sample below.
import test from 'ava';
import fc from 'fast-check';
import type { PgEvent } from '../../schemas/pg-event.js';
import { createPgParser } from './index.js';

const PREFIX = '%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ';
const P = (ms: string, pid: number, l: number, app = 'sessB'): string =>
  `2026-11-30 14:09:${ms} UTC [${pid}]: [${l}-1] user=app,db=shop,app=${app},client=127.0.0.1 `;

const LINES = [
  `${P('45.948', 15937, 4)}LOG:  process 15937 still waiting for ShareLock on transaction 731 after 100.061 ms`,
  `${P('45.948', 15937, 5)}DETAIL:  Process holding the lock: 15932. Wait queue: 15937.`,
  `${P('45.948', 15937, 6)}CONTEXT:  while updating tuple (0,1) in relation "accounts"`,
  `${P('45.948', 15937, 7)}STATEMENT:  UPDATE accounts SET balance = balance + 10 WHERE id = 1;`,
  `${P('47.047', 15932, 4, 'sessA')}LOG:  duration: 1501.607 ms  plan:`,
  '\tQuery Text: SELECT pg_sleep(1.5);',
  '\tResult  (cost=0.00..0.01 rows=1 width=4)',
  `${P('47.048', 15932, 5, 'sessA')}LOG:  duration: 1503.494 ms  statement: SELECT`,
  '\t\tpg_sleep(1.5);',
  'pg_ctl: could not start server',
  `${P('47.048', 15937, 8)}LOG:  process 15937 acquired ShareLock on transaction 731 after 1199.185 ms`,
  `${P('47.049', 15937, 9)}ERROR:  42P01: relation "nope" does not exist at character 15`,
  `${P('47.049', 15937, 10)}STATEMENT:  SELECT * FROM nope;`,
];
const LOG = `${LINES.join('\n')}\n`;
const offsetOfLine = (i: number): number => Buffer.byteLength(LINES.slice(0, i).map((l) => `${l}\n`).join(''));

const ctx = { host: 'db1', source: 'pg', file: 'postgresql.log', file_key: 'k1', offset: 0 };

function parseAll(chunks: Buffer[], offset = 0, prefix = PREFIX): { events: PgEvent[]; errors: number } {
  const p = createPgParser({ ...ctx, offset, format: 'stderr', prefix });
  const events: PgEvent[] = [];
  let errors = 0;
  for (const c of chunks) {
    const o = p.push(c);
    events.push(...o.events);
    errors += o.errors.length;
  }
  const o = p.finish();
  return { events: [...events, ...o.events], errors: errors + o.errors.length };
}

test('stderr: an entry gathers its DETAIL, CONTEXT and STATEMENT lines of the same pid', (t) => {
  const { events, errors } = parseAll([Buffer.from(LOG)]);
  t.is(errors, 0);
  t.is(events.length, 6);
  const w = events[0] as PgEvent;
  t.is(w.kind, 'lock_wait');
  t.is(w.ts, '2026-11-30T14:09:45.948Z');
  t.is(w.pid, 15937);
  t.is(w.line_num, 4);
  t.is(w.application, 'sessB');
  t.is(w.detail, 'Process holding the lock: 15932. Wait queue: 15937.');
  t.is(w.context, 'while updating tuple (0,1) in relation "accounts"');
  t.is(w.statement, 'UPDATE accounts SET balance = balance + 10 WHERE id = 1;');
  t.deepEqual(w.lock, {
    phase: 'still_waiting', pid: 15937, mode: 'ShareLock', object_kind: 'transaction', object: 'transaction 731',
    relation_oid: null, database_oid: null, page: null, tuple: null, transaction_id: 731, virtual_transaction: null,
    relation_name: 'accounts', lock_keys: null, wait_ms: 100.061, holder_pids: [15932], queue_pids: [15937],
  });
  t.is(w.origin.offset, 0);
});

test('stderr: TAB lines continue the field before them, losing exactly one TAB', (t) => {
  const { events } = parseAll([Buffer.from(LOG)]);
  const plan = events[1] as PgEvent;
  t.is(plan.kind, 'auto_explain');
  t.is(plan.duration_ms, 1501.607);
  t.is(plan.plan, 'Query Text: SELECT pg_sleep(1.5);\nResult  (cost=0.00..0.01 rows=1 width=4)');
  const st = events[2] as PgEvent;
  t.is(st.kind, 'duration');
  t.is(st.statement, 'SELECT\n\tpg_sleep(1.5);');
  t.is(st.origin.offset, offsetOfLine(7));
});

test('stderr: a line with neither prefix nor TAB is kept as a raw entry without severity', (t) => {
  const { events } = parseAll([Buffer.from(LOG)]);
  const raw = events[3] as PgEvent;
  t.is(raw.severity, null);
  t.is(raw.kind, 'other');
  t.is(raw.message, 'pg_ctl: could not start server');
  t.is(raw.origin.offset, offsetOfLine(9));
});

test('stderr: verbose SQLSTATE is lifted out of the message', (t) => {
  const { events } = parseAll([Buffer.from(LOG)]);
  const err = events[5] as PgEvent;
  t.is(err.kind, 'error');
  t.is(err.sqlstate, '42P01');
  t.is(err.message, 'relation "nope" does not exist at character 15');
  t.is(err.statement, 'SELECT * FROM nope;');
});

test('stderr: a DETAIL line of another pid does not join the open entry', (t) => {
  const log = `${LINES[0]}\n${P('45.949', 4242, 2)}DETAIL:  stray\n`;
  const { events } = parseAll([Buffer.from(log)]);
  t.is(events.length, 2);
  t.is((events[0] as PgEvent).detail, null);
  t.is((events[1] as PgEvent).detail, 'stray');
  t.is((events[1] as PgEvent).pid, 4242);
});

test('stderr: the last line without a newline is flushed by finish', (t) => {
  const { events } = parseAll([Buffer.from(LINES[0] ?? '')]);
  t.is(events.length, 1);
  t.is((events[0] as PgEvent).lock?.wait_ms, 100.061);
});

test('stderr: every split point gives the same events as the whole file', (t) => {
  const whole = Buffer.from(LOG);
  const ref = parseAll([whole]).events;
  for (let i = 1; i < whole.length; i++) {
    const got = parseAll([whole.subarray(0, i), whole.subarray(i)]).events;
    if (JSON.stringify(got) !== JSON.stringify(ref)) return t.fail(`split at byte ${i} differs`);
  }
  t.pass();
});

test('stderr: any set of split points gives the same events (property)', (t) => {
  const whole = Buffer.from(LOG + RU);
  const ref = JSON.stringify(parseAll([whole]).events);
  fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 1, max: whole.length - 1 }), { maxLength: 12 }), (cuts) => {
    const points = [0, ...[...cuts].sort((a, b) => a - b), whole.length];
    const chunks = points.slice(1).map((end, i) => whole.subarray(points[i], end));
    return JSON.stringify(parseAll(chunks).events) === ref;
  }), { numRuns: 300 });
  t.pass();
});

test('stderr: restarting a fresh parser at `settled` gives the events still to come', (t) => {
  const whole = Buffer.from(LOG);
  const ref = parseAll([whole]).events;
  for (let i = 1; i < whole.length; i++) {
    const p = createPgParser({ ...ctx, format: 'stderr', prefix: PREFIX });
    const first = p.push(whole.subarray(0, i)).events;
    const settled = p.settled;
    t.true(settled <= i);
    const rest = parseAll([whole.subarray(settled)], settled).events;
    if (JSON.stringify([...first, ...rest]) !== JSON.stringify(ref)) return t.fail(`restart after byte ${i} differs`);
  }
  t.pass();
});

test('stderr: byte-by-byte feeding equals whole feeding, including multi-byte UTF-8', (t) => {
  const ru = '2026-11-30 14:20:01.100 MSK [16883] СООБЩЕНИЕ:  процесс 16883 продолжает ожидать в режиме ShareLock блокировку "транзакция 913" в течение 102.498 мс\n';
  const whole = Buffer.from(ru + ru);
  const p = createPgParser({ ...ctx, format: 'stderr', prefix: '%m [%p] ' });
  const got: PgEvent[] = [];
  for (let i = 0; i < whole.length; i++) got.push(...p.push(whole.subarray(i, i + 1)).events);
  got.push(...p.finish().events);
  const ref = parseAll([whole], 0, '%m [%p] ').events;
  t.is(got.length, 2);
  t.is((got[0] as PgEvent).message.slice(0, 7), 'процесс');
  t.deepEqual(got, ref);
});

const RU = [
  '2026-11-30 14:20:01.100 MSK [16883] СООБЩЕНИЕ:  процесс 16883 продолжает ожидать в режиме ShareLock блокировку "транзакция 913" в течение 102.498 мс',
  '2026-11-30 14:20:01.100 MSK [16883] ПОДРОБНОСТИ:  Process holding the lock: 16880. Wait queue: 16883.',
  '2026-11-30 14:20:01.100 MSK [16883] КОНТЕКСТ:  при изменении кортежа (0,1) в отношении "accounts"',
  '2026-11-30 14:20:01.100 MSK [16883] ОПЕРАТОР:  UPDATE accounts SET balance = 0 WHERE id = 1;',
  '2026-11-30 14:20:02.000 MSK [16883] ОШИБКА:  выполнение оператора отменено из-за тайм-аута блокировки',
  '2026-11-30 14:20:02.500 MSK [16890] СООБЩЕНИЕ:  продолжительность: 1208.347 мс, оператор: UPDATE accounts SET x = 1',
  '2026-11-30 14:20:03.000 MSK [16891] ВАЖНО:  база данных "no_such_db" не существует',
].join('\n');

test('stderr: a Russian log gives the same typed events as an English one', (t) => {
  const p = createPgParser({ ...ctx, format: 'stderr', prefix: '%m [%p] ', tz: 'Europe/Moscow' });
  const ev = [...p.push(Buffer.from(RU)).events, ...p.finish().events];
  t.deepEqual(ev.map((e) => [e.kind, e.severity]), [
    ['lock_wait', 'LOG'], ['lock_timeout', 'ERROR'], ['duration', 'LOG'], ['fatal', 'FATAL'],
  ]);
  const w = ev[0] as PgEvent;
  t.is(w.ts, '2026-11-30T11:20:01.100Z'); // MSK = UTC+3
  t.is(w.lang, 'ru');
  t.is(w.lock?.object, 'transaction 913');
  t.is(w.lock?.transaction_id, 913);
  t.is(w.lock?.wait_ms, 102.498);
  t.deepEqual(w.lock?.holder_pids, [16880]);
  t.is(w.lock?.relation_name, 'accounts');
  t.is(w.statement, 'UPDATE accounts SET balance = 0 WHERE id = 1;');
  t.is((ev[2] as PgEvent).duration_ms, 1208.347);
  t.is((ev[2] as PgEvent).statement, 'UPDATE accounts SET x = 1');
});

test('stderr: a line longer than maxRecordBytes becomes one IngestError and the next line still parses', (t) => {
  const long = `${P('45.000', 1, 1)}LOG:  statement: SELECT '${'x'.repeat(5000)}'\n`;
  const p = createPgParser({ ...ctx, format: 'stderr', prefix: PREFIX, maxRecordBytes: 1000 });
  const outs = [p.push(Buffer.from(long.slice(0, 2000))), p.push(Buffer.from(long.slice(2000) + LINES[0])), p.finish()];
  const errors = outs.flatMap((o) => o.errors);
  const events = outs.flatMap((o) => o.events);
  t.deepEqual(errors.map((e) => [e.kind, e.offset, e.length]), [['oversized_record', 0, Buffer.byteLength(long)]]);
  t.is(errors[0]?.excerpt.length, 512);
  t.deepEqual(events.map((e) => [e.kind, e.origin.offset]), [['lock_wait', Buffer.byteLength(long)]]);
});

test('stderr: a line in WIN1251 (postmaster locale) among UTF-8 lines is still read', (t) => {
  // А..я are 0xC0..0xFF in WIN1251.
  const cp1251 = (s: string): Buffer => Buffer.from([...s].map((c) => (c >= 'А' && c <= 'я' ? c.charCodeAt(0) - 0x410 + 0xc0 : c.charCodeAt(0))));
  const utf8Line = Buffer.from('2026-11-30 14:20:00.000 UTC [1] СООБЩЕНИЕ:  продолжительность: 1.5 мс, оператор: SELECT 1\n');
  const winLine = Buffer.concat([cp1251('2026-11-30 14:20:01.000 UTC [2] ОШИБКА:  тест'), Buffer.from('\n')]);
  const p = createPgParser({ ...ctx, format: 'stderr', prefix: '%m [%p] ' });
  const ev = [...p.push(Buffer.concat([utf8Line, winLine])).events, ...p.finish().events];
  t.deepEqual(ev.map((e) => [e.severity, e.message]), [['LOG', 'продолжительность: 1.5 мс, оператор: SELECT 1'], ['ERROR', 'тест']]);
});

const INTERLEAVED = [
  `${P('45.948', 15937, 4)}LOG:  process 15937 still waiting for ShareLock on transaction 731 after 100.061 ms`,
  `${P('45.948', 15961, 4, 'sessC')}LOG:  process 15961 still waiting for ExclusiveLock on tuple (0,1) of relation 16386 of database 16385 after 100.162 ms`,
  `${P('45.948', 15937, 5)}DETAIL:  Process holding the lock: 15932. Wait queue: 15937.`,
  `${P('45.948', 15961, 5, 'sessC')}DETAIL:  Process holding the lock: 15937. Wait queue: 15961.`,
  `${P('45.948', 15961, 6, 'sessC')}STATEMENT:  UPDATE accounts SET balance = balance + 1`,
  '\tWHERE id = 1;',
  `${P('45.948', 15937, 6)}STATEMENT:  UPDATE accounts SET balance = balance + 10 WHERE id = 1;`,
].join('\n');

function parseInterleaved(chunks: Buffer[], offset = 0): PgEvent[] {
  const p = createPgParser({ ...ctx, offset, format: 'stderr', prefix: PREFIX, interleavedLines: 4 });
  return [...chunks.flatMap((c) => p.push(c).events), ...p.finish().events];
}

test('stderr without the collector: interleaved label lines find the entry of their pid', (t) => {
  const ev = parseInterleaved([Buffer.from(INTERLEAVED)]);
  t.deepEqual(ev.map((e) => [e.pid, e.lock?.holder_pids, e.statement]), [
    [15937, [15932], 'UPDATE accounts SET balance = balance + 10 WHERE id = 1;'],
    [15961, [15937], 'UPDATE accounts SET balance = balance + 1\nWHERE id = 1;'],
  ]);
  // Collector mode (the default) does not look back: the label lines become entries of their own
  // (A, B, A's DETAIL, B's DETAIL with B's STATEMENT joined to it, A's STATEMENT).
  t.deepEqual(parseAll([Buffer.from(INTERLEAVED)]).events.map((e) => [e.pid, e.message === '' ? 'label' : 'primary']), [
    [15937, 'primary'], [15961, 'primary'], [15937, 'label'], [15961, 'label'], [15937, 'label'],
  ]);
});

test('stderr without the collector: every split point and every restart at `settled` agree', (t) => {
  const whole = Buffer.from(INTERLEAVED);
  const ref = JSON.stringify(parseInterleaved([whole]));
  for (let i = 1; i < whole.length; i++) {
    if (JSON.stringify(parseInterleaved([whole.subarray(0, i), whole.subarray(i)])) !== ref) return t.fail(`split at ${i}`);
    const p = createPgParser({ ...ctx, format: 'stderr', prefix: PREFIX, interleavedLines: 4 });
    const first = p.push(whole.subarray(0, i)).events;
    const rest = parseInterleaved([whole.subarray(p.settled)], p.settled);
    if (JSON.stringify([...first, ...rest]) !== ref) return t.fail(`restart after ${i}`);
  }
  t.pass();
});
