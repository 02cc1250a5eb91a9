// RecordJsonWriter against JSON.stringify: sequences of records that mostly share a shape (as a parser's do), with
// values repeated from the record before (the copied runs), strings with escapes and non-ASCII, nested objects,
// arrays, and the values JSON.stringify treats specially (undefined, toJSON, -0, non-finite numbers, extra keys).
import test from 'ava';
import fc from 'fast-check';
import { NdjsonBuffer } from './ndjson-buffer.js';
import { RecordJsonWriter } from './record-json.js';

const KEYS = ['ts', 'kind', 'user', 'pid', 'message', 'detail', 'nested', 'list'];

const primitive = fc.oneof(
  fc.constant(null),
  fc.constantFrom('LOG', 'ERROR', '', 'a"b\\c', 'line\nbreak\ttab\u0001\u001f', 'Блокировка', '\ud800 lone', 'x'.repeat(5000)),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.constantFrom(0, -0, 2147483647, 2147483648, -1, 1.5, 1e21, 1e-7, Number.NaN, Number.POSITIVE_INFINITY),
  fc.boolean(),
);
const value = fc.oneof(
  { weight: 6, arbitrary: primitive },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', 'b', 'c'), primitive, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.array(primitive, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, { toJSON: () => 'j' }, new Date(0), { a: { b: { c: 1 } } }) },
);

/** A record of the common shape, a value kept from the previous record where `same` says so, or another shape. */
const record = fc.record({
  values: fc.array(value, { minLength: KEYS.length, maxLength: KEYS.length }),
  same: fc.array(fc.boolean(), { minLength: KEYS.length, maxLength: KEYS.length }),
  shape: fc.constantFrom('common', 'common', 'common', 'common', 'fewer', 'extra', 'reordered'),
});

test('writes each record as the bytes of JSON.stringify, in any sequence of shapes and repeats', (t) => {
  fc.assert(fc.property(fc.array(record, { minLength: 1, maxLength: 40 }), fc.integer({ min: 16, max: 4096 }), (records, capacity) => {
    const writer = new RecordJsonWriter();
    const out = new NdjsonBuffer(capacity);
    let expected = '';
    let previous: unknown[] = [];
    for (const r of records) {
      const vals = r.values.map((v, i) => (r.same[i] && i < previous.length ? previous[i] : v));
      previous = vals;
      const keys = r.shape === 'fewer' ? KEYS.slice(1) : r.shape === 'reordered' ? [...KEYS].reverse() : KEYS;
      const o: Record<string, unknown> = {};
      keys.forEach((k) => { o[k] = vals[KEYS.indexOf(k)]; });
      if (r.shape === 'extra') o.extra = 'x';
      expected += `${JSON.stringify(o)}\n`;
      writer.line(o, out);
    }
    t.is(out.take().toString('utf8'), expected);
  }), { numRuns: 500 });
});

test('a record written after a buffer was taken does not copy from the taken bytes', (t) => {
  const writer = new RecordJsonWriter();
  const out = new NdjsonBuffer(64);
  const a = { user: 'ivanov', pid: 1, message: 'm' };
  writer.line(a, out);
  const first = out.take();
  writer.line({ ...a, message: 'n' }, out);
  const second = out.take();
  t.is(first.toString(), `${JSON.stringify(a)}\n`);
  t.is(second.toString(), `${JSON.stringify({ ...a, message: 'n' })}\n`);
});
