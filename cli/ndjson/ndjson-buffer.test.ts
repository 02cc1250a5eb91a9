// NdjsonBuffer's lines against JSON.stringify itself: `records` (one stringify per list, cut between records) gives
// the bytes of a `${JSON.stringify(record)}\n` per record, however the records try to fool the cut.
import test from 'ava';
import fc from 'fast-check';
import { NdjsonBuffer } from './ndjson-buffer.js';

const oneByOne = (list: unknown[]): string => list.map((r) => `${JSON.stringify(r) ?? ''}\n`).join('');

function viaRecords(list: unknown[]): string {
  const out = new NdjsonBuffer(8); // small, so that growing is exercised
  out.records(list);
  return out.take().toString('utf8');
}

const text = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('},{"id":', '"},{"id":"', '\\', '\u2028', 'я😀', '\ud800'));
const leaf = fc.oneof(text, fc.double(), fc.integer(), fc.constantFrom(null, true, undefined, -0, NaN));
/** Records that mostly start with `id`, some holding arrays of objects that start with `id` too. */
const record = fc.letrec((tie) => ({
  record: fc.tuple(fc.oneof(leaf, fc.constant(undefined)), fc.dictionary(fc.constantFrom('a', 'b', 'id', '__proto__', '1'), tie('value'), { maxKeys: 4 }))
    .map(([id, rest]) => ({ id, ...rest })),
  value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('record'), { maxLength: 3 }), tie('record')),
})).record;
const lists = fc.array(fc.oneof({ weight: 8, arbitrary: record }, { weight: 1, arbitrary: fc.oneof(leaf, fc.constant({}), fc.constant({ b: 1, id: 2 })) }), { maxLength: 8 });

test('records gives the bytes of JSON.stringify of each record, one per line', (t) => {
  fc.assert(fc.property(lists, (list) => { t.is(viaRecords(list), oneByOne(list)); }), { numRuns: 3000 });
});

test('a record whose inner array repeats the cut is still cut right', (t) => {
  const list = [{ id: 1, inner: [{ a: 1 }, { id: 2 }] }, { id: 3 }];
  t.is(viaRecords(list), oneByOne(list));
  const dated = [{ id: 1 }, { id: 2, toJSON: (k: string) => ({ id: k }) }];
  t.is(viaRecords(dated), oneByOne(dated));
});

test('lines follow one another and take hands over what was written', (t) => {
  const out = new NdjsonBuffer(4);
  out.record({ a: 1 });
  out.records(['x', { id: 1 }]);
  t.is(out.take().toString(), '{"a":1}\n"x"\n{"id":1}\n');
  t.is(out.pos, 0);
});
