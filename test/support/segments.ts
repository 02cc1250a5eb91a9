// Segments for tests: real rows encoded the way a source encodes them, read back the way the alerter reads them,
// and the Kafka messages of agents older than row encoding (schema 3), which sinks must still take.
import type { Segment, TableRows } from '../../ingest/bus/bus.js';
import type { IncomingMessage, OutgoingMessage } from '../../ingest/bus/segment-codec.js';
import { FAMILIES, rowsOfRecords } from '../../ingest/families/registry.js';
import { RowBinaryReader } from '../../schemas/row-binary.js';
import type { TjEvent } from '../../schemas/tj-event.js';

/** Every row of `table` in the segment, decoded to objects. */
export function rowsOf(segment: Pick<Segment, 'tables'>, table: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const t of segment.tables) if (t.table === table) out.push(...decodeTable(t));
  return out;
}

export function decodeTable(t: TableRows): Array<Record<string, unknown>> {
  const layout = FAMILIES.layout(t.layout);
  if (layout === undefined) throw new Error(`unknown layout ${t.layout}`);
  const r = new RowBinaryReader(t.body);
  return Array.from({ length: t.rows }, () => layout.readRow(r) as Record<string, unknown>);
}

/** A TJ event as the parser gives it, with the properties given as pairs. */
export function tjEvent(file: string, fileKey: string, offset: number, event: string, props: Array<[string, string]>, host = 'db1'): TjEvent {
  return {
    event, ts: '2026-03-02T07:00:01.000001Z', ts_start: '2026-03-02T07:00:01.000000Z', duration_us: 1, depth: 1,
    properties: props.flat(), origin: { host, source: 'tj', file, file_key: fileKey, offset }, length: 10,
  };
}

/** A segment of the given TJ events (or other family records), encoded as a source encodes them. */
export function segmentOf(head: Omit<Segment, 'records' | 'tables' | 'errors'>, records: readonly unknown[], errors: Segment['errors'] = []): Segment {
  return { ...head, ...rowsOfRecords(head.family, records), errors };
}

/** The messages an agent of schema 3 sent for a segment: events as NDJSON, origins as bare offsets. */
export function legacyMessages(head: Omit<Segment, 'records' | 'tables' | 'errors'>, events: readonly TjEvent[], firstOffset = 0): IncomingMessage[] {
  const value = Buffer.from(events.map((e) => JSON.stringify({ ...e, origin: typeof e.origin === 'object' ? e.origin.offset : e.origin })).join('\n'));
  const headers = {
    kind: head.family, schema: '3', segment: head.id, record: 'events', seg_start: String(head.start), seg_end: String(head.end),
    index: '0', count: '1', host: head.host, source: head.source, file: head.file, file_key: head.file_key,
  };
  return [{ offset: String(firstOffset), key: Buffer.from(`${head.host}|${head.file_key}`), value, headers }];
}

/** Outgoing messages as a consumer reads them back. */
export function asIncoming(messages: OutgoingMessage[], first = 0): IncomingMessage[] {
  return messages.map((m, i) => ({ offset: String(first + i), key: Buffer.from(m.key), value: m.value, headers: m.headers }));
}
