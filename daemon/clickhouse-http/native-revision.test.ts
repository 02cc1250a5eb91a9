import test from 'ava';
import { createNativeReframer, parseType } from './native-revision.js';

test('types are split at their top-level commas, quoted enum names and nested parentheses kept whole', (t) => {
  t.deepEqual(parseType("Map(LowCardinality(String), Enum8('a,b' = 1, 'c)' = 2))"), { name: 'Map', args: ['LowCardinality(String)', "Enum8('a,b' = 1, 'c)' = 2)"] });
  t.deepEqual(parseType('UInt64'), { name: 'UInt64', args: [] });
});

test('a revision-0 block gets its BlockInfo and a default-serialization byte per column, its data untouched', (t) => {
  // One row: regions Array(LowCardinality(String)) = ['Reference10.REFLOCK'] as the engine writes it (key version,
  // offsets, dictionary flags, two keys, one index), then n UInt8 = 7.
  const regions = Buffer.from('0100000000000000' + '0100000000000000' + '0006000000000000' + '0200000000000000' + '00' + '13' + Buffer.from('Reference10.REFLOCK').toString('hex') + '0100000000000000' + '01', 'hex');
  const block = Buffer.concat([Buffer.from([2, 1]), Buffer.from('07726567696f6e73', 'hex'), Buffer.from([29]), Buffer.from('Array(LowCardinality(String))'), regions, Buffer.from([1]), Buffer.from('n'), Buffer.from([5]), Buffer.from('UInt8'), Buffer.from([7])]);
  const out = createNativeReframer(54460)(block);
  const expected = Buffer.concat([Buffer.from([1, 0, 2, 0xff, 0xff, 0xff, 0xff, 0]), Buffer.from([2, 1]), Buffer.from('07726567696f6e73', 'hex'), Buffer.from([29]), Buffer.from('Array(LowCardinality(String))'), Buffer.from([0]), regions, Buffer.from([1]), Buffer.from('n'), Buffer.from([5]), Buffer.from('UInt8'), Buffer.from([0, 7])]);
  t.is(out.toString('hex'), expected.toString('hex'));
  const split = createNativeReframer(54460);
  t.is(Buffer.concat([split(block.subarray(0, 20)), split(block.subarray(20))]).toString('hex'), expected.toString('hex'), 'a block cut between chunks waits for its end');
});
