// A piece of input no parser could turn into an event: stored, counted, never thrown (STYLE §5).
import { z } from 'zod';

export const IngestErrorSchema = z.strictObject({
  host: z.string(),
  source: z.string(),
  file: z.string(),
  file_key: z.string(),
  /** Byte offset in the file where the bad input starts. */
  offset: z.number().int().nonnegative(),
  /** Number of input bytes this error accounts for (they belong to no event). */
  length: z.number().int().nonnegative(),
  /** Short machine-readable kind, e.g. `unterminated_quote`, `garbage_line`, `invalid_utf8`. */
  kind: z.string(),
  /** A sentence a DBA understands: what was wrong and what was expected. */
  reason: z.string(),
  /** At most 512 characters of the offending input. */
  excerpt: z.string(),
  /** Whether the parser found its footing again after this input. */
  can_continue: z.boolean(),
});
export type IngestError = z.infer<typeof IngestErrorSchema>;

export const EXCERPT_LIMIT = 512;

/** Cuts an excerpt to the stored bound, marking the cut. */
export function boundedExcerpt(text: string): string {
  return text.length <= EXCERPT_LIMIT ? text : `${text.slice(0, EXCERPT_LIMIT - 1)}…`;
}
