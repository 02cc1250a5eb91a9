// jsonlog (PG15+): keys mapped to event fields, omitted NULL keys, bad lines as IngestErrors, split invariance.
import test from 'ava';
import type { PgEvent } from '../../schemas/pg-event.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { createPgParser } from './index.js';

const ctx = { host: 'db1', source: 'pg', file: 'postgresql.json', file_key: 'k1', offset: 100 };

const J1 = '{"timestamp":"2026-11-30 14:09:45.948 UTC","user":"app","dbname":"shop","pid":15937,"remote_host":"127.0.0.1","remote_port":34842,"session_id":"6b0d83a9.3e41","line_num":4,"ps":"UPDATE waiting","session_start":"2026-11-30 14:09:45 UTC","vxid":"4/2","txid":732,"error_severity":"LOG","message":"process 15937 still waiting for ShareLock on transaction 731 after 100.061 ms","detail":"Process holding the lock: 15932. Wait queue: 15937.","context":"while updating tuple (0,1) in relation \\"accounts\\"","statement":"UPDATE accounts SET balance = balance + 10 WHERE id = 1;","application_name":"sessB","backend_type":"client backend","query_id":0}\n';
const J2 = '{"timestamp":"2026-11-30 14:09:51.586 UTC","user":"app","dbname":"shop","pid":16083,"session_id":"6b0d83af.3ed3","line_num":7,"error_severity":"ERROR","state_code":"57014","message":"canceling statement due to statement timeout","statement":"DELETE FROM accounts WHERE id = 6;","application_name":"stmt_to","backend_type":"client backend","query_id":0,"func_name":"ProcessInterrupts","file_name":"postgres.c","file_line_num":3306}\n';
const J3 = '{"timestamp":"2026-11-30 14:09:45.343 UTC","pid":15913,"session_id":"6b0d83a9.3e29","line_num":1,"error_severity":"LOG","message":"automatic analyze of table \\"shop.public.t\\"\\navg read rate: 1.562 MB/s, avg write rate: 1.562 MB/s","backend_type":"autovacuum worker","query_id":0}\n';
const JSONL = J1 + J2 + J3;

function parse(chunks: Buffer[]): { events: PgEvent[]; errors: IngestError[] } {
  const p = createPgParser({ ...ctx, format: 'jsonlog' });
  const events: PgEvent[] = [];
  const errors: IngestError[] = [];
  for (const c of [...chunks.map((x) => p.push(x)), p.finish()]) {
    events.push(...c.events);
    errors.push(...c.errors);
  }
  return { events, errors };
}

test('jsonlog: keys become event fields; absent state_code means 00000', (t) => {
  const { events, errors } = parse([Buffer.from(JSONL)]);
  t.deepEqual(errors, []);
  const [w, s, a] = events;
  t.like(w, {
    kind: 'lock_wait', ts: '2026-11-30T14:09:45.948Z', user: 'app', database: 'shop', pid: 15937, client: '127.0.0.1:34842',
    session_id: '6b0d83a9.3e41', line_num: 4, command_tag: 'UPDATE waiting', vxid: '4/2', xid: 732, sqlstate: '00000',
    application: 'sessB', query_id: '0', statement: 'UPDATE accounts SET balance = balance + 10 WHERE id = 1;',
  });
  t.is(w?.origin.offset, 100);
  t.like(s, { kind: 'statement_timeout', sqlstate: '57014', client: null, location: 'ProcessInterrupts, postgres.c:3306' });
  t.is(s?.origin.offset, 100 + Buffer.byteLength(J1));
  t.like(a, { kind: 'autoanalyze', user: null, backend_type: 'autovacuum worker' });
  t.deepEqual(a?.vacuum?.properties, { 'avg read rate': '1.562 MB/s, avg write rate: 1.562 MB/s' });
});

test('jsonlog: a line that is not a jsonlog object is an IngestError and parsing goes on', (t) => {
  const bad = '{"timestamp": broken\n';
  const envelope = '{"level":"info","msg":"record"}\n';
  const { events, errors } = parse([Buffer.from(bad + envelope + J2)]);
  t.is(events.length, 1);
  t.deepEqual(errors.map((e) => [e.kind, e.offset, e.length]), [
    ['invalid_json', 100, Buffer.byteLength(bad)],
    ['not_jsonlog', 100 + Buffer.byteLength(bad), Buffer.byteLength(envelope)],
  ]);
});

test('jsonlog: every split point gives the same events', (t) => {
  const whole = Buffer.from(JSONL);
  const ref = JSON.stringify(parse([whole]).events);
  for (let i = 1; i < whole.length; i++) {
    if (JSON.stringify(parse([whole.subarray(0, i), whole.subarray(i)]).events) !== ref) return t.fail(`split at ${i}`);
  }
  t.pass();
});

test('jsonlog: a 64-bit query id keeps all its digits', (t) => {
  const line = '{"timestamp":"2026-11-30 14:10:11.905 UTC","pid":17545,"error_severity":"LOG","message":"duration: 1.0 ms  statement: SELECT 1","query_id":-1249988261523267271}\n';
  t.is(parse([Buffer.from(line)]).events[0]?.query_id, '-1249988261523267271');
});
