import test from 'ava';
import { createTjParser, propsObject } from './index.js';
import type { TjEvent } from '../../schemas/tj-event.js';
import type { IngestError } from '../../schemas/ingest-error.js';

const props = (e: TjEvent | undefined) => propsObject(e?.properties ?? []);

const ctx = { host: 'h', source: 'tj', file: 'rphost_1/21102215.log', file_key: 'k', offset: 0, hour: '21102215', tz: 'Europe/Moscow' };

function parseWhole(bytes: Buffer, extra: Partial<Omit<typeof ctx, 'hour'>> & { hour?: string | null } = {}): { events: TjEvent[]; errors: IngestError[] } {
  const p = createTjParser({ ...ctx, ...extra });
  const a = p.push(bytes);
  const b = p.finish();
  return { events: [...a.events, ...b.events], errors: [...a.errors, ...b.errors] };
}

function parseSplit(bytes: Buffer, cuts: number[]): { events: TjEvent[]; errors: IngestError[] } {
  const p = createTjParser(ctx);
  const events: TjEvent[] = [];
  const errors: IngestError[] = [];
  let prev = 0;
  for (const c of [...cuts, bytes.length]) {
    const r = p.push(bytes.subarray(prev, c));
    events.push(...r.events);
    errors.push(...r.errors);
    prev = c;
  }
  const r = p.finish();
  return { events: [...events, ...r.events], errors: [...errors, ...r.errors] };
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const sample = Buffer.concat([BOM, Buffer.from(
  "05:15.349002-15980,TLOCK,6,process=rphost,p:processName=BP30SQL,t:connectID=17,Regions=Reference28054.REFLOCK,Locks='Reference28054.REFLOCK Exclusive Fld521=0 ID=28054:82b974867a58e0a211e7b64938b35cf4',WaitConnections=,Context='\r\nОбщийМодуль.Вызов : 12 : Сделать();\r\n\tОбщийМодуль.Другой : 3 : А()'\r\n" +
  "32:27.857000-0,TTIMEOUT,5,process=rphost,WaitConnections=18,Context=Форма.Записать : Документ.ДокументДляБлокировки.ФормаОбъекта\r\n" +
  "00:00.172000-1003,DBPOSTGRS,4,Sql='SELECT 1 WHERE x = ''a''\n12:34.567890-1,NOTANEVENT,1,',Prm=\"p_1: 'x'::mvarchar\",Usr=A,Usr=B,Usr=C,RowsAffected=1\n" +
  "45:36.115007-0,TDEADLOCK,6,DeadlockConnectionIntersections='17 18 Reference10.REFLOCK Exclusive ID=10:9d31, 18 17 Reference10.REFLOCK Exclusive ID=10:95aa'\n" +
  '47:14.8610-2,DB2,3,\n' +
  '50:00.000000-3,Context,3,Context=x\n\n'
)]);

test('a realistic sample gives each event with exact values', (t) => {
  const { events, errors } = parseWhole(sample);
  t.deepEqual(errors, []);
  t.deepEqual(events.map((e) => e.event), ['TLOCK', 'TTIMEOUT', 'DBPOSTGRS', 'TDEADLOCK', 'DB2', 'Context']);
  const [tlock, , db, , db2] = events as [TjEvent, TjEvent, TjEvent, TjEvent, TjEvent];
  t.is(props(tlock).Locks, 'Reference28054.REFLOCK Exclusive Fld521=0 ID=28054:82b974867a58e0a211e7b64938b35cf4');
  t.is(props(tlock).WaitConnections, '');
  t.is(props(tlock).Context, '\nОбщийМодуль.Вызов : 12 : Сделать();\n\tОбщийМодуль.Другой : 3 : А()');
  t.is(tlock.origin.offset, 3, 'offsets count the BOM');
  // Moscow is UTC+3 all year since 2014: 2021-10-22 15:05:15.349002 local = 12:05:15.349002Z.
  t.is(tlock.ts, '2021-10-22T12:05:15.349002Z');
  t.is(tlock.ts_start, '2021-10-22T12:05:15.333022Z');
  t.is(tlock.duration_us, 15980);
  t.is(tlock.depth, 6);
  t.is(props(db).Sql, "SELECT 1 WHERE x = 'a'\n12:34.567890-1,NOTANEVENT,1,");
  t.is(props(db).Prm, "p_1: 'x'::mvarchar");
  t.deepEqual(props(db).Usr, ['A', 'B', 'C']);
  t.is(db2.duration_us, 200, '8.2 durations are 1/10000 s');
  t.is(db2.ts, '2021-10-22T12:47:14.861000Z');
  t.deepEqual(db2.properties, []);
});

test('feeding the input split at any byte gives the same events as feeding it whole', (t) => {
  const whole = parseWhole(sample);
  for (let i = 0; i <= sample.length; i++) {
    t.deepEqual(parseSplit(sample, [i]), whole, `split at ${i}`);
  }
  for (let i = 0; i + 7 <= sample.length; i += 7) {
    t.deepEqual(parseSplit(sample, [i, i + 3, i + 7]), whole, `splits at ${i}`);
  }
});

test('a partial last line is held back until it is complete or the file is finished', (t) => {
  const p = createTjParser(ctx);
  const r1 = p.push(Buffer.from('00:01.000000-5,CALL,1,Context=a\n00:02.000000-5,CALL,1,Cont'));
  t.is(r1.events.length, 1);
  t.is(p.settled, 32);
  const r2 = p.push(Buffer.from('ext=b\n'));
  t.is(r2.events.length, 1);
  t.is(props(r2.events[0]).Context, 'b');
  t.is(p.settled, 64);
  const r3 = p.push(Buffer.from('00:03.000000-5,CALL,1,Context=c'));
  t.is(r3.events.length, 0);
  t.is(props(p.finish().events[0]).Context, 'c');
});

test('an unterminated quote is an ingest error and the events after its line are kept', (t) => {
  const text = '00:01.000000-5,CALL,1,Context=a\n00:02.000000-5,EXCP,1,Descr=\'never closed\n00:03.000000-5,CALL,1,Context=c\n';
  const { events, errors } = parseWhole(Buffer.from(text));
  t.deepEqual(events.map((e) => props(e).Context), ['a', 'c']);
  t.is(errors.length, 1);
  t.like(errors[0], { kind: 'unterminated_quote', offset: 32, length: 42, file: ctx.file });
  t.is(errors[0]?.reason, 'rphost_1/21102215.log at offset 32: a quoted value opened at offset 60 is never closed before the end of the file; the event was dropped and reading resumed at offset 74');
});

test('garbage lines become one ingest error with their offset and parsing goes on', (t) => {
  const text = '00:01.000000-5,CALL,1,Context=a\nhello world\n\u0000\u0001binary\n00:03.000000-5,CALL,1,Context=c\n';
  const { events, errors } = parseWhole(Buffer.from(text));
  t.deepEqual(events.map((e) => props(e).Context), ['a', 'c']);
  t.is(errors.length, 1);
  t.like(errors[0], { kind: 'garbage_line', offset: 32, length: 21 });
});

test('invalid UTF-8 is reported with the offset of the bad byte and the event is kept', (t) => {
  const bytes = Buffer.concat([Buffer.from('00:01.000000-5,CALL,1,Usr=ab'), Buffer.from([0xff]), Buffer.from('c\n')]);
  const { events, errors } = parseWhole(bytes);
  t.is(events.length, 1);
  t.is(props(events[0]).Usr, 'ab\uFFFDc');
  t.like(errors[0], { kind: 'invalid_utf8', offset: 28, length: 1 });
});

test('a file holding only a BOM gives nothing', (t) => {
  t.deepEqual(parseWhole(BOM), { events: [], errors: [] });
});

test('a value of 1.7 MB spanning thousands of lines passes whole, fed in 64 KiB chunks', (t) => {
  const line = "INSERT INTO #tt1 VALUES ('x''y', 1)\n";
  const big = line.repeat(50_000);
  const text = `00:01.000000-5,SDBL,3,Func=insertRecords,Sdbl='${big.replaceAll("'", "''")}',Rows=1\n00:02.000000-1,CALL,1\n`;
  const bytes = Buffer.from(text);
  const cuts: number[] = [];
  for (let i = 65536; i < bytes.length; i += 65536) cuts.push(i);
  const { events, errors } = parseSplit(bytes, cuts);
  t.deepEqual(errors, []);
  t.is(events.length, 2);
  t.is(props(events[0]).Sdbl, big);
  t.is(props(events[0]).Rows, '1');
});

test('the plain-placement header with a full local time is understood', (t) => {
  const { events } = parseWhole(Buffer.from('2023-08-01T15:01:45.259000-14998,CALL,1,Usr=a\n'), { hour: null });
  t.is(events[0]?.ts, '2023-08-01T12:01:45.259000Z');
  t.is(events[0]?.ts_start, '2023-08-01T12:01:45.244002Z');
});

test('local time converts through daylight saving changes, the repeated hour to its first pass', (t) => {
  const at = (hour: string, line: string, tz: string) => {
    const p = createTjParser({ ...ctx, hour, tz });
    return [...p.push(Buffer.from(`${line}\n`)).events, ...p.finish().events][0]?.ts;
  };
  // Berlin 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:30 happens at 00:30Z and again at 01:30Z.
  t.is(at('26102502', '30:00.000000-0,X,0,', 'Europe/Berlin'), '2026-10-25T00:30:00.000000Z');
  // Berlin 2026-03-29: 02:00 CET jumps to 03:00 CEST; 03:30 CEST is 01:30Z.
  t.is(at('26032903', '30:00.000000-0,X,0,', 'Europe/Berlin'), '2026-03-29T01:30:00.000000Z');
  t.is(at('26010100', '00:00.000001-0,X,0,', 'Asia/Kolkata'), '2025-12-31T18:30:00.000001Z');
});
