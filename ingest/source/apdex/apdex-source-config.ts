// Configuration of an APDEX source, the directory the SSL «Оценка производительности» export job writes into
// (docs/apdex.md §2.2): every key with its unit and default (this block is the user doc).
import { z } from 'zod';

export const ApdexSourceConfigSchema = z.strictObject({
  type: z.literal('apdex'),
  /** The export directory (`<dir>/<yyyy-mm-dd HH-mm-ss>-<NNNNN>.xml`); only its top level is read; or one export file. Required. */
  location: z.string().min(1),
  /** Base names to read: a glob with `*` and `?`, matched case-insensitively. Default `*.xml`. */
  pattern: z.string().min(1).default('*.xml'),
  /**
   * IANA zone of export dateTimes written without an offset. Default none: read as UTC, which the fields' names
   * (`tUtc`, `tSaveUTC`) state. Only UTC is applied today (the parser does not report which texts lacked a
   * zone); another zone is refused rather than ignored. 1.0.0.4 `tUtc` is a millisecond count and never shifted.
   */
  tz: z.enum(['UTC', 'Etc/UTC'], {
    error: (issue) => `${JSON.stringify(issue.input)}: only "UTC" is supported for export times so far`,
  }).nullable().default(null),
  /**
   * Follow mode: seconds a file without its closing `</Performance>` must stay unchanged before it is read as it
   * is (a writer that died mid-file). A complete file is read at once. Default 30.
   */
  idle_finish_s: z.number().int().nonnegative().default(30),
});
export type ApdexSourceConfig = z.infer<typeof ApdexSourceConfigSchema>;
