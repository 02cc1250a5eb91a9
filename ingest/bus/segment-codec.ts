// Segment ⇄ Kafka messages: a segment's events travel as NDJSON, many per message (up to ~256 K characters),
// then its ingest errors the same way (or one `empty` marker), all keyed `host|file_key` so a file stays in
// one partition, each message carrying headers that say where it belongs. One message per event spent
// most of the agent's CPU in kafkajs's per-message encoding (headers, varints, CRC) and ran at a fifth of
// rsyslog's raw-line rate; batched, the per-message cost is paid once per few hundred events.
// An event's `origin` repeats the segment's host, source, file and file key, which the headers carry once:
// it travels as its offset alone (a number where the object was) and is rebuilt on the way out, a sixth
// less JSON to write, checksum, store in the broker and parse again for a TJ event.
import { z } from 'zod';
import type { Family, Segment } from './bus.js';
import { IngestErrorSchema } from '../../schemas/ingest-error.js';
import { FAMILIES } from './kafka-topics.js';
import type { Origin } from '../../schemas/origin.js';

export const SCHEMA_VERSION = '3';

export interface OutgoingMessage {
  key: string;
  /** UTF-8 bytes, encoded once here: kafkajs and the send queue would otherwise each re-measure a string. */
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

export type SegmentHead = Omit<Segment, 'events' | 'errors'>;

type RecordKind = 'events' | 'errors' | 'empty';

/** A message's records; `invalid` names the lines that could not be read back (null when none). */
export type Payload =
  | { record: 'events'; values: unknown[]; invalid: string | null }
  | { record: 'errors'; values: Segment['errors']; invalid: string | null }
  | { record: 'empty' };

export interface SegmentPart {
  head: SegmentHead;
  index: number;
  count: number;
  payload: Payload;
}

export type Decoded = { ok: true; part: SegmentPart } | { ok: false; reason: string };

export function messageKey(host: string, fileKey: string): string {
  return `${host}|${fileKey}`;
}

/**
 * Largest event value sent as one message. A broker refuses messages over `message.max.bytes` (1 MiB by
 * default) for good, and a refused segment would be retried forever and stall its file; an event above
 * this bound travels as an ingest error that names it instead (ARCHITECTURE §3: bad input never stops
 * the pipeline). Headroom is left for headers and the batch envelope.
 */
export const MAX_EVENT_VALUE_BYTES = 900 * 1024;

/**
 * Characters of NDJSON gathered into one message before a new one starts. At most 3 UTF-8 bytes per
 * character keeps a message under the broker's 1 MiB default; a single event up to MAX_EVENT_VALUE_BYTES
 * travels alone.
 */
export const MESSAGE_CHARS = 256 * 1024;

function oversized(segment: Segment, event: unknown, value: string, limit: number): Segment['errors'][number] {
  const e = event as { origin?: { offset?: number }; length?: number; event?: string };
  const offset = e.origin?.offset ?? segment.start;
  return {
    host: segment.host, source: segment.source, file: segment.file, file_key: segment.file_key,
    offset, length: e.length ?? 0, kind: 'oversized_event',
    reason: `${segment.file} at offset ${offset}: a ${e.event ?? ''} event of ${Buffer.byteLength(value)} bytes is larger than the ${limit} bytes one Kafka message may carry; it is kept here as an ingest error`,
    excerpt: value.slice(0, 512), can_continue: true,
  };
}

type WithOrigin = { origin?: unknown };

/** The event with `origin` as its bare offset when the rest of the origin is the segment's (as for every source). */
function withOffsetOrigin(segment: Segment, event: unknown): unknown {
  const origin = (event as WithOrigin | null)?.origin as Partial<Origin> | undefined;
  if (typeof origin !== 'object' || origin === null || typeof origin.offset !== 'number') return event;
  if (origin.host !== segment.host || origin.source !== segment.source || origin.file !== segment.file || origin.file_key !== segment.file_key) return event;
  if (Object.keys(origin).length !== 5) return event;
  return { ...(event as object), origin: origin.offset };
}

/** withOffsetOrigin undone: an origin that is a number is an offset in the segment's file. */
function withFullOrigin(head: SegmentHead, event: unknown): unknown {
  const e = event as WithOrigin | null;
  if (typeof e?.origin === 'number') e.origin = { host: head.host, source: head.source, file: head.file, file_key: head.file_key, offset: e.origin } satisfies Origin;
  return event;
}

export function encodeSegment(segment: Segment, options: { maxEventBytes?: number; messageChars?: number } = {}): OutgoingMessage[] {
  const maxEventBytes = options.maxEventBytes ?? MAX_EVENT_VALUE_BYTES;
  const messageChars = options.messageChars ?? MESSAGE_CHARS;
  const batches: Array<{ record: RecordKind; value: Buffer }> = [];
  let lines: string[] = [];
  let chars = 0;
  const flush = (record: RecordKind): void => {
    if (lines.length > 0) batches.push({ record, value: Buffer.from(lines.join('\n'), 'utf8') });
    lines = [];
    chars = 0;
  };
  const add = (record: RecordKind, value: string): void => {
    if (chars > 0 && chars + value.length + 1 > messageChars) flush(record);
    lines.push(value);
    chars += value.length + 1;
  };
  const errors = [...segment.errors];
  for (const event of segment.events) {
    // JSON.stringify escapes every line break, so a record is always exactly one line.
    const value = JSON.stringify(withOffsetOrigin(segment, event));
    // Length in UTF-16 units bounds the UTF-8 size from below; measure bytes only near the bound.
    if (value.length * 3 > maxEventBytes && Buffer.byteLength(value) > maxEventBytes) errors.push(oversized(segment, event, value, maxEventBytes));
    else add('events', value);
  }
  flush('events');
  for (const error of errors) add('errors', JSON.stringify(error));
  flush('errors');
  // An empty segment still travels so that its byte range is acknowledged end to end.
  if (batches.length === 0) batches.push({ record: 'empty', value: Buffer.alloc(0) });
  const key = messageKey(segment.host, segment.file_key);
  return batches.map(({ record, value }, index) => ({
    key,
    value,
    headers: {
      kind: segment.family, schema: SCHEMA_VERSION, segment: segment.id, record,
      seg_start: String(segment.start), seg_end: String(segment.end),
      index: String(index), count: String(batches.length),
      host: segment.host, source: segment.source, file: segment.file, file_key: segment.file_key,
    },
  }));
}

const Count = z.string().regex(/^\d{1,15}$/, { message: 'expected a non-negative integer' }).transform(Number);

const HeadersSchema = z.object({
  kind: z.enum(FAMILIES as [Family, ...Family[]]),
  // Schema 2 differs only in sending every origin whole, which reads back unchanged: messages an agent of the
  // previous version left in a topic are still delivered after the sinks were upgraded.
  schema: z.enum(['2', SCHEMA_VERSION]),
  segment: z.string().min(1),
  record: z.enum(['events', 'errors', 'empty']),
  seg_start: Count,
  seg_end: Count,
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
  const raw = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, headerText(v)]));
  const parsed = HeadersSchema.safeParse(raw);
  if (!parsed.success) {
    const reason = parsed.error.issues.map((issue) => `header ${issue.path.join('.')}: ${issue.message}`).join('; ');
    return { ok: false, reason: `not a perfpipe segment message (${reason})` };
  }
  const h = parsed.data;
  if (h.index >= h.count) return { ok: false, reason: `header index ${h.index} is not below count ${h.count}` };
  if (h.record === 'empty' && h.count !== 1) return { ok: false, reason: `an empty-segment marker must have count 1, found ${h.count}` };
  const head: SegmentHead = {
    id: h.segment, family: h.kind, host: h.host, source: h.source, file: h.file, file_key: h.file_key,
    start: h.seg_start, end: h.seg_end,
  };
  return { ok: true, part: { head, index: h.index, count: h.count, payload: decodePayload(head, h.record, message.value) } };
}

function decodePayload(head: SegmentHead, record: RecordKind, value: Buffer | null): Payload {
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
  return record === 'events' ? { record, values, invalid } : { record, values: values as Segment['errors'], invalid };
}
