// What a sink checks before mapping a segment to rows: every event against its family's zod schema.
// A segment from the bus may come from another agent version or a hand-made message; one bad event must
// cost that event (an ingest_errors row and a dead letter), never the segment or the pipeline.
import type { z } from 'zod';
import type { Family, Segment } from '../bus/bus.js';
import { TjEventSchema } from '../../schemas/tj-event.js';
import { PgStreamEventSchema } from '../../schemas/pg-stream-event.js';
import { ApdexRecordSchema } from '../../schemas/apdex-measurement.js';
import { AtopRecordSchema } from '../../schemas/atop-record.js';
import { boundedExcerpt, type IngestError } from '../../schemas/ingest-error.js';

/** Families with ClickHouse tables (ingest/sink/segment-rows.ts); the others cannot be stored yet. */
const SCHEMAS: Partial<Record<Family, z.ZodType>> = { tj: TjEventSchema, pg: PgStreamEventSchema, apdex: ApdexRecordSchema, atop: AtopRecordSchema };

export interface InvalidEvent {
  index: number;
  event: unknown;
  reason: string;
}

export interface ValidatedSegment {
  /** The segment with only valid events; each invalid one became an `invalid_event` error. */
  segment: Segment;
  invalid: InvalidEvent[];
}

/** Deterministic: the same segment gives the same rows, so a replay carries the same dedup tokens. */
export function validateSegment(segment: Segment): ValidatedSegment {
  const schema = SCHEMAS[segment.family];
  const events: unknown[] = [];
  const invalid: InvalidEvent[] = [];
  segment.events.forEach((event, index) => {
    if (!schema) {
      invalid.push({ index, event, reason: `the ${segment.family} family has no ClickHouse tables in this perfpipe version` });
      return;
    }
    const parsed = schema.safeParse(event);
    if (parsed.success) events.push(parsed.data);
    else invalid.push({ index, event, reason: `event ${index} of segment ${segment.id} does not match the ${segment.family} event schema: ${describe(parsed.error)}` });
  });
  if (invalid.length === 0) return { segment, invalid };
  const errors = invalid.map((bad): IngestError => ({
    host: segment.host, source: segment.source, file: segment.file, file_key: segment.file_key,
    offset: offsetOf(bad.event) ?? segment.start, length: 0, kind: 'invalid_event',
    reason: bad.reason, excerpt: boundedExcerpt(safeJson(bad.event)), can_continue: true,
  }));
  // The tj mapping throws on a family without tables: such a segment keeps only its errors.
  const family = schema ? segment.family : 'tj';
  return { segment: { ...segment, family, events, errors: [...segment.errors, ...errors] }, invalid };
}

function describe(error: z.ZodError): string {
  return error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`).join('; ');
}

function offsetOf(event: unknown): number | undefined {
  const offset = (event as { origin?: { offset?: unknown } } | null)?.origin?.offset;
  return typeof offset === 'number' && Number.isInteger(offset) && offset >= 0 ? offset : undefined;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
