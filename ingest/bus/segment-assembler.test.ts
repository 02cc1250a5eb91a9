// Segments rebuilt from partition messages: whole, once, with commit offsets that never pass an open segment.
import test from 'ava';
import fc from 'fast-check';
import { PartitionAssembler, type AssemblyOutput } from './segment-assembler.js';
import { encodeSegment, type IncomingMessage } from './segment-codec.js';
import { makeSegment } from './bus-contract.js';
import type { Segment } from './bus.js';

/**
 * Messages as a consumer reads them from one partition, offsets counting from `first`. One record per
 * message by default (`messageChars: 1`) so that segments span many messages, as large ones do.
 */
function asRead(segments: Segment[], first = 0, messageChars = 1): IncomingMessage[] {
  return segments.flatMap((s) => encodeSegment(s, { messageChars })).map((m, i) => ({
    offset: String(first + i),
    key: Buffer.from(m.key),
    value: Buffer.from(m.value),
    headers: Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, Buffer.from(v)])),
  }));
}

const segmentsOf = (outputs: AssemblyOutput[]) => outputs.flatMap((o) => (o.type === 'segment' ? [o.segment] : []));

test('segments read in order come back equal, each once its last message arrived', (t) => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(4), fc.nat(3)), { maxLength: 8 }), (shapes) => {
      const sent = shapes.map(([events, errors], i) => makeSegment(`f${i % 3}`, i * 100, events, errors));
      const assembler = new PartitionAssembler();
      const outputs = asRead(sent).flatMap((m) => assembler.push(m));
      t.deepEqual(segmentsOf(outputs), sent);
      t.is(assembler.openSegments, 0);
    }),
  );
});

test('an empty segment travels as one marker and comes back with no records', (t) => {
  const empty = makeSegment('quiet', 500, 0, 0);
  const messages = asRead([empty]);
  t.is(messages.length, 1);
  t.deepEqual(segmentsOf(new PartitionAssembler().push(messages[0]!)), [empty]);
});

test('the commit offset stays at the first message of a segment still open', (t) => {
  const done = makeSegment('a', 0, 1);
  const open = makeSegment('b', 0, 3);
  const [first, ...rest] = asRead([done, open]);
  const assembler = new PartitionAssembler();
  const outputs = assembler.push(first!);
  assembler.push(rest[0]!);
  t.is(assembler.commitOffset((outputs[0] as { lastOffset: bigint }).lastOffset), 1n);
  assembler.push(rest[1]!);
  const last = assembler.push(rest[2]!);
  t.is(assembler.commitOffset((last[0] as { lastOffset: bigint }).lastOffset), 4n);
});

test('a partial copy followed by the full replay is dropped; the replay is delivered once', (t) => {
  const segment = makeSegment('replayed', 0, 4, 1);
  const partial = asRead([segment]).slice(0, 2);
  const full = asRead([segment], 2);
  const assembler = new PartitionAssembler();
  const outputs = [...partial, ...full].flatMap((m) => assembler.push(m));
  t.deepEqual(segmentsOf(outputs), [segment]);
  t.deepEqual(outputs.filter((o) => o.type === 'malformed'), []);
  t.is(assembler.commitOffset(6n), 7n);
});

test('reading from an earlier offset again (after a rebalance) forgets the open parts', (t) => {
  const segment = makeSegment('again', 0, 3);
  const messages = asRead([segment]);
  const assembler = new PartitionAssembler();
  assembler.push(messages[0]!);
  assembler.push(messages[1]!);
  const outputs = messages.flatMap((m) => assembler.push(m));
  t.deepEqual(segmentsOf(outputs), [segment]);
});

test('a message without segment headers is malformed, with the reason naming the header', (t) => {
  const outputs = new PartitionAssembler().push({ offset: '7', key: null, value: Buffer.from('x'), headers: {} });
  t.is(outputs.length, 1);
  const [output] = outputs;
  t.is(output?.type, 'malformed');
  if (output?.type === 'malformed') {
    t.is(output.offset, 7n);
    t.regex(output.rejected.reason, /^not a perfpipe segment message \(header kind: /);
  }
});

test('a part whose first part never came is malformed', (t) => {
  const [, second] = asRead([makeSegment('orphan', 0, 2)]);
  const [output] = new PartitionAssembler().push(second!);
  t.is(output?.type === 'malformed' ? output.rejected.reason : '', 'part 1 of segment db1|orphan|0-100 arrived without its first part');
});

test('an event value that is not JSON is set aside for dead letters; the rest of the segment is delivered', (t) => {
  const segment = makeSegment('half-bad', 0, 3);
  const messages = asRead([segment]);
  messages[1]!.value = Buffer.from('{oops');
  const assembler = new PartitionAssembler();
  const [output] = messages.flatMap((m) => assembler.push(m));
  t.is(output?.type, 'segment');
  if (output?.type === 'segment') {
    t.deepEqual(output.segment.events, [segment.events[0], segment.events[2]]);
    t.deepEqual(output.invalid.map((r) => r.reason), ['events message: line 1 of 1 is not JSON']);
  }
});

test('an event too large for one Kafka message travels as an ingest error that names it', (t) => {
  const big = { event: 'SDBL', origin: { offset: 1234 }, length: 2_000_000, properties: ['Sdbl', 'x'.repeat(2_000_000)] };
  const messages = encodeSegment({ id: 'h|k|0-9', family: 'tj', host: 'h', source: 'tj', file: '/f.log', file_key: 'k', start: 0, end: 2_000_100, events: [{ event: 'CALL' }, big], errors: [] });
  t.deepEqual(messages.map((m) => m.headers.record), ['events', 'errors']);
  const error = JSON.parse(messages[1]?.value.toString() ?? '{}') as { kind: string; offset: number; length: number; reason: string };
  t.like(error, { kind: 'oversized_event', offset: 1234, length: 2_000_000 });
  t.regex(error.reason, /^\/f\.log at offset 1234: a SDBL event of 20000\d\d bytes is larger than the 921600 bytes one Kafka message may carry/);
});

test('records are gathered into few messages; a segment of many small events comes back whole', (t) => {
  const segment = makeSegment('many', 0, 2000, 3);
  const messages = asRead([segment], 0, 64 * 1024);
  t.true(messages.length < 2000 / 50, `${messages.length} messages for 2003 records`);
  t.is(String(messages.at(-1)?.headers?.record), 'errors');
  for (const m of messages) t.true((m.value?.toString('utf8').length ?? 0) <= 64 * 1024, 'a message holds at most messageChars characters');
  const assembler = new PartitionAssembler();
  t.deepEqual(segmentsOf(messages.flatMap((m) => assembler.push(m))), [segment]);
});

test('one bad line costs that line: the other records of its message are delivered', (t) => {
  const segment = makeSegment('one-bad-line', 0, 5);
  const [message] = asRead([segment], 0, 1 << 20);
  const lines = message!.value!.toString('utf8').split('\n');
  lines[2] = '{oops';
  message!.value = Buffer.from(lines.join('\n'));
  const [output] = new PartitionAssembler().push(message!);
  t.is(output?.type, 'segment');
  if (output?.type === 'segment') {
    t.deepEqual(output.segment.events, segment.events.filter((_, i) => i !== 2));
    t.deepEqual(output.invalid.map((r) => r.reason), ['events message: line 3 of 5 is not JSON']);
  }
});

test("an event's origin travels as its offset and comes back whole; an origin naming another file travels as it is", (t) => {
  const segment = makeSegment('origins', 0, 0);
  const own = { host: segment.host, source: segment.source, file: segment.file, file_key: segment.file_key };
  segment.events = [
    { event: 'CALL', origin: { ...own, offset: 7 }, props: { a: '1' } },
    { event: 'CALL', origin: { ...own, file: '/elsewhere.log', offset: 9 } },
    { event: 'CALL', origin: 'not an object' },
  ];
  const messages = asRead([segment], 0, 1 << 20);
  const lines = messages[0]!.value!.toString('utf8').split('\n');
  t.is(lines[0], '{"event":"CALL","origin":7,"props":{"a":"1"}}');
  t.true(lines[1]!.includes('"/elsewhere.log"'));
  t.deepEqual(segmentsOf(new PartitionAssembler().push(messages[0]!)), [segment]);
});

test('a segment from an agent of the previous schema (2, origins whole) is still delivered', (t) => {
  const segment = makeSegment('schema-2', 0, 0);
  segment.events = [{ event: 'CALL', origin: { host: segment.host, source: segment.source, file: segment.file, file_key: segment.file_key, offset: 3 } }];
  const [message] = asRead([segment], 0, 1 << 20);
  message!.headers = { ...message!.headers, schema: Buffer.from('2') };
  message!.value = Buffer.from(JSON.stringify(segment.events[0]));
  t.deepEqual(segmentsOf(new PartitionAssembler().push(message!)), [segment]);
});
