// The narrow pipe between sources and sinks. Two implementations (memory, kafka) pass one contract suite.
import type { TableLayout } from '../../schemas/columns.js';
import type { IngestError } from '../../schemas/ingest-error.js';

/** A data family's name (ingest/families/registry.ts): one Kafka topic (`perfpipe.<family>`) and its own tables each. */
export type Family = string;

/**
 * What a bus knows of the data families, handed to it by whoever assembles it (the registry, ingest/families/): their
 * names, a Kafka topic each, and their tables' layouts, by which the Kafka bus cuts a table's rows into messages.
 */
export interface FamilyCatalog {
  readonly names: readonly Family[];
  layout(id: string): TableLayout | undefined;
}

/**
 * One table's rows of a segment, encoded once where they were parsed: RowBinary in the table's layout
 * (schemas/columns.ts). The sink checks and inserts these bytes as they are (docs/write-path.md).
 */
export interface TableRows {
  table: string;
  /** `TableLayout.id`: the columns, their order and types the rows were written in. */
  layout: string;
  rows: number;
  body: Buffer;
}

/**
 * A contiguous byte range [start, end) of one source file and the rows of every record parsed from it.
 * Segments are the unit of exactly-once: the sink inserts one segment as one insert per table with
 * an `insert_deduplication_token` derived from `id`, and a source replays a segment only over exactly
 * the same range (ingest/source/checkpoint-store.ts records the range before publishing it).
 */
export interface Segment {
  /** `<host>|<file_key>|<start>-<end>`: stable across replays of the same range. */
  id: string;
  family: Family;
  host: string;
  source: string;
  file: string;
  file_key: string;
  start: number;
  end: number;
  /** Records the source parsed from these bytes (events, log entries, atop lines, measurements). */
  records: number;
  /** Their rows, per table (tables without rows left out). */
  tables: TableRows[];
  errors: IngestError[];
  /** Events of an agent older than row encoding (Kafka schemas 2–3): the sink maps them to rows itself. */
  legacy?: unknown[];
}

/** A segment's identity and place, without its contents. */
export type SegmentHead = Omit<Segment, 'records' | 'tables' | 'errors' | 'legacy'>;

export type SegmentHandler = (segment: Segment) => Promise<void>;

/**
 * Acknowledge, then checkpoint: `publish` resolves only once the segment is durable downstream — acked
 * by Kafka (acks=all), or for the in-process bus handled by the consumer (inserted into ClickHouse).
 * A source advances its file checkpoint only after that. A segment handed to `publish` is never
 * touched again by its sender before that; once acknowledged, neither the bus nor its consumer reads it any more
 * (the source may write its buffers again). `consume` registers the single consumer of this process; its handler
 * resolving acknowledges the segment (the Kafka bus commits offsets only then).
 */
export interface Bus {
  readonly kind: 'memory' | 'kafka';
  start(): Promise<void>;
  publish(segment: Segment): Promise<void>;
  consume(handler: SegmentHandler): Promise<void>;
  /** Safe before start and twice; flushes what it holds. */
  stop(): Promise<void>;
}

export function segmentId(host: string, fileKey: string, start: number, end: number): string {
  return `${host}|${fileKey}|${start}-${end}`;
}
