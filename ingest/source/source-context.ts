// What every family's source is built from (the `createSource` of the family modules its descriptor names,
// ingest/source/family.ts): the host it speaks for, whether it follows or backfills, where its segments go and its
// calls are heard, its checkpoint directory, the reading settings every file-reading family shares, and from its
// family's descriptor the name its segments carry and the builder of their rows.
import type { Family, Segment } from '../bus/bus.js';
import type { RowBuilder } from '../rows/row-builder.js';
import type { FileSourceOptions } from './file-source.js';
import type { PgActivityEvents, SourceEvents } from './source-events.js';

/** The pipeline's reading settings (config `pipeline:`), the same for every family that reads files. */
export type FileReadSettings = Pick<FileSourceOptions,
  'pollIntervalMs' | 'segmentBytes' | 'segmentDelayMs' | 'recycleAcked' | 'readChunkBytes' | 'maxInFlightPerFile'
  | 'backfillConcurrency' | 'limits' | 'maxOpenFiles' | 'rotateWaitMs' | 'readAhead'>;

/** What the assembly gives a source, whatever its family. */
export interface PipelineContext {
  host: string;
  mode: 'follow' | 'backfill';
  publish(segment: Segment): Promise<void>;
  events: SourceEvents;
  /** What a pg_activity source says besides: it reads no files. */
  activity: PgActivityEvents;
  /** This source's own checkpoint directory (one per source location). */
  checkpointDir: string;
  read: FileReadSettings;
}

/** The pipeline's context and the family's own part, taken from its descriptor by the registry. */
export interface SourceContext extends PipelineContext {
  family: Family;
  /** A new builder of the family's rows: one per file, or per message of an older agent. */
  createRows(): RowBuilder;
}
