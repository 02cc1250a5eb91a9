// The TJ writer against text written by hand from docs/tj-format.md §2–§3 (never produced by the writer itself).
import test from 'ava';
import { formatTjEvent, formatTjFile, formatTjHeader, formatTjValue, TjVersion, type TjRecord } from './tj-writer.js';
import { createLocalClock, tjFileName, tjProcessFolder } from './tj-layout.js';

const tlock: TjRecord = {
  minute: 5,
  second: 15,
  microsecond: 349002,
  duration_us: 15980,
  name: 'TLOCK',
  depth: 6,
  props: [
    ['process', 'rphost'],
    ['t:connectID', '17'],
    ['Regions', 'Reference28054.REFLOCK'],
    ['Locks', 'Reference28054.REFLOCK Exclusive Fld521=0 ID=28054:82b974867a58e0a211e7b64938b35cf4'],
    ['WaitConnections', ''],
  ],
};

test('an 8.3 event is a header with 6 fraction digits and µs duration, then name=value pairs', (t) => {
  t.is(
    formatTjEvent(tlock),
    "05:15.349002-15980,TLOCK,6,process=rphost,t:connectID=17,Regions=Reference28054.REFLOCK," +
      "Locks='Reference28054.REFLOCK Exclusive Fld521=0 ID=28054:82b974867a58e0a211e7b64938b35cf4',WaitConnections=\n",
  );
});

test('an 8.2 header keeps 4 fraction digits and counts the duration in 1/10000 s', (t) => {
  t.is(formatTjHeader(tlock, TjVersion.v82), '05:15.3490-159,TLOCK,6');
  t.is(formatTjHeader({ ...tlock, minute: 0, second: 3, microsecond: 99, duration_us: 99 }, TjVersion.v82), '00:03.0000-0,TLOCK,6');
});

test('small fields are zero-padded', (t) => {
  t.is(formatTjHeader({ ...tlock, minute: 0, second: 0, microsecond: 7, duration_us: 0, depth: 0 }), '00:00.000007-0,TLOCK,0');
});

test('plain values stay unquoted, even with spaces, colons, backslashes and Cyrillic', (t) => {
  t.is(formatTjValue('Форма.Записать : Документ.ДокументДляБлокировки.ФормаОбъекта'), 'Форма.Записать : Документ.ДокументДляБлокировки.ФормаОбъекта');
  t.is(formatTjValue('srv1c\\buh_test'), 'srv1c\\buh_test');
  t.is(formatTjValue('-8208'), '-8208');
});

test('an empty value is written as nothing after the equals sign', (t) => {
  t.is(formatTjValue(''), '');
});

test('a comma, an equals sign or a line break forces single quotes', (t) => {
  t.is(formatTjValue('17,18'), "'17,18'");
  t.is(formatTjValue('Ping direction closed on server: directionID=1'), "'Ping direction closed on server: directionID=1'");
  t.is(formatTjValue('SELECT\nT1._IDRRef'), "'SELECT\nT1._IDRRef'");
  t.is(formatTjValue('\nОбщийМодуль.Вызов : 12'), "'\nОбщийМодуль.Вызов : 12'");
});

test('a value holding an apostrophe but no double quote is written in double quotes', (t) => {
  t.is(formatTjValue("p_1: 'a7fe'::mvarchar"), `"p_1: 'a7fe'::mvarchar"`);
  t.is(formatTjValue("'"), `"'"`);
});

test('a value holding a double quote is single-quoted and keeps the double quote as is', (t) => {
  t.is(formatTjValue('Fld20643="мто"'), `'Fld20643="мто"'`);
  t.is(formatTjValue('"'), `'"'`);
});

test('a value holding both quote characters is single-quoted with the apostrophes doubled', (t) => {
  t.is(formatTjValue(`НСтр("ru = 'Обновление'")`), `'НСтр("ru = ''Обновление''")'`);
});

test('a repeated property name is written every time, in order', (t) => {
  const rec: TjRecord = { ...tlock, name: 'EXCP', props: [['Descr', 'a'], ['Descr', 'b,c'], ['Descr', '']] };
  t.is(formatTjEvent(rec), "05:15.349002-15980,EXCP,6,Descr=a,Descr='b,c',Descr=\n");
});

test('an event without properties keeps the trailing comma of the header', (t) => {
  t.is(formatTjEvent({ ...tlock, props: [] }), '05:15.349002-15980,TLOCK,6,\n');
});

test('CRLF applies to the event end and to line breaks inside values', (t) => {
  const rec: TjRecord = { ...tlock, name: 'EXCP', props: [['Descr', 'src\\a.cpp(1):\nerr']] };
  t.is(formatTjEvent(rec, { eol: '\r\n' }), "05:15.349002-15980,EXCP,6,Descr='src\\a.cpp(1):\r\nerr'\r\n");
});

test('a file starts with the UTF-8 BOM unless told otherwise', (t) => {
  const rec: TjRecord = { ...tlock, props: [['process', 'rphost']] };
  const withBom = formatTjFile([rec, { ...rec, microsecond: 349001 }], { eol: '\r\n' });
  t.is(withBom, '\uFEFF05:15.349002-15980,TLOCK,6,process=rphost\r\n05:15.349001-15980,TLOCK,6,process=rphost\r\n');
  t.deepEqual([...Buffer.from(withBom, 'utf8').subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  t.is(formatTjFile([rec], { bom: false }), '05:15.349002-15980,TLOCK,6,process=rphost\n');
  t.is(formatTjFile([]), '\uFEFF');
});

test('file names are the local hour as yymmddhh and folders are process_pid', (t) => {
  // 2026-03-29 00:30 UTC is 03:30 in Moscow (UTC+3, no DST) and 01:30 in London (BST started at 01:00 UTC).
  const at = new Date(Date.UTC(2026, 2, 29, 0, 30, 0));
  t.is(tjFileName(at, 'Europe/Moscow'), '26032903.log');
  t.is(tjFileName(at, 'Europe/London'), '26032900.log');
  t.is(tjFileName(new Date(Date.UTC(2026, 2, 29, 1, 30, 0)), 'Europe/London'), '26032902.log');
  t.is(tjProcessFolder('rphost', 12472), 'rphost_12472');
  t.is(tjProcessFolder('1CV8C', 22776), '1CV8C_22776');
});

test('the local clock splits an instant into hour file, minute, second and microsecond', (t) => {
  const clock = createLocalClock('Asia/Kolkata'); // UTC+05:30: the minute comes from the zone, not from UTC
  const epochUs = Date.UTC(2020, 7, 18, 10, 17, 14) * 1000 + 861002;
  t.deepEqual(clock(epochUs), { hour: '20081815', minute: 47, second: 14, microsecond: 861002 });
});
