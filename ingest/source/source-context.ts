// What every source family builds its source from (the family modules listed in ingest/families/registry.ts): the
// host it speaks for, whether it follows or backfills, where its segments go and its calls are heard, its
// checkpoint directory, and the reading settings of the pipeline config that every file-reading family shares.
import type { Segment } from '../bus/bus.js';
import type { FileSourceOptions } from './file-source.js';
import type { SourceEvents } from './source-events.js';

/** The pipeline's reading settings (config `pipeline:`), the same for every family that reads files. */
export type FileReadSettings = Pick<FileSourceOptions,
  'pollIntervalMs' | 'segmentBytes' | 'segmentDelayMs' | 'recycleAcked' | 'readChunkBytes' | 'maxInFlightPerFile'
  | 'backfillConcurrency' | 'limits' | 'maxOpenFiles' | 'rotateWaitMs' | 'readAhead'>;

export interface SourceContext {
  host: string;
  mode: 'follow' | 'backfill';
  publish(segment: Segment): Promise<void>;
  events: SourceEvents;
  /** This source's own checkpoint directory (one per source location). */
  checkpointDir: string;
  read: FileReadSettings;
}
