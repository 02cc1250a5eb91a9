// Configuration of an atop source, the text that `atop -P LABELS INTERVAL >> FILE` appends to: every key with its
// unit and default (this block is the user doc).
import { z } from 'zod';

export const AtopSourceConfigSchema = z.strictObject({
  type: z.literal('atop'),
  /**
   * A file atop -P output is appended to, or a directory of such files (top level only, see `pattern`). Required.
   * Binary raw logs (`/var/log/atop/atop_YYYYMMDD`, `atop -w`) are not text: read them with an `atop_raw` source.
   */
  location: z.string().min(1),
  /** When `location` is a directory: base names to read, a glob with `*` and `?` (case-insensitive). Default `*.txt`. */
  pattern: z.string().min(1, { error: 'is empty; expected a glob such as "*.txt"' }).default('*.txt'),
  /** Seconds a file must stay unchanged, once a newer matching file exists beside it, before it is finished and closed. Default 60. */
  idle_finish_s: z.number().int().nonnegative({
    error: (issue) => `${JSON.stringify(issue.input)} is negative; expected seconds >= 0`,
  }).default(60),
});
export type AtopSourceConfig = z.infer<typeof AtopSourceConfigSchema>;
