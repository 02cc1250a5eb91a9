import test from 'ava';
import { columnsOf, encodeJsonCompactRows } from './row-encoding.js';

const rows = [
  { ts: '2026-03-02 10:00:00.000001', text: 'Иванов "кавычки" \\ обратная\nновая строка\tтаб', n: 42, none: null, list: ['a', 'b'], props: { 'p:x': 'y' } },
  { ts: '2026-03-02 10:00:00.000002', text: '', n: 0, none: 7, list: [], props: {} },
];

test('each row is one line holding its values in column order, exactly as JSON', (t) => {
  const columns = columnsOf(rows);
  const lines = encodeJsonCompactRows(rows, columns).toString('utf8').split('\n');
  t.is(lines.pop(), '', 'the payload ends with a newline');
  t.deepEqual(lines.map((l) => JSON.parse(l)), rows.map((r) => columns.map((c) => (r as Record<string, unknown>)[c])));
});

test('a buffer smaller than the payload grows without losing bytes already written', (t) => {
  const many = Array.from({ length: 2000 }, (_, i) => ({ i, s: 'ё'.repeat(i % 300) }));
  const body = encodeJsonCompactRows(many, ['i', 's'], 16);
  const lines = body.toString('utf8').trimEnd().split('\n');
  t.is(lines.length, many.length);
  t.deepEqual(JSON.parse(lines[1999] as string), [1999, 'ё'.repeat(1999 % 300)]);
});

test('a column missing from a row is null, so the columns after it keep their place', (t) => {
  const body = encodeJsonCompactRows([{ a: 1, c: 3 }], ['a', 'b', 'c']).toString('utf8');
  t.is(body, '[1,null,3]\n');
});
