// Configuration of an `atop_raw` source: the binary daily logs `atop -w` writes (`/var/log/atop/atop_YYYYMMDD`),
// replayed through the installed `atop -r`. Every key with its unit and default (this block is the user doc).
import { z } from 'zod';
import { ATOP_STORED_LABELS, AtopLabelsSchema } from './atop-labels.js';

export const AtopRawSourceConfigSchema = z.strictObject({
  type: z.literal('atop_raw'),
  /** The directory of raw logs (top level only, see `pattern`), or one raw log file. Required. */
  location: z.string().min(1),
  /** When `location` is a directory: base names to read, a glob with `*` and `?` (case-insensitive). Default `atop_*`. */
  pattern: z.string().min(1, { error: 'is empty; expected a glob such as "atop_*"' }).default('atop_*'),
  /**
   * The atop that replays the logs: a path, or a name looked up on PATH. It must be the version that wrote them
   * (atop refuses another version's raw format, docs/atop-format.md §9). Default `atop`.
   */
  command: z.string().min(1).default('atop'),
  /** Labels asked of `atop -r … -P`. Default the ones perfpipe stores (ingest/source/atop/atop-labels.ts). */
  labels: AtopLabelsSchema.default(() => [...ATOP_STORED_LABELS]),
});
export type AtopRawSourceConfig = z.infer<typeof AtopRawSourceConfigSchema>;
