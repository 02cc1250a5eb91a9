// Segment ⇄ Kafka messages: one message per event and per ingest error (or one `empty` marker), all keyed
// `host|file_key` so a file stays in one partition, each carrying headers that say where it belongs.
import { z } from 'zod';
import type { Family, Segment } from './bus.js';
import { IngestErrorSchema } from '../../schemas/ingest-error.js';
import { FAMILIES } from './kafka-topics.js';

export const SCHEMA_VERSION = '1';

export interface OutgoingMessage {
  key: string;
  value: string;
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

export type Payload =
  | { record: 'event'; value: unknown }
  | { record: 'error'; value: Segment['errors'][number] }
  | { record: 'empty' }
  | { record: 'invalid'; reason: string };

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

export function encodeSegment(segment: Segment): OutgoingMessage[] {
  const records: Array<{ record: 'event' | 'error' | 'empty'; value: string }> = [
    ...segment.events.map((event) => ({ record: 'event' as const, value: JSON.stringify(event) })),
    ...segment.errors.map((error) => ({ record: 'error' as const, value: JSON.stringify(error) })),
  ];
  // An empty segment still travels so that its byte range is acknowledged end to end.
  if (records.length === 0) records.push({ record: 'empty', value: '' });
  const key = messageKey(segment.host, segment.file_key);
  return records.map(({ record, value }, index) => ({
    key,
    value,
    headers: {
      kind: segment.family, schema: SCHEMA_VERSION, segment: segment.id, record,
      seg_start: String(segment.start), seg_end: String(segment.end),
      index: String(index), count: String(records.length),
      host: segment.host, source: segment.source, file: segment.file, file_key: segment.file_key,
    },
  }));
}

const Count = z.string().regex(/^\d{1,15}$/, { message: 'expected a non-negative integer' }).transform(Number);

const HeadersSchema = z.object({
  kind: z.enum(FAMILIES as [Family, ...Family[]]),
  schema: z.literal(SCHEMA_VERSION),
  segment: z.string().min(1),
  record: z.enum(['event', 'error', 'empty']),
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
  return { ok: true, part: { head, index: h.index, count: h.count, payload: decodePayload(h.record, message.value) } };
}

function decodePayload(record: 'event' | 'error' | 'empty', value: Buffer | null): Payload {
  if (record === 'empty') return { record };
  let json: unknown;
  try {
    json = JSON.parse(value?.toString('utf8') ?? '');
  } catch {
    return { record: 'invalid', reason: `${record} value is not JSON` };
  }
  if (record === 'event') return { record, value: json };
  const error = IngestErrorSchema.safeParse(json);
  return error.success ? { record, value: error.data } : { record: 'invalid', reason: 'error value is not an IngestError' };
}
