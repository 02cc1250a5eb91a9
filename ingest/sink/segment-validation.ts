// What a sink checks before it inserts a segment from the bus. Rows arrive encoded (docs/write-path.md), so the
// check is a walk over lengths, no decoding and no objects: each table's rows must be in a layout this version
// knows and walk exactly to the end of their bytes, as many as the header says. A segment of an agent older than
// row encoding carries events instead: those are checked against their family's zod schema and mapped to rows
// here. One bad table or event costs that table or event (an ingest_errors row and a dead letter), never the
// segment or the pipeline.
import type { z } from 'zod';
import type { Segment, TableRows } from '../bus/bus.js';
import type { TableLayout } from '../../schemas/columns.js';
import { boundedExcerpt, type IngestError } from '../../schemas/ingest-error.js';
import { RowBinaryError, RowBinaryReader } from '../../schemas/row-binary.js';
import { buildRows, type RowBuilder } from '../rows/row-builder.js';

/**
 * What a sink knows of the data families (the registry, ingest/families/registry.ts): the layouts of their tables,
 * and for messages of agents older than row encoding (Kafka schemas 2–3) each family's event schema and row builder.
 */
export interface SegmentCatalog {
  layout(id: string): TableLayout | undefined;
  family(name: string): { events: z.ZodType; rows(): RowBuilder } | undefined;
}

/** A table's rows or an old agent's event that failed its check; `value` is what the dead letter carries. */
export interface InvalidRecord {
  kind: 'invalid_rows' | 'invalid_event' | 'unmappable_segment';
  index: number;
  value: unknown;
  reason: string;
  /** File offset the ingest error names. */
  offset: number;
}

export interface ValidatedSegment {
  /** The segment with only what passed; each failure became an ingest error in it. */
  segment: Segment;
  invalid: InvalidRecord[];
}

/** Why a table's bytes are not what their header says, or null when they are. */
export function checkTableRows(t: TableRows, catalog: Pick<SegmentCatalog, 'layout'>): string | null {
  const layout = catalog.layout(t.layout);
  if (layout === undefined || layout.table !== t.table) {
    return `${t.table} rows come in layout ${t.layout}, which this perfpipe does not know (an agent of another version?)`;
  }
  const r = new RowBinaryReader(t.body);
  try {
    for (let i = 0; i < t.rows; i++) layout.skipRow(r);
  } catch (error) {
    if (!(error instanceof RowBinaryError)) throw error;
    return `${t.table} rows end early: ${error.message} of ${t.body.length} (header says ${t.rows} rows)`;
  }
  if (!r.done) return `${t.table} rows: ${t.body.length - r.pos} bytes left after the ${t.rows} rows the header announces`;
  return null;
}

/** Deterministic: the same segment gives the same rows, so a replay carries the same dedup tokens. */
export function validateSegment(segment: Segment, catalog: SegmentCatalog): ValidatedSegment {
  const invalid: InvalidRecord[] = [];
  const tables: TableRows[] = [];
  const family = catalog.family(segment.family);
  if (family === undefined) {
    // A family only a newer agent knows: its rows would land in tables this version may not have.
    invalid.push({
      kind: 'unmappable_segment', index: -1, offset: segment.start, value: { family: segment.family, tables: segment.tables.map((t) => t.table) },
      reason: `segment ${segment.id} is of family ${JSON.stringify(segment.family)}, which this perfpipe does not know (an agent of another version?)`,
    });
  }
  // The tables of an unknown family are left out as a whole: the error above covers them.
  (family === undefined ? [] : segment.tables).forEach((t, index) => {
    const reason = checkTableRows(t, catalog);
    if (reason === null) { tables.push(t); return; }
    invalid.push({
      kind: 'invalid_rows', index, offset: segment.start, reason: `segment ${segment.id}: ${reason}`,
      value: { table: t.table, layout: t.layout, rows: t.rows, bytes: t.body.length, head: t.body.subarray(0, 256).toString('base64') },
    });
  });
  let records = segment.records;
  if (segment.legacy !== undefined && family !== undefined) {
    const schema = family.events;
    const events: unknown[] = [];
    segment.legacy.forEach((event, index) => {
      const parsed = schema.safeParse(event);
      if (parsed.success) events.push(parsed.data);
      else invalid.push({ kind: 'invalid_event', index, value: event, offset: offsetOf(event) ?? segment.start, reason: `event ${index} of segment ${segment.id} does not match the ${segment.family} event schema: ${describe(parsed.error)}` });
    });
    try {
      const rows = buildRows(family.rows, events);
      tables.push(...rows.tables);
      records = rows.records;
    } catch (error) {
      // Mapping is deterministic: events that cannot become rows now never will, and retrying them would block
      // their partition for good. They become one ingest error covering the segment's bytes instead.
      invalid.push({ kind: 'unmappable_segment', index: -1, value: events[0] ?? null, offset: segment.start, reason: `${segment.file} bytes ${segment.start}–${segment.end}: ${events.length} ${segment.family} records could not be mapped to rows: ${(error as Error).message.slice(0, 300)}` });
    }
  }
  if (invalid.length === 0 && segment.legacy === undefined) return { segment, invalid };
  const errors = invalid.map((bad): IngestError => ({
    host: segment.host, source: segment.source, file: segment.file, file_key: segment.file_key,
    offset: bad.offset, length: 0, kind: bad.kind,
    reason: bad.reason, excerpt: boundedExcerpt(safeJson(bad.value)), can_continue: true,
  }));
  const { legacy: _legacy, ...rest } = segment;
  return { segment: { ...rest, records, tables, errors: [...segment.errors, ...errors] }, invalid };
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
