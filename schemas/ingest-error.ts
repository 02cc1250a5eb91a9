// A piece of input no parser could turn into an event: stored, counted, never thrown (docs/style.md §5).
import type { z } from 'zod';
import { col, tableLayout } from './columns.js';

export const INGEST_ERRORS = tableLayout('ingest_errors', {
  host: col.lowCardinality(),
  source: col.lowCardinality(),
  file: col.string(),
  file_key: col.string(),
  /** Byte offset in the file where the bad input starts. */
  offset: col.safeUint64(),
  /** Number of input bytes this error accounts for (they belong to no event). */
  length: col.safeUint64(),
  /** Short machine-readable kind, e.g. `unterminated_quote`, `garbage_line`, `invalid_utf8`. */
  kind: col.lowCardinality(),
  /** A sentence a DBA understands: what was wrong and what was expected. */
  reason: col.string(),
  /** At most 512 characters of the offending input. */
  excerpt: col.string(),
  /** Whether the parser found its footing again after this input. */
  can_continue: col.bool(),
});

export const IngestErrorSchema = INGEST_ERRORS.schema;
export type IngestError = z.infer<typeof IngestErrorSchema>;

export { boundedExcerpt, EXCERPT_LIMIT } from './excerpt.js';
