// Segment ⇄ Kafka messages. A segment's rows travel as they were encoded where they were parsed (RowBinary in
// their table's layout, schemas/columns.ts): each table's bytes cut at row boundaries into messages of at most
// MESSAGE_BYTES, then its ingest errors as NDJSON (or one `empty` marker), all keyed `host|file_key` so a file
// stays in one partition, each message carrying headers that say where it belongs. The sink puts a table's parts
// back together and inserts the bytes unchanged (docs/write-path.md).
//
// Schema 4 is this form. Schema 5 is the same with each rows message's value an LZ4 frame (header `codec=lz4`), the
// bus's default (`compression: lz4`, kafka-config.ts): TJ rows pack ~10×, so kafkajs copies, the broker stores and
// the sink fetches a tenth of the bytes, and the agent waits on fewer round trips (bench/tj-kafka-ship.ts). A sink
// of an earlier version refuses schema 5 rather than insert the compressed bytes. Schemas 2 and 3 carried the parsed events as NDJSON; messages an older agent left in a
// topic still read back, as `legacy` events that the sink maps to rows itself.
import { compressFrame, decompressFrameSync } from 'lz4-napi';
import { z } from 'zod';
import type { FamilyCatalog, Segment, SegmentHead, TableRows } from './bus.js';
import { type IngestError, IngestErrorSchema } from '../../schemas/ingest-error.js';
import { RowBinaryReader } from '../../schemas/row-binary.js';
import type { Origin } from '../../schemas/origin.js';

export const SCHEMA_VERSION = '4';
/** Rows messages whose value is an LZ4 frame of the rows. */
export const LZ4_SCHEMA_VERSION = '5';

export interface OutgoingMessage {
  key: string;
  /** Bytes encoded once here: kafkajs and the send queue would otherwise each re-measure a string. */
  value: Buffer;
  headers: Record<string, string>;
}

/** The fields of a message as the consumer receives them (kafkajs `KafkaMessage`, narrowed). */
export interface IncomingMessage {
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
}

export type { SegmentHead };

type RecordKind = 'rows' | 'errors' | 'empty' | 'events';

/** A message's records; `invalid` names the lines that could not be read back (null when none). */
export type Payload =
  | { record: 'rows'; rows: Omit<TableRows, 'body'> & { body: Buffer } }
  | { record: 'errors'; values: IngestError[]; invalid: string | null }
  | { record: 'events'; values: unknown[]; invalid: string | null }
  | { record: 'empty' };

export interface SegmentPart {
  head: SegmentHead;
  /** Records of the whole segment (schema 4; 0 for older messages, where the events are counted). */
  records: number;
  index: number;
  count: number;
  payload: Payload;
}

export type Decoded = { ok: true; part: SegmentPart } | { ok: false; reason: string };

export function messageKey(host: string, fileKey: string): string {
  return `${host}|${fileKey}`;
}

/**
 * Largest value of one message. A broker refuses messages over `message.max.bytes` (1 MiB by default) for good,
 * and a refused segment would be retried forever and stall its file; a single row above this bound travels as an
 * ingest error that names it instead (docs/architecture.md §3: bad input never stops the pipeline). Headroom is left for
 * headers and the batch envelope.
 */
export const MESSAGE_BYTES = 900 * 1024;

export interface EncodeOptions {
  /** Bytes of rows gathered into one message (default MESSAGE_BYTES); a larger row travels alone. */
  messageBytes?: number;
  /** A row larger than this becomes an ingest error (default MESSAGE_BYTES). */
  maxRowBytes?: number;
  /** The layouts rows may be in (the registry's): what cuts a table's rows into messages at row boundaries. */
  layouts: Pick<FamilyCatalog, 'layout'>;
}

/**
 * One table's body cut at row boundaries into pieces of at most `target` bytes (a larger row alone); a row over
 * `maxRow` is set aside as an ingest error.
 */
function splitRows(
  segment: Segment, t: TableRows, o: { target: number; maxRow: number; layouts: EncodeOptions['layouts'] }, errors: IngestError[],
): Array<{ rows: number; body: Buffer }> {
  const { target, maxRow } = o;
  if (t.body.length <= Math.min(target, maxRow)) return [{ rows: t.rows, body: t.body }];
  const layout = o.layouts.layout(t.layout);
  if (layout === undefined) throw new Error(`segment ${segment.id}: ${t.table} rows in unknown layout ${t.layout}`);
  const parts: Array<{ rows: number; body: Buffer }> = [];
  const r = new RowBinaryReader(t.body);
  let start = 0;
  let rows = 0;
  for (let i = 0; i < t.rows; i++) {
    const rowStart = r.pos;
    layout.skipRow(r);
    if (r.pos - rowStart > maxRow) {
      if (rows > 0) parts.push({ rows, body: t.body.subarray(start, rowStart) });
      errors.push(oversized(segment, t, layout.readRow(new RowBinaryReader(t.body, rowStart, r.pos)) as Record<string, unknown>, r.pos - rowStart, maxRow));
      start = r.pos;
      rows = 0;
      continue;
    }
    if (rows > 0 && r.pos - start > target) {
      parts.push({ rows, body: t.body.subarray(start, rowStart) });
      start = rowStart;
      rows = 0;
    }
    rows++;
  }
  if (rows > 0) parts.push({ rows, body: t.body.subarray(start, r.pos) });
  return parts;
}

function oversized(segment: Segment, t: TableRows, row: Record<string, unknown>, bytes: number, limit: number): IngestError {
  const offset = typeof row.file_offset === 'number' ? row.file_offset : segment.start;
  const what = typeof row.event === 'string' ? `a ${row.event} event` : `a ${t.table} row`;
  return {
    host: segment.host, source: segment.source, file: segment.file, file_key: segment.file_key,
    offset, length: 0, kind: 'oversized_event',
    reason: `${segment.file} at offset ${offset}: ${what} of ${bytes} bytes is larger than the ${limit} bytes one Kafka message may carry; it is kept here as an ingest error`,
    excerpt: JSON.stringify(row).slice(0, 512), can_continue: true,
  };
}

export function encodeSegment(segment: Segment, options: EncodeOptions): OutgoingMessage[] {
  const limit = options.messageBytes ?? MESSAGE_BYTES;
  const maxRow = options.maxRowBytes ?? MESSAGE_BYTES;
  const batches: Array<{ value: Buffer; headers: Record<string, string> }> = [];
  const errors = [...segment.errors];
  for (const t of segment.tables) {
    for (const part of splitRows(segment, t, { target: limit, maxRow, layouts: options.layouts }, errors)) {
      batches.push({ value: part.body, headers: { record: 'rows', table: t.table, layout: t.layout, rows: String(part.rows) } });
    }
  }
  let lines: string[] = [];
  let bytes = 0;
  const flush = (): void => {
    if (lines.length > 0) batches.push({ value: Buffer.from(lines.join('\n'), 'utf8'), headers: { record: 'errors' } });
    lines = [];
    bytes = 0;
  };
  for (const error of errors) {
    // JSON.stringify escapes every line break, so a record is always exactly one line; an error is bounded
    // (its excerpt is), so one always fits a message.
    const line = JSON.stringify(error);
    const size = Buffer.byteLength(line) + 1;
    if (bytes > 0 && bytes + size > limit) flush();
    lines.push(line);
    bytes += size;
  }
  flush();
  // An empty segment still travels so that its byte range is acknowledged end to end.
  if (batches.length === 0) batches.push({ value: Buffer.alloc(0), headers: { record: 'empty' } });
  const key = messageKey(segment.host, segment.file_key);
  return batches.map(({ value, headers }, index) => ({
    key,
    value,
    headers: {
      kind: segment.family, schema: SCHEMA_VERSION, segment: segment.id, ...headers,
      seg_start: String(segment.start), seg_end: String(segment.end), records: String(segment.records),
      index: String(index), count: String(batches.length),
      host: segment.host, source: segment.source, file: segment.file, file_key: segment.file_key,
    },
  }));
}

/**
 * The rows messages' values as LZ4 frames (schema 5); the other messages unchanged. The frames are made on libuv's
 * thread pool, so the other core packs one segment while this one parses the next. A frame is at most a few hundred
 * bytes larger than its rows (incompressible input), which the headroom of MESSAGE_BYTES covers.
 */
export async function compressRows(messages: OutgoingMessage[]): Promise<OutgoingMessage[]> {
  return Promise.all(messages.map(async (m) => (m.headers.record !== 'rows' ? m : {
    key: m.key,
    value: await compressFrame(m.value),
    headers: { ...m.headers, schema: LZ4_SCHEMA_VERSION, codec: 'lz4' },
  })));
}

const Count = z.string().regex(/^\d{1,15}$/, { message: 'expected a non-negative integer' }).transform(Number);

const HeadersSchema = z.object({
  // The family's name; a family this sink does not know is found by the sink (segment-validation.ts).
  kind: z.string().min(1),
  // Schemas 2 and 3 carried events as NDJSON (3 with origins as bare offsets): still read, so messages an agent
  // of an earlier version left in a topic are delivered after the sinks were upgraded.
  schema: z.enum(['2', '3', SCHEMA_VERSION, LZ4_SCHEMA_VERSION]),
  codec: z.literal('lz4').optional(),
  segment: z.string().min(1),
  record: z.enum(['rows', 'events', 'errors', 'empty']),
  seg_start: Count,
  seg_end: Count,
  records: Count.optional(),
  table: z.string().optional(),
  layout: z.string().optional(),
  rows: Count.optional(),
  index: Count,
  count: Count,
  host: z.string(),
  source: z.string(),
  file: z.string(),
  file_key: z.string(),
});

function headerText(value: Buffer | string | (Buffer | string)[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

/** Reads a message back into a segment part; a message that cannot belong to any segment is `ok: false`. */
export function decodeMessage(message: IncomingMessage): Decoded {
  const raw: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(message.headers ?? {})) raw[k] = headerText(v);
  const parsed = HeadersSchema.safeParse(raw);
  if (!parsed.success) {
    const reason = parsed.error.issues.map((issue) => `header ${issue.path.join('.')}: ${issue.message}`).join('; ');
    return { ok: false, reason: `not a perfpipe segment message (${reason})` };
  }
  const h = parsed.data;
  if (h.index >= h.count) return { ok: false, reason: `header index ${h.index} is not below count ${h.count}` };
  if (h.record === 'empty' && h.count !== 1) return { ok: false, reason: `an empty-segment marker must have count 1, found ${h.count}` };
  const rowsSchema = h.schema === SCHEMA_VERSION || h.schema === LZ4_SCHEMA_VERSION;
  if ((h.record === 'rows') !== rowsSchema && h.record !== 'errors' && h.record !== 'empty') {
    return { ok: false, reason: `a schema ${h.schema} message cannot carry ${h.record} records` };
  }
  if ((h.schema === LZ4_SCHEMA_VERSION) !== (h.record === 'rows' && h.codec === 'lz4')) {
    return { ok: false, reason: `schema ${LZ4_SCHEMA_VERSION} is for rows messages with codec lz4, found ${h.record} records with codec ${h.codec ?? 'none'}` };
  }
  const head: SegmentHead = {
    id: h.segment, family: h.kind, host: h.host, source: h.source, file: h.file, file_key: h.file_key,
    start: h.seg_start, end: h.seg_end,
  };
  let payload: Payload;
  if (h.record === 'rows') {
    if (h.table === undefined || h.layout === undefined || h.rows === undefined) {
      return { ok: false, reason: 'a rows message needs the table, layout and rows headers' };
    }
    let body = message.value ?? Buffer.alloc(0);
    if (h.codec === 'lz4') {
      try {
        body = decompressFrameSync(body);
      } catch (error) {
        return { ok: false, reason: `a rows message whose value is not an LZ4 frame (${(error as Error).message})` };
      }
    }
    payload = { record: 'rows', rows: { table: h.table, layout: h.layout, rows: h.rows, body } };
  } else {
    payload = decodeLines(head, h.record, message.value);
  }
  return { ok: true, part: { head, records: h.records ?? 0, index: h.index, count: h.count, payload } };
}

/** withOffsetOrigin of schema 3 undone: an origin that is a number is an offset in the segment's file. */
function withFullOrigin(head: SegmentHead, event: unknown): unknown {
  const e = event as { origin?: unknown } | null;
  if (typeof e?.origin === 'number') e.origin = { host: head.host, source: head.source, file: head.file, file_key: head.file_key, offset: e.origin } satisfies Origin;
  return event;
}

function decodeLines(head: SegmentHead, record: Exclude<RecordKind, 'rows'>, value: Buffer | null): Payload {
  if (record === 'empty') return { record };
  const values: unknown[] = [];
  const bad: number[] = [];
  const lines = (value?.toString('utf8') ?? '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    let json: unknown;
    try {
      json = JSON.parse(lines[i] as string);
    } catch {
      bad.push(i + 1);
      continue;
    }
    if (record === 'errors') {
      const error = IngestErrorSchema.safeParse(json);
      if (error.success) values.push(error.data);
      else bad.push(i + 1);
    } else {
      values.push(withFullOrigin(head, json));
    }
  }
  const what = record === 'events' ? 'not JSON' : 'not an IngestError';
  const invalid = bad.length === 0 ? null : `${record} message: line${bad.length > 1 ? 's' : ''} ${bad.slice(0, 10).join(', ')}${bad.length > 10 ? ', …' : ''} of ${lines.length} ${bad.length > 1 ? 'are' : 'is'} ${what}`;
  return record === 'events' ? { record, values, invalid } : { record, values: values as IngestError[], invalid };
}
