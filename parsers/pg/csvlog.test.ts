// csvlog: quoting, raw newlines inside fields, the 23/24/26-column layouts, bad records as IngestErrors, and
// split invariance. Records are written the way csvlog.c writes them; expected values are read by hand.
import test from 'ava';
import type { PgEvent } from '../../schemas/pg-event.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { splitCsvRecord } from './csvlog.js';
import { createPgParser } from './index.js';

const ctx = { host: 'db1', source: 'pg', file: 'postgresql.csv', file_key: 'k1', offset: 0 };

// PG15, 26 columns: a lock wait whose statement spans two lines, then a deadlock with a 3-line detail.
const R1 = '2026-11-30 14:09:45.948 UTC,"app","shop",15937,"127.0.0.1:34842",6b0d83a9.3e41,4,"UPDATE waiting",2026-11-30 14:09:45 UTC,4/2,732,LOG,00000,"process 15937 still waiting for ShareLock on transaction 731 after 100.061 ms","Process holding the lock: 15932. Wait queue: 15937.",,,,"while updating tuple (0,1) in relation ""accounts""","UPDATE accounts\nSET balance = 1 WHERE id = 1;",,,"sessB","client backend",,0\n';
const R2 = '2026-11-30 14:09:49.314 UTC,"app","shop",16053,"127.0.0.1:1",6b0d83ad.3eb5,9,"UPDATE",2026-11-30 14:09:48 UTC,7/3,750,ERROR,40P01,"deadlock detected","Process 16053 waits for ShareLock on transaction 749; blocked by process 16049.\nProcess 16049 waits for ShareLock on transaction 750; blocked by process 16053.\nProcess 16053: UPDATE a","See server log for query details.",,,"while updating tuple (0,2) in relation ""accounts""","UPDATE a",,,"dl_right","client backend",,-42\n';
// PG12, 23 columns (anonymize.log shape) and PG13, 24 columns.
const R3 = '2021-01-22 10:03:22.785 CET,"aaaa","aaaa",1486,"127.0.0.1:52306",6009c305.5ce,32878,"SELECT",2021-01-21 19:08:05 CET,14/10903,0,LOG,00000,"duration: 26.120 ms  execute S_65: select 1","parameters: $1 = \'X\'",,,,,,,,"PostgreSQL JDBC Driver"\n';
const R4 = '2021-01-22 10:03:22.785 GMT,,,99,,6009c305.63,1,,2021-01-21 19:08:05 GMT,,0,LOG,00000,"checkpoint starting: time",,,,,,,,,"","checkpointer"\n';
const CSV = R1 + R2 + R3 + R4;

function parse(chunks: Buffer[]): { events: PgEvent[]; errors: IngestError[] } {
  const p = createPgParser({ ...ctx, format: 'csvlog' });
  const events: PgEvent[] = [];
  const errors: IngestError[] = [];
  for (const c of [...chunks.map((x) => p.push(x)), p.finish()]) {
    events.push(...c.events);
    errors.push(...c.errors);
  }
  return { events, errors };
}

test('csv fields: doubled quotes, NULL versus quoted empty', (t) => {
  t.deepEqual(splitCsvRecord('a,"b ""q"", c",,"",5'), ['a', 'b "q", c', null, '', '5']);
  t.is(splitCsvRecord('a,"b"x,c'), null);
  t.is(splitCsvRecord('a,"unterminated'), null);
});

test('csvlog: a 26-column record keeps the raw newline of its statement', (t) => {
  const { events, errors } = parse([Buffer.from(CSV)]);
  t.deepEqual(errors, []);
  t.is(events.length, 4);
  const w = events[0] as PgEvent;
  t.is(w.kind, 'lock_wait');
  t.is(w.ts, '2026-11-30T14:09:45.948Z');
  t.is(w.client, '127.0.0.1:34842');
  t.is(w.command_tag, 'UPDATE waiting');
  t.is(w.vxid, '4/2');
  t.is(w.xid, 732);
  t.is(w.statement, 'UPDATE accounts\nSET balance = 1 WHERE id = 1;');
  t.is(w.context, 'while updating tuple (0,1) in relation "accounts"');
  t.is(w.backend_type, 'client backend');
  t.is(w.query_id, '0');
  t.deepEqual(w.lock?.holder_pids, [15932]);
});

test('csvlog: deadlock participants from a multi-line detail, SQLSTATE from its column', (t) => {
  const d = parse([Buffer.from(CSV)]).events[1] as PgEvent;
  t.is(d.kind, 'deadlock');
  t.is(d.sqlstate, '40P01');
  t.is(d.query_id, '-42');
  t.is(d.origin.offset, Buffer.byteLength(R1));
  t.deepEqual(d.deadlock?.map((p) => [p.pid, p.blocked_by, p.statement]), [[16053, 16049, 'UPDATE a'], [16049, 16053, null]]);
});

test('csvlog: 23 (PG12) and 24 (PG13) column layouts', (t) => {
  const [, , a, b] = parse([Buffer.from(CSV)]).events as PgEvent[];
  t.is(a?.application, 'PostgreSQL JDBC Driver');
  t.is(a?.backend_type, null);
  t.is(a?.ts, '2021-01-22T09:03:22.785Z'); // CET = UTC+1 in January
  t.is(a?.statement_phase, 'execute');
  t.is(a?.detail, "parameters: $1 = 'X'");
  t.is(b?.backend_type, 'checkpointer');
  t.is(b?.application, null);
  t.is(b?.kind, 'checkpoint');
});

test('csvlog: every split point gives the same events', (t) => {
  const whole = Buffer.from(CSV);
  const ref = JSON.stringify(parse([whole]).events);
  for (let i = 1; i < whole.length; i++) {
    if (JSON.stringify(parse([whole.subarray(0, i), whole.subarray(i)]).events) !== ref) return t.fail(`split at ${i}`);
  }
  t.pass();
});

test('csvlog: settled stays at the start of a record that is still open', (t) => {
  const p = createPgParser({ ...ctx, format: 'csvlog' });
  const cut = R1.indexOf('\n') + 1; // inside the quoted statement
  t.is(p.push(Buffer.from(R1.slice(0, cut))).events.length, 0);
  t.is(p.settled, 0);
  t.is(p.push(Buffer.from(R1.slice(cut))).events.length, 1);
  t.is(p.settled, Buffer.byteLength(R1));
});

test('csvlog: a record with a wrong column count is an IngestError and the next record still parses', (t) => {
  const bad = '2026-11-30 14:09:45.948 UTC,"x",1,2\n';
  const { events, errors } = parse([Buffer.from(bad + R4)]);
  t.is(events.length, 1);
  t.is(errors.length, 1);
  t.like(errors[0], { offset: 0, length: Buffer.byteLength(bad), kind: 'csv_column_count', can_continue: true });
  t.is(errors[0]?.reason, 'csvlog record has 4 columns; expected 23 (PG ≤12), 24 (PG 13) or 26 (PG 14+)');
});

test('csvlog: a file cut inside a quoted field ends with an unterminated_quote error', (t) => {
  const cut = R4 + R1.slice(0, 200);
  const { events, errors } = parse([Buffer.from(cut)]);
  t.is(events.length, 1);
  t.like(errors[0], { kind: 'unterminated_quote', offset: Buffer.byteLength(R4), length: 200, can_continue: false });
});
