// Segments rebuilt from partition messages: whole, once, with commit offsets that never pass an open segment.
import test from 'ava';
import fc from 'fast-check';
import { PartitionAssembler, type AssemblyOutput } from './segment-assembler.js';
import { encodeSegment, type IncomingMessage } from './segment-codec.js';
import { makeSegment } from '../../test/support/bus-contract.js';
import type { Segment } from './bus.js';
import { FAMILIES, rowsOfRecords } from '../families/registry.js';
import { legacyMessages, rowsOf, tjEvent } from '../../test/support/segments.js';

/**
 * Messages as a consumer reads them from one partition, offsets counting from `first`. One row per
 * message by default (`messageBytes: 1`) so that segments span many messages, as large ones do.
 */
function asRead(segments: Segment[], first = 0, messageBytes = 1): IncomingMessage[] {
  return segments.flatMap((s) => encodeSegment(s, { messageBytes, layouts: FAMILIES })).map((m, i) => ({
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
  const messages = asRead([done, open]);
  // A CALL travels as its event and its call split (two tables), so count the messages rather than assume them.
  const firstOpen = asRead([done]).length;
  t.true(messages.length - firstOpen >= 3, 'the open segment spans several messages');
  const lastOffsetOf = (outputs: AssemblyOutput[]): bigint => (outputs.find((o) => o.type === 'segment') as { lastOffset: bigint }).lastOffset;
  const assembler = new PartitionAssembler();
  let doneAt: bigint | undefined;
  messages.forEach((message, i) => {
    const outputs = assembler.push(message);
    if (i === firstOpen - 1) doneAt = lastOffsetOf(outputs);
    if (i > firstOpen - 1 && i < messages.length - 1) {
      t.deepEqual(segmentsOf(outputs), [], 'the open segment is not delivered before its last message');
      t.is(assembler.commitOffset(doneAt!), BigInt(firstOpen), 'commit stops at the open segment');
    }
    if (i === messages.length - 1) t.is(assembler.commitOffset(lastOffsetOf(outputs)), BigInt(messages.length));
  });
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

test('a row too large for one Kafka message travels as an ingest error that names it', (t) => {
  const head = { id: 'h|k|0-9', family: 'tj' as const, host: 'h', source: 'tj', file: '/f.log', file_key: 'k', start: 0, end: 2_000_100 };
  const segment = { ...makeSegment('k', 0, 0), ...head };
  const big = tjEvent('/f.log', 'k', 1234, 'SDBL', [['Sdbl', 'x'.repeat(2_000_000)]], 'h');
  const small = tjEvent('/f.log', 'k', 10, 'CALL', [['Usr', 'a']], 'h');
  const { tables, records } = makeRows([small, big]);
  const messages = encodeSegment({ ...segment, tables, records }, { layouts: FAMILIES });
  // The small CALL's event and its call split travel; the big SDBL does not, and its error says why.
  t.deepEqual(messages.map((m) => [m.headers.record, m.headers.table, m.headers.rows]), [['rows', 'tj_events', '1'], ['rows', 'tj_call_splits', '1'], ['errors', undefined, undefined]]);
  const error = JSON.parse(messages.at(-1)?.value.toString() ?? '{}') as { kind: string; offset: number; reason: string; excerpt: string };
  t.like(error, { kind: 'oversized_event', offset: 1234 });
  t.regex(error.reason, /^\/f\.log at offset 1234: a SDBL event of 20001\d\d bytes is larger than the 921600 bytes one Kafka message may carry/);
});

test('rows are gathered into few messages, cut between rows; a segment of many small events comes back whole', (t) => {
  const segment = makeSegment('many', 0, 2000, 3);
  const messages = asRead([segment], 0, 64 * 1024);
  t.true(messages.length < 2000 / 50, `${messages.length} messages for 2003 records`);
  t.is(String(messages.at(-1)?.headers?.record), 'errors');
  for (const m of messages) t.true((m.value?.length ?? 0) <= 64 * 1024, 'a message holds at most messageBytes bytes');
  const assembler = new PartitionAssembler();
  const [back] = segmentsOf(messages.flatMap((m) => assembler.push(m)));
  t.deepEqual(rowsOf(back!, 'tj_events'), rowsOf(segment, 'tj_events'));
  t.is(back?.records, 2000);
});

test('a segment from an agent of schema 3 (events as NDJSON, origins as offsets) comes back as its events', (t) => {
  const head = { id: 'db1|old|0-50', family: 'tj' as const, host: 'db1', source: 'tj', file: '/var/log/1c/old.log', file_key: 'old', start: 0, end: 50 };
  const events = [tjEvent(head.file, 'old', 0, 'CALL', [['Usr', 'Иванов']]), tjEvent(head.file, 'old', 25, 'TLOCK', [['Regions', 'R1']])];
  const [output] = new PartitionAssembler().push(legacyMessages(head, events)[0]!);
  t.is(output?.type, 'segment');
  if (output?.type === 'segment') {
    t.deepEqual(output.segment.legacy, events);
    t.is(output.segment.records, 2);
    t.deepEqual(output.segment.tables, []);
  }
});

test('one bad line of an old agent costs that line: the other events of its message are delivered', (t) => {
  const head = { id: 'db1|old|0-50', family: 'tj' as const, host: 'db1', source: 'tj', file: '/var/log/1c/old.log', file_key: 'old', start: 0, end: 50 };
  const events = [0, 10, 20, 30, 40].map((o) => tjEvent(head.file, 'old', o, 'CALL', [['Usr', `u${o}`]]));
  const [message] = legacyMessages(head, events);
  const lines = message!.value!.toString('utf8').split('\n');
  lines[2] = '{oops';
  message!.value = Buffer.from(lines.join('\n'));
  const [output] = new PartitionAssembler().push(message!);
  t.is(output?.type, 'segment');
  if (output?.type === 'segment') {
    t.deepEqual(output.segment.legacy, events.filter((_, i) => i !== 2));
    t.deepEqual(output.invalid.map((r) => r.reason), ['events message: line 3 of 5 is not JSON']);
  }
});

test('a segment from an agent of schema 2 (origins whole) is still delivered', (t) => {
  const head = { id: 'db1|old2|0-9', family: 'tj' as const, host: 'db1', source: 'tj', file: '/var/log/1c/o.log', file_key: 'old2', start: 0, end: 9 };
  const event = tjEvent(head.file, 'old2', 3, 'CALL', []);
  const [message] = legacyMessages(head, [event]);
  message!.headers = { ...message!.headers, schema: '2' };
  message!.value = Buffer.from(JSON.stringify(event));
  const [output] = new PartitionAssembler().push(message!);
  t.deepEqual(output?.type === 'segment' ? output.segment.legacy : null, [event]);
});

function makeRows(events: ReturnType<typeof tjEvent>[]): Pick<Segment, 'tables' | 'records'> {
  return rowsOfRecords('tj', events);
}
