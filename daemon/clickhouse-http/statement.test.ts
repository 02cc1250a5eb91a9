import test from 'ava';
import { analyzeStatement } from './statement.js';

test('an INSERT with FORMAT: its data starts after the format name and the line break, its SETTINGS are kept apart', (t) => {
  const text = "INSERT INTO t (a, b) SETTINGS insert_deduplication_token = 'x;y' FORMAT RowBinary\n\x00\x01;;SELECT";
  const s = analyzeStatement(text);
  t.is(s.kind, 'INSERT');
  t.false(s.multiple, 'a ; in the data or in a string is no second statement');
  t.deepEqual(s.insert, {
    format: 'RowBinary', dataStart: text.indexOf('\x00'), headEnd: text.indexOf('SETTINGS'),
    settingsClause: "SETTINGS insert_deduplication_token = 'x;y'",
  });
});

test('INSERT … VALUES has its data from the keyword on; INSERT … SELECT has none, unless it reads input()', (t) => {
  const values = analyzeStatement("INSERT INTO t VALUES (1, 'a')");
  t.like(values.insert, { format: 'Values', dataStart: 'INSERT INTO t VALUES'.length });
  t.is(analyzeStatement('INSERT INTO t SELECT * FROM u').insert, null);
  t.true(analyzeStatement("INSERT INTO t SELECT * FROM input('a Int8') FORMAT CSV\n1").insertSelectWithData);
});

test('a result statement: its kind, its FORMAT, a second statement after ; and the functions it calls', (t) => {
  const s = analyzeStatement("WITH x AS (SELECT 1) SELECT count() FROM file('a') -- url('b')\nFORMAT JSONEachRow;");
  t.like(s, { kind: 'WITH', returnsRows: true, format: 'JSONEachRow', multiple: false });
  t.deepEqual(s.calls, ['count', 'file']);
  t.true(analyzeStatement('SELECT 1; SELECT 2').multiple);
  t.false(analyzeStatement('SELECT 1;  ').multiple);
  t.like(analyzeStatement('(SELECT 1) UNION ALL (SELECT 2)'), { kind: '(', returnsRows: true });
  t.true(analyzeStatement("SELECT 1 INTO OUTFILE 'x'").touchesFiles);
  t.deepEqual(analyzeStatement("SELECT `file`(1), \"url\" ('x'), 'file(' || $$url($$").calls, ['file', 'url']);
});
