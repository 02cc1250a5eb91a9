// Rows messages as LZ4 frames (schema 5, the bus's default compression): smaller on the wire, the same segment back,
// and a damaged or mislabelled frame refused with a reason instead of reaching ClickHouse as rows.
import test from 'ava';
import { compressRows, decodeMessage, encodeSegment, LZ4_SCHEMA_VERSION, SCHEMA_VERSION, type IncomingMessage, type OutgoingMessage } from './segment-codec.js';
import { FAMILIES } from '../families/registry.js';
import { PartitionAssembler } from './segment-assembler.js';
import { makeSegment } from '../../test/support/bus-contract.js';

function asRead(messages: OutgoingMessage[]): IncomingMessage[] {
  return messages.map((m, i) => ({
    offset: String(i), key: Buffer.from(m.key), value: Buffer.from(m.value),
    headers: Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, Buffer.from(v)])),
  }));
}

test('a segment sent as LZ4 frames comes back equal, its rows messages smaller than the rows', async (t) => {
  const segment = makeSegment('packed', 0, 400, 2);
  const plain = encodeSegment(segment, { layouts: FAMILIES });
  const packed = await compressRows(plain);
  const rows = packed.filter((m) => m.headers.record === 'rows');
  t.true(rows.length > 0);
  for (const m of rows) t.like(m.headers, { schema: LZ4_SCHEMA_VERSION, codec: 'lz4' });
  // The errors message travels as it was.
  t.deepEqual(packed.filter((m) => m.headers.record !== 'rows'), plain.filter((m) => m.headers.record !== 'rows'));
  const size = (ms: OutgoingMessage[]) => ms.filter((m) => m.headers.record === 'rows').reduce((s, m) => s + m.value.length, 0);
  t.true(size(packed) * 3 < size(plain), `${size(packed)} bytes packed against ${size(plain)}`);
  const assembler = new PartitionAssembler();
  const out = asRead(packed).flatMap((m) => assembler.push(m));
  t.deepEqual(out.flatMap((o) => (o.type === 'segment' ? [o.segment] : [])), [segment]);
});

test('a rows message whose value is not an LZ4 frame is refused with the reason', async (t) => {
  const [message] = asRead(await compressRows(encodeSegment(makeSegment('broken', 0, 3), { layouts: FAMILIES })));
  message!.value = Buffer.from('not a frame at all');
  const decoded = decodeMessage(message!);
  t.false(decoded.ok);
  t.regex((decoded as { reason: string }).reason, /^a rows message whose value is not an LZ4 frame/);
});

test('schema 5 without the lz4 codec, or lz4 under schema 4, is refused rather than guessed', async (t) => {
  const [message] = asRead(await compressRows(encodeSegment(makeSegment('labels', 0, 3), { layouts: FAMILIES })));
  const withHeaders = (h: Record<string, string | undefined>): IncomingMessage => ({
    ...message!, headers: Object.fromEntries(Object.entries({ ...message!.headers, ...h }).filter(([, v]) => v !== undefined)) as IncomingMessage['headers'],
  });
  const reason = (m: IncomingMessage) => { const d = decodeMessage(m); return d.ok ? 'ok' : d.reason; };
  t.regex(reason(withHeaders({ codec: undefined })), /schema 5 is for rows messages with codec lz4/);
  t.regex(reason(withHeaders({ schema: SCHEMA_VERSION })), /schema 5 is for rows messages with codec lz4/);
  t.is(reason(message!), 'ok');
});
