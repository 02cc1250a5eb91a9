// Configuration of a `perfmon` source: every key with its unit and default (this block is the user doc).
import { z } from 'zod';

export const PerfmonSourceConfigSchema = z.strictObject({
  type: z.literal('perfmon'),
  /** A directory of counter logs exported as CSV, or one such file. Required. */
  location: z.string().min(1),
  /** Base names to read when `location` is a directory, a glob with `*` and `?`. Default `*.csv`. */
  pattern: z.string().min(1).default('*.csv'),
  /** Seconds a file must stay unchanged, once a newer log exists beside it, before it is finished. Default 60. */
  idle_finish_s: z.number().int().nonnegative().default(60),
});
export type PerfmonSourceConfig = z.infer<typeof PerfmonSourceConfigSchema>;
